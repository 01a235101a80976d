// Shape checks for entries read from a session file. Files are not
// schema-checked on the way in (hand edits, other versions, damage), and a
// message whose `content` is `5` would otherwise fail every request with
// "content is not iterable". An invalid entry keeps its place in the tree (so
// its children's chain holds) but contributes nothing to the context; an
// unknown content block (a newer version's) is left on disk and only dropped
// from what the model sees.
import type { SessionEntry } from "./types.js";

function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Content block types each role may send; anything else is dropped from the projection. */
export const KNOWN_BLOCKS: Record<string, ReadonlySet<string>> = {
	user: new Set(["text", "image"]),
	assistant: new Set(["text", "thinking", "toolCall"]),
	toolResult: new Set(["text", "image"]),
	custom: new Set(["text", "image"]),
	system: new Set(["text"]),
};

/** What is wrong with a known block's fields, or undefined. Unknown block types are not judged here. */
function blockProblem(block: unknown, index: number): string | undefined {
	if (!isRecord(block) || typeof block.type !== "string") return `content[${index}] is not a content block`;
	switch (block.type) {
		case "text":
			return typeof block.text === "string" ? undefined : `content[${index}].text is not a string`;
		case "thinking":
			return typeof block.thinking === "string" ? undefined : `content[${index}].thinking is not a string`;
		case "image":
			return typeof block.data === "string" && typeof block.mimeType === "string"
				? undefined
				: `content[${index}] is an image without data or mimeType`;
		case "toolCall":
			return typeof block.id === "string" && typeof block.name === "string" && isRecord(block.arguments)
				? undefined
				: `content[${index}] is a tool call without id, name or arguments`;
		default:
			return undefined;
	}
}

function contentProblem(content: unknown, allowString: boolean): string | undefined {
	if (content == null) return undefined; // old files: treated as empty
	if (typeof content === "string") return allowString ? undefined : "content is a string, expected a list of blocks";
	if (!Array.isArray(content)) return `content is ${typeof content}, expected ${allowString ? "text or " : ""}a list`;
	for (let i = 0; i < content.length; i++) {
		const p = blockProblem(content[i], i);
		if (p) return p;
	}
	return undefined;
}

/** Why a loaded entry cannot be used in the context, or undefined when it can. */
export function entryProblem(entry: SessionEntry): string | undefined {
	const e = entry as unknown as Record<string, unknown>;
	if (e.type === "message") {
		const m = e.message;
		if (!isRecord(m) || typeof m.role !== "string") return "message entry without a message role";
		switch (m.role) {
			case "user":
			case "system":
				return contentProblem(m.content, true);
			case "assistant":
				return contentProblem(m.content, false);
			case "toolResult":
				if (typeof m.toolCallId !== "string") return "tool result without a toolCallId";
				return contentProblem(m.content, false);
			case "bashExecution":
				return typeof m.command === "string" && typeof m.output === "string"
					? undefined
					: "bash execution without command or output";
			default:
				return undefined; // extension roles: not ours to judge
		}
	}
	if (e.type === "custom_message") return contentProblem(e.content, true);
	if (e.type === "compaction" || e.type === "branch_summary") {
		return e.summary === undefined || typeof e.summary === "string" ? undefined : "summary is not a string";
	}
	return undefined;
}

/** The stand-in kept in the tree for an entry that cannot be used (same id and parent). */
export function invalidEntryStandIn(entry: SessionEntry, problem: string): SessionEntry {
	return {
		type: "custom",
		id: entry.id,
		parentId: entry.parentId,
		timestamp: entry.timestamp,
		customType: "pi.invalid-entry",
		data: { type: entry.type, problem },
	};
}

/** The content without blocks of unknown types (the same array when nothing is dropped). */
export function withoutUnknownBlocks<T>(role: string, content: T): T {
	const known = KNOWN_BLOCKS[role];
	if (!known || !Array.isArray(content)) return content;
	let keep = true;
	for (const b of content) if (!known.has((b as { type?: string }).type ?? "")) keep = false;
	if (keep) return content;
	return content.filter((b) => known.has((b as { type?: string }).type ?? "")) as T;
}
