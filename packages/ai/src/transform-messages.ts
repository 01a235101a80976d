import type {
	AssistantMessage,
	ImageContent,
	Message,
	Model,
	TextContent,
	ToolCall,
	ToolResultMessage,
	UserMessage,
} from "./types.js";

export interface TransformOptions {
	/** Rewrites tool-call ids to what the target API accepts; applied to calls and results alike. */
	normalizeToolCallId?: (id: string) => string;
}

/** The note that stands in for an image when the target model reads only text. */
export const IMAGE_OMITTED_NOTE = "(image omitted: this model does not accept images)";
/** The content of the synthetic result given to a tool call that never got one. */
export const MISSING_TOOL_RESULT_TEXT = "No result provided";

/**
 * Makes a transcript acceptable to `model`, whichever models wrote it:
 * - assistant turns from another provider/api/model lose provider-only data:
 *   thinking becomes plain `<thinking>` text (dropped when empty or redacted),
 *   text and tool-call signatures are removed; same-model turns keep them;
 * - tool-call ids are rewritten consistently in calls and their results;
 * - images become a short note for text-only models;
 * - a tool call with no result gets a synthetic error result, and a result
 *   whose call is gone is dropped, so the API accepts the history;
 * - failed turns are skipped whole (a cut stream's partial is not an answer);
 *   aborted turns with no content are skipped too.
 * The input is not mutated.
 */
export function transformMessagesForModel(
	messages: readonly Message[],
	model: Model,
	options: TransformOptions = {},
): Message[] {
	const idMap = new IdMapper(options.normalizeToolCallId);
	const acceptsImages = model.input.includes("image");
	const out: Message[] = [];
	// Tool calls of the latest assistant turn still waiting for a result.
	let pending: ToolCall[] = [];
	let pendingTime = 0;

	const flushPending = () => {
		for (const call of pending) out.push(syntheticResult(call, pendingTime));
		pending = [];
	};

	for (const message of messages) {
		if (message.role === "assistant") {
			flushPending();
			if (message.stopReason === "error") continue;
			if (message.stopReason === "aborted" && message.content.length === 0) continue;
			const converted = convertAssistant(message, model, idMap);
			if (converted.content.length === 0) continue;
			out.push(converted);
			pending = converted.content.filter((block): block is ToolCall => block.type === "toolCall");
			pendingTime = message.timestamp;
		} else if (message.role === "toolResult") {
			const id = idMap.map(message.toolCallId);
			const index = pending.findIndex((call) => call.id === id);
			if (index < 0) continue; // its call is not in the transcript: no API accepts it
			pending.splice(index, 1);
			const content = acceptsImages ? message.content : imagesToNotes(message.content);
			out.push({ ...message, toolCallId: id, content } satisfies ToolResultMessage);
		} else if (message.role === "user") {
			flushPending();
			if (acceptsImages || typeof message.content === "string") out.push(message);
			else out.push({ ...message, content: imagesToNotes(message.content) } satisfies UserMessage);
		} else {
			// A system message may sit between calls and results without closing the turn.
			out.push(message);
		}
	}
	flushPending();
	return out;
}

function convertAssistant(message: AssistantMessage, model: Model, idMap: IdMapper): AssistantMessage {
	const sameModel = message.provider === model.provider && message.api === model.api && message.model === model.id;
	const content: AssistantMessage["content"] = [];
	for (const block of message.content) {
		if (block.type === "toolCall") {
			const call: ToolCall = { ...block, id: idMap.map(block.id) };
			if (!sameModel) delete call.thoughtSignature;
			content.push(call);
		} else if (block.type === "thinking") {
			if (sameModel) content.push(block);
			else if (!block.redacted && block.thinking.trim() !== "")
				content.push({ type: "text", text: `<thinking>\n${block.thinking}\n</thinking>` });
		} else if (sameModel || block.textSignature === undefined) {
			content.push(block);
		} else {
			content.push({ type: "text", text: block.text });
		}
	}
	return { ...message, content };
}

function imagesToNotes(content: (TextContent | ImageContent)[]): TextContent[] {
	const out: TextContent[] = [];
	for (const block of content) {
		if (block.type === "text") out.push(block);
		else if (out.at(-1)?.text !== IMAGE_OMITTED_NOTE) out.push({ type: "text", text: IMAGE_OMITTED_NOTE });
	}
	return out;
}

function syntheticResult(call: ToolCall, timestamp: number): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
		isError: true,
		timestamp,
	};
}

/** Keeps id rewriting consistent and collision-free across a whole transcript. */
class IdMapper {
	private readonly byOriginal = new Map<string, string>();
	private readonly used = new Set<string>();

	constructor(private readonly normalize?: (id: string) => string) {}

	map(id: string): string {
		if (!this.normalize) return id;
		const known = this.byOriginal.get(id);
		if (known !== undefined) return known;
		let candidate = this.normalize(id);
		for (let n = 2; this.used.has(candidate); n++) candidate = this.normalize(`${id}_${n}`);
		this.byOriginal.set(id, candidate);
		this.used.add(candidate);
		return candidate;
	}
}

/**
 * A tool-call id limited to `[a-zA-Z0-9_-]` and `maxLength` characters (what
 * Anthropic requires; OpenAI accepts up to 64). Valid ids come back unchanged;
 * long ones keep a hash of the whole id so distinct ids stay distinct.
 */
export function safeToolCallId(id: string, maxLength = 64): string {
	const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, "_");
	if (cleaned === id && id.length > 0 && id.length <= maxLength) return id;
	const hash = fnv1a(id);
	if (cleaned.length === 0) return `call_${hash}`;
	const head = cleaned.slice(0, Math.max(0, maxLength - hash.length - 1));
	return `${head}_${hash}`;
}

function fnv1a(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(36);
}
