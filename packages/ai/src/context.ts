import type { Context, Message, SystemMessage, Tool } from "./types.js";

/**
 * The context every adapter receives: the caller's `systemPrompt`/`tools`
 * shorthand folded into a leading system message, so prompt and tool changes
 * are all just system messages in history.
 */
export interface NormalizedContext {
	messages: Message[];
}

/** The prompt and tools in effect after replaying system messages in order. */
export interface SystemState {
	systemPrompt: string;
	tools: Tool[];
}

export type NonSystemMessage = Exclude<Message, SystemMessage>;

/** Text of a system message's `content`, blocks joined by blank lines. */
export function systemContentText(content: SystemMessage["content"]): string {
	if (typeof content === "string") return content;
	return content.map((block) => block.text).join("\n\n");
}

/**
 * Folds `systemPrompt` and `tools` into a leading system message. When the
 * transcript already starts with one, the shorthand prompt comes first and the
 * shorthand tools are declared before that message's own (later wins by name).
 * The input is not mutated.
 */
export function normalizeContext(context: Context): NormalizedContext {
	const prompt = context.systemPrompt ?? "";
	const tools = context.tools ?? [];
	if (prompt === "" && tools.length === 0) return { messages: context.messages };
	const first = context.messages[0];
	if (first?.role === "system") {
		const own = systemContentText(first.content);
		const merged: SystemMessage = {
			...first,
			content: [prompt, own].filter((part) => part !== "").join("\n\n"),
		};
		if (tools.length > 0 || first.toolsAdded) merged.toolsAdded = [...tools, ...(first.toolsAdded ?? [])];
		return { messages: [merged, ...context.messages.slice(1)] };
	}
	const leading: SystemMessage = { role: "system", content: prompt, timestamp: 0 };
	if (tools.length > 0) leading.toolsAdded = tools;
	return { messages: [leading, ...context.messages] };
}

/**
 * Replays system messages in order: `content` is appended, `sections` replace
 * (string) or remove (null) named sections, which render after all content in
 * the order they were first declared; tools are removed by name, then added
 * (same name replaces), so one message can carry a changed definition.
 */
export function replaySystemState(messages: readonly Message[]): SystemState {
	const contents: string[] = [];
	const sections = new Map<string, string>();
	const tools = new Map<string, Tool>();
	for (const message of messages) {
		if (message.role !== "system") continue;
		const text = systemContentText(message.content);
		if (text !== "") contents.push(text);
		for (const [name, value] of Object.entries(message.sections ?? {})) {
			if (value === null) sections.delete(name);
			else sections.set(name, value);
		}
		// A changed definition is recorded as a removal and an addition in one message: removals go first.
		for (const { name } of message.toolsRemoved ?? []) tools.delete(name);
		for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
	}
	const parts = [...contents, ...[...sections.values()].filter((s) => s !== "")];
	return { systemPrompt: parts.join("\n\n"), tools: [...tools.values()] };
}

/**
 * For APIs without mid-conversation system messages: the replayed prompt and
 * tools, and the transcript without any system message.
 */
export function splitSystemMessages(messages: readonly Message[]): SystemState & { messages: NonSystemMessage[] } {
	const state = replaySystemState(messages);
	return { ...state, messages: messages.filter((m): m is NonSystemMessage => m.role !== "system") };
}

/**
 * How a later system message reads when sent in place (APIs that accept system
 * messages anywhere): its content, then replaced sections; removed sections and
 * tool changes are stated briefly so the model knows what stopped applying.
 */
export function renderSystemUpdate(message: SystemMessage): string {
	const parts: string[] = [];
	const text = systemContentText(message.content);
	if (text !== "") parts.push(text);
	for (const [name, value] of Object.entries(message.sections ?? {})) {
		if (value === null) parts.push(`(The "${name}" instructions no longer apply.)`);
		else if (value !== "") parts.push(value);
	}
	// A tool removed and added again in one message changed its definition; it is still available.
	const readded = new Set((message.toolsAdded ?? []).map((t) => t.name));
	const gone = (message.toolsRemoved ?? []).filter((t) => !readded.has(t.name));
	if (gone.length > 0) {
		parts.push(`(Tools no longer available: ${gone.map((t) => t.name).join(", ")}.)`);
	}
	return parts.join("\n\n");
}
