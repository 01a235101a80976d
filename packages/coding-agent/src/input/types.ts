// The shapes of the prompt path (see README.md for the order and the rules).
import type { AgentMessage } from "@pi/agent-core";
import type { ImageContent } from "@pi/ai";
import type { InputSource } from "../extensions/events.js";

export type { InputSource };

type Awaitable<T> = T | Promise<T>;

/** What the user (or an extension) submitted, as rewritten by the stages so far. */
export interface PromptInput {
	text: string;
	images?: ImageContent[];
}

export interface InputContext {
	/** Where the input came from (the `input` event's `source`). */
	readonly source: InputSource;
	/** Set when the input is queued into a running run instead of starting one. */
	readonly streamingBehavior?: "steer" | "followUp";
	/**
	 * false: the command slots (extension command, skill command, prompt
	 * template) are skipped and the text goes on as typed; only the `input`
	 * event sees it (pi.sendUserMessage without `expandPromptTemplates`).
	 * Default true.
	 */
	readonly expandPromptTemplates?: boolean;
}

/**
 * What a stage decides: pass the input on unchanged (`continue`, or no
 * result at all), pass a rewritten input on (`transform`), or consume it
 * (`handled`: a command ran; nothing is sent and later stages do not run).
 */
export type InputStageResult =
	| { action: "continue" }
	| { action: "transform"; input: PromptInput }
	| { action: "handled" };

/** One step of the prompt path. A throw rejects the prompt (extension stages catch their handlers' errors). */
export type InputStage = (input: PromptInput, context: InputContext) => Awaitable<InputStageResult | undefined>;

/** The named slots, in the order they run. */
export const INPUT_SLOTS = ["extensionCommand", "inputEvent", "skillCommand", "promptTemplate"] as const;
export type InputSlot = (typeof INPUT_SLOTS)[number];

/** The slots that treat `/name` as a command; skipped when `expandPromptTemplates` is false. */
export const COMMAND_SLOTS: ReadonlySet<InputSlot> = new Set<InputSlot>([
	"extensionCommand",
	"skillCommand",
	"promptTemplate",
]);

/**
 * The last step, `before_agent_start`: runs only when the input starts a run
 * (never for steer/follow-up), after the system prompt is recorded; returns
 * messages to send along with the prompt (in order), or nothing.
 */
export type AgentStartStage = (input: PromptInput) => Awaitable<AgentMessage[] | undefined>;

/** The outcome of the text stages. */
export type InputOutcome = { handled: true } | { handled: false; input: PromptInput };
