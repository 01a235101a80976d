// The prompt path as explicit, ordered stages instead of a growing
// AgentSession.prompt: extension command → `input` event → skill command →
// prompt template, then (only when a run starts) `before_agent_start`.
// The pipeline owns the order and the rules; the stages themselves are
// supplied from outside (the extension runner, the resource expansions), so
// this file knows nothing of extensions, skills or templates.
import type { AgentMessage } from "@pi/agent-core";
import {
	type AgentStartStage,
	COMMAND_SLOTS,
	INPUT_SLOTS,
	type InputContext,
	type InputOutcome,
	type InputSlot,
	type InputStage,
	type PromptInput,
} from "./types.js";

export class InputPipeline {
	private readonly slots = new Map<InputSlot, InputStage[]>(INPUT_SLOTS.map((s) => [s, []]));
	private agentStart: AgentStartStage[] = [];

	/**
	 * Adds a stage to a slot (several per slot run in the order added);
	 * returns the function that removes it again (reload, session switch).
	 */
	use(slot: InputSlot, stage: InputStage): () => void {
		const list = this.slots.get(slot);
		if (!list) throw new Error(`Unknown input slot: ${String(slot)}`);
		this.slots.set(slot, [...list, stage]);
		return () => {
			this.slots.set(
				slot,
				(this.slots.get(slot) ?? []).filter((s) => s !== stage),
			);
		};
	}

	/** Whether any stage sits in one of these slots. */
	has(...slots: InputSlot[]): boolean {
		return slots.some((slot) => (this.slots.get(slot)?.length ?? 0) > 0);
	}

	/** Adds a `before_agent_start` stage; returns the function that removes it. */
	onAgentStart(stage: AgentStartStage): () => void {
		this.agentStart = [...this.agentStart, stage];
		return () => {
			this.agentStart = this.agentStart.filter((s) => s !== stage);
		};
	}

	/**
	 * Runs the text stages in slot order, from `from` through `to` (the
	 * session runs the extension slots before it marks itself busy, then the
	 * rest; steer/follow-up typed straight to the session start at
	 * `skillCommand`). Each stage sees the input as rewritten by the ones
	 * before; the first `handled` ends it. With `expandPromptTemplates: false`
	 * the command slots are skipped.
	 */
	async process(
		input: PromptInput,
		context: InputContext,
		from: InputSlot = INPUT_SLOTS[0],
		to: InputSlot = INPUT_SLOTS[INPUT_SLOTS.length - 1],
	): Promise<InputOutcome> {
		let current = input;
		for (const slot of INPUT_SLOTS.slice(INPUT_SLOTS.indexOf(from), INPUT_SLOTS.indexOf(to) + 1)) {
			if (context.expandPromptTemplates === false && COMMAND_SLOTS.has(slot)) continue;
			for (const stage of this.slots.get(slot) ?? []) {
				const result = await stage(current, context);
				if (!result || result.action === "continue") continue;
				if (result.action === "handled") return { handled: true };
				current = result.input;
			}
		}
		return { handled: false, input: current };
	}

	/** Runs the `before_agent_start` stages in order; their messages are collected in that order. */
	async beforeAgentStart(input: PromptInput): Promise<AgentMessage[]> {
		const messages: AgentMessage[] = [];
		for (const stage of this.agentStart) messages.push(...((await stage(input)) ?? []));
		return messages;
	}
}
