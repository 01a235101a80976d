// Replaying system messages: the leading one declares the prompt (content +
// named sections) and tools; later ones append content, patch sections by
// name (null removes) and add/remove tools. The session records prompt and
// tool changes as such patches (never rewriting the head), and a compaction
// stores the replayed result as its checkpoint.
import type { AgentMessage } from "@pi/agent-core";
import type { SystemMessage, TextContent, Tool } from "@pi/ai";

export interface SystemState {
	/** Content of every system message, in order (non-empty ones). */
	content: string[];
	sections: Map<string, string>;
	tools: Map<string, Tool>;
	/** Timestamp of the first system message seen. */
	timestamp: number | undefined;
}

function textOf(content: string | TextContent[] | null | undefined): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b) => b?.type === "text")
		.map((b) => b.text)
		.join("\n");
}

export function emptySystemState(): SystemState {
	return { content: [], sections: new Map(), tools: new Map(), timestamp: undefined };
}

/** Apply one system message to a state (mutates it). */
export function applySystemMessage(state: SystemState, m: SystemMessage): void {
	state.timestamp ??= m.timestamp;
	const text = textOf(m.content);
	if (text) state.content.push(text);
	for (const [name, value] of Object.entries(m.sections ?? {})) {
		if (value === null) state.sections.delete(name);
		else state.sections.set(name, value);
	}
	// A changed definition is a removal followed by an addition, so removals go first.
	for (const t of m.toolsRemoved ?? []) state.tools.delete(t.name);
	for (const t of m.toolsAdded ?? []) {
		state.tools.delete(t.name);
		state.tools.set(t.name, t);
	}
}

export function replaySystemState(messages: readonly AgentMessage[]): SystemState {
	const state = emptySystemState();
	for (const m of messages) if (m.role === "system") applySystemMessage(state, m);
	return state;
}

/** One system message equivalent to all system messages in `messages`, or undefined when there are none. */
export function getCurrentSystemMessage(messages: readonly AgentMessage[]): SystemMessage | undefined {
	const state = replaySystemState(messages);
	if (state.timestamp === undefined && state.tools.size === 0) return undefined;
	return systemMessageFromState(state);
}

export function systemMessageFromState(state: SystemState, timestamp = state.timestamp ?? 0): SystemMessage {
	const msg: SystemMessage = { role: "system", content: state.content.join("\n\n"), timestamp };
	if (state.sections.size > 0) msg.sections = Object.fromEntries(state.sections);
	if (state.tools.size > 0) msg.toolsAdded = [...state.tools.values()];
	return msg;
}

function sameTool(a: Tool, b: Tool): boolean {
	return (
		a.name === b.name &&
		a.description === b.description &&
		JSON.stringify(a.parameters) === JSON.stringify(b.parameters)
	);
}

/**
 * The patch that turns `current` into the desired sections and tools, or
 * undefined when nothing changed. Sections missing from `sections` are
 * removed; a tool whose declaration changed is removed and re-added.
 */
export function diffSystemState(
	current: SystemState,
	sections: Record<string, string>,
	tools: readonly Tool[],
	timestamp = Date.now(),
): SystemMessage | undefined {
	const patch: Record<string, string | null> = {};
	let changed = false;
	for (const [name, value] of Object.entries(sections)) {
		if (current.sections.get(name) !== value) {
			patch[name] = value;
			changed = true;
		}
	}
	for (const name of current.sections.keys()) {
		if (!(name in sections)) {
			patch[name] = null;
			changed = true;
		}
	}
	const wanted = new Map(tools.map((t) => [t.name, t]));
	const toolsRemoved: { name: string }[] = [];
	const toolsAdded: Tool[] = [];
	for (const [name, tool] of current.tools) {
		const next = wanted.get(name);
		if (!next || !sameTool(tool, next)) toolsRemoved.push({ name });
	}
	for (const tool of tools) {
		const prev = current.tools.get(tool.name);
		if (!prev || !sameTool(prev, tool)) {
			toolsAdded.push({ name: tool.name, description: tool.description, parameters: tool.parameters });
		}
	}
	if (!changed && toolsAdded.length === 0 && toolsRemoved.length === 0) return undefined;
	const msg: SystemMessage = { role: "system", content: "", timestamp };
	if (changed) msg.sections = patch;
	if (toolsAdded.length > 0) msg.toolsAdded = toolsAdded;
	if (toolsRemoved.length > 0) msg.toolsRemoved = toolsRemoved;
	return msg;
}
