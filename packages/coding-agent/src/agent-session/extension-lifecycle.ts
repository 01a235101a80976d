// The extension runner behind the session's lifecycle seams
// (SessionLifecycleHooks): each seam the session calls becomes the event of
// the same name with its composition rule (cancel, chain, boundary, first
// handler, notify). Installed by the bridge with `AgentSession.setLifecycleHooks`,
// so the gates hold whoever drives the session: RPC commands, the app, a
// command's ctx. Also: `ctx.ui` with `ui_prompt_start`/`ui_prompt_end` around
// blocking dialogs (nested dialogs coalesce into one span; not awaited).
import type { ExtensionRunner } from "../extensions/runner.js";
import type { SessionLifecycleHooks } from "../extensions/session-hooks.js";
import type { UIPromptKind } from "../extensions/types.js";
import type { ExtensionUIContext } from "../extensions/ui-types.js";

/** Counts turns of the current low-level run (turn_start / turn_end carry it). */
export class TurnCounter {
	index = 0;
}

export function createLifecycleHooks(runner: ExtensionRunner, turns: TurnCounter): SessionLifecycleHooks {
	return {
		beforeCompact: (event) => runner.emitBeforeCompact({ type: "session_before_compact", ...event }),
		afterCompact: (entry, fromExtension, info) =>
			runner.emit({ type: "session_compact", compactionEntry: entry, fromExtension, ...info }),
		beforeTree: async (preparation) => {
			const controller = new AbortController();
			return runner.emitBeforeTree({ type: "session_before_tree", preparation, signal: controller.signal });
		},
		afterTree: (event) => runner.emit({ type: "session_tree", ...event }),
		beforeSwitch: (event) => runner.emitCancellable({ type: "session_before_switch", ...event }),
		beforeFork: (event) => runner.emitCancellable({ type: "session_before_fork", ...event }),
		messageEnd: (message) => runner.emitMessageEnd(message),
		turnEnd: async (turn, proposal, preview) => {
			if (!runner.hasHandlers("turn_end")) return proposal;
			const result = await runner.emitBoundary(
				{
					type: "turn_end",
					turnIndex: turns.index,
					...turn,
					...proposal,
					// Read lazily by emitBoundary: only a handler that looks at the context pays for the preview.
					get context() {
						return preview(proposal.entries);
					},
				},
				preview,
			);
			return { entries: result.entries, continue: result.continue };
		},
		beforeSettle: async (outcome, proposal, preview) => {
			if (!runner.hasHandlers("agent_before_settle")) return proposal;
			const result = await runner.emitBoundary(
				{
					type: "agent_before_settle",
					outcome,
					...proposal,
					get context() {
						return preview(proposal.entries);
					},
				},
				preview,
			);
			return { entries: result.entries, continue: result.continue };
		},
		userBash: async (event) => {
			const result = await runner.emitUserBash({ type: "user_bash", ...event });
			if (result && "blocked" in result) throw new Error(result.blocked);
			return result;
		},
		modelSelect: (event) => runner.emit({ type: "model_select", ...event }),
		thinkingLevelSelect: (event) => runner.emit({ type: "thinking_level_select", ...event }),
		reportError: (event, message) => runner.emitError({ extensionPath: "<boundary>", event, error: message }),
	};
}

const PROMPT_METHODS: Record<string, UIPromptKind> = {
	select: "select",
	confirm: "confirm",
	input: "input",
	editor: "editor",
	custom: "custom",
};

/** `ctx.ui` whose blocking dialogs are announced with ui_prompt_start / ui_prompt_end. */
export function withPromptEvents(
	ui: ExtensionUIContext,
	runner: ExtensionRunner,
	span: { depth: number },
): ExtensionUIContext {
	return new Proxy(ui, {
		get(target, key, receiver) {
			const value = Reflect.get(target, key, receiver);
			const kind = typeof key === "string" ? PROMPT_METHODS[key] : undefined;
			if (!kind || typeof value !== "function") return value;
			return (...args: unknown[]) => {
				const title = typeof args[0] === "string" ? args[0] : undefined;
				const event = { reason: "ui_prompt" as const, kind, ...(title !== undefined ? { title } : {}) };
				if (span.depth++ === 0) void runner.emit({ type: "ui_prompt_start", ...event });
				const end = () => {
					if (--span.depth === 0) void runner.emit({ type: "ui_prompt_end", ...event });
				};
				try {
					const result = (value as (...a: unknown[]) => unknown).apply(target, args);
					if (result && typeof (result as Promise<unknown>).then === "function") {
						return (result as Promise<unknown>).finally(end);
					}
					end();
					return result;
				} catch (error) {
					end();
					throw error;
				}
			};
		},
	});
}
