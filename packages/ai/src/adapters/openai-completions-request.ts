import type { AdapterOptions } from "../adapter.js";
import { resolveCacheRetention } from "../cache-retention.js";
import type { NormalizedContext } from "../context.js";
import { renderSystemUpdate, replaySystemState, systemContentText } from "../context.js";
import { reasoningEffort } from "../thinking.js";
import { safeToolCallId, transformMessagesForModel } from "../transform-messages.js";
import type { ImageContent, Message, Model, TextContent, Tool } from "../types.js";
import type { ResolvedCompletionsCompat } from "./openai-completions-compat.js";
import { detectHost } from "./openai-completions-compat.js";

/** A Chat Completions message as sent; dialect fields (reasoning_content, cache_control) ride along. */
export type ChatMessageParam = { role: string; [field: string]: unknown };
type ContentPart =
	| { type: "text"; text: string; cache_control?: unknown }
	| { type: "image_url"; image_url: { url: string } };
export type ChatRequest = { model: string; messages: ChatMessageParam[]; stream: true; [field: string]: unknown };

/** The note sent after tool results that carried images, so the model knows where they came from. */
const TOOL_IMAGES_NOTE = "Images returned by the tool call above:";
/** Filler for servers that reject a user turn right after tool results. */
const ASSISTANT_BRIDGE = "Done.";

/** Builds the request body: messages in the dialect, tools, limits, reasoning and cache hints. */
export function buildChatRequest(
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
	compat: ResolvedCompletionsCompat,
): ChatRequest {
	const idStyle = compat.toolCallIdStyle;
	const messages = transformMessagesForModel(context.messages, model, {
		normalizeToolCallId: idStyle === "mistral" ? mistralToolCallId : (id) => safeToolCallId(id, 40),
	});
	const { tools } = replaySystemState(messages);
	const request: ChatRequest = {
		model: model.id,
		messages: convertMessages(model, messages, compat).map(wellFormedMessage),
		stream: true,
	};
	if (compat.supportsUsageInStreaming) request.stream_options = { include_usage: true };
	if (compat.supportsStore) request.store = false;
	if (options.maxTokens) request[compat.maxTokensField] = options.maxTokens;
	if (options.temperature !== undefined) request.temperature = options.temperature;
	if (tools.length > 0) request.tools = tools.map((tool) => convertTool(tool, compat));

	const retention = resolveCacheRetention(options);
	if (options.sessionId && retention !== "none" && detectHost(model) === "openai") {
		request.prompt_cache_key = options.sessionId;
		if (retention === "long" && compat.supportsLongCacheRetention) request.prompt_cache_retention = "24h";
	}
	applyReasoning(request, model, options, compat);
	if (compat.openRouterRouting && Object.keys(compat.openRouterRouting).length > 0)
		request.provider = compat.openRouterRouting;
	if (compat.cacheControlFormat === "anthropic" && retention !== "none") applyAnthropicCacheMarkers(request);
	return request;
}

function applyReasoning(
	request: ChatRequest,
	model: Model,
	options: AdapterOptions,
	compat: ResolvedCompletionsCompat,
) {
	if (!model.reasoning) return;
	const effort = reasoningEffort(model, options.reasoning);
	const offValue = model.thinkingLevelMap?.off;
	switch (compat.thinkingFormat) {
		case "zai":
		case "qwen":
			request.enable_thinking = effort !== undefined;
			return;
		case "qwen-chat-template":
			request.chat_template_kwargs = { enable_thinking: effort !== undefined, preserve_thinking: true };
			return;
		case "deepseek":
			request.thinking = { type: effort !== undefined ? "enabled" : "disabled" };
			if (effort !== undefined && compat.supportsReasoningEffort) request.reasoning_effort = effort;
			return;
		case "openrouter":
			if (effort !== undefined) request.reasoning = { effort };
			else if (offValue !== null) request.reasoning = { effort: offValue ?? "none" };
			return;
		default:
			if (!compat.supportsReasoningEffort) return;
			if (effort !== undefined) request.reasoning_effort = effort;
			else if (typeof offValue === "string") request.reasoning_effort = offValue;
	}
}

function convertTool(tool: Tool, compat: ResolvedCompletionsCompat) {
	const fn: Record<string, unknown> = { name: tool.name, description: tool.description, parameters: tool.parameters };
	if (compat.supportsStrictMode) fn.strict = false;
	return { type: "function", function: fn };
}

/** Converts the transcript (already transformed for this model) to Chat Completions messages. */
export function convertMessages(
	model: Model,
	messages: Message[],
	compat: ResolvedCompletionsCompat,
): ChatMessageParam[] {
	const out: ChatMessageParam[] = [];
	const systemRole = compat.supportsDeveloperRole && model.reasoning ? "developer" : "system";
	const acceptsImages = model.input.includes("image");
	let pendingImages: ImageContent[] = [];
	const flushImages = () => {
		if (pendingImages.length === 0) return;
		out.push({ role: "user", content: [{ type: "text", text: TOOL_IMAGES_NOTE }, ...pendingImages.map(imagePart)] });
		pendingImages = [];
	};

	for (const [index, message] of messages.entries()) {
		if (message.role !== "toolResult") flushImages();
		const previous = out.at(-1);
		switch (message.role) {
			case "system": {
				// The leading one is the prompt; later ones are sent in place (Chat Completions allows it).
				const text =
					index === 0
						? replaySystemState([message]).systemPrompt
						: renderSystemUpdate(message) || systemContentText(message.content);
				if (text !== "") out.push({ role: systemRole, content: text });
				break;
			}
			case "user": {
				if (compat.requiresAssistantAfterToolResult && previous?.role === "tool")
					out.push({ role: "assistant", content: ASSISTANT_BRIDGE });
				out.push({ role: "user", content: userContent(message.content) });
				break;
			}
			case "assistant": {
				const param = assistantParam(model, message, compat);
				if (param) out.push(param);
				break;
			}
			case "toolResult": {
				const text = message.content
					.filter((b): b is TextContent => b.type === "text")
					.map((b) => b.text)
					.join("\n");
				const images = message.content.filter((b): b is ImageContent => b.type === "image");
				const param: ChatMessageParam = {
					role: "tool",
					tool_call_id: message.toolCallId,
					content: text !== "" ? text : images.length > 0 ? "(see images below)" : "(no output)",
				};
				if (compat.requiresToolResultName) param.name = message.toolName;
				out.push(param);
				if (acceptsImages) pendingImages.push(...images);
				break;
			}
		}
	}
	flushImages();
	return out;
}

function userContent(content: string | (TextContent | ImageContent)[]): string | ContentPart[] {
	if (typeof content === "string") return content;
	if (content.every((b) => b.type === "text")) return content.map((b) => (b as TextContent).text).join("\n");
	return content.map((b) => (b.type === "text" ? { type: "text" as const, text: b.text } : imagePart(b)));
}

function imagePart(image: ImageContent): ContentPart {
	return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

function assistantParam(
	model: Model,
	message: Extract<Message, { role: "assistant" }>,
	compat: ResolvedCompletionsCompat,
): ChatMessageParam | undefined {
	const texts: string[] = [];
	const thoughts: { text: string; field?: string }[] = [];
	const toolCalls: unknown[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() !== "") texts.push(block.text);
		} else if (block.type === "thinking") {
			if (!block.redacted && block.thinking.trim() !== "")
				thoughts.push({ text: block.thinking, field: block.thinkingSignature });
		} else {
			toolCalls.push({
				id: block.id,
				type: "function",
				function: { name: block.name, arguments: JSON.stringify(block.arguments) },
			});
		}
	}
	const param: ChatMessageParam = { role: "assistant", content: null };
	if (thoughts.length > 0 && compat.requiresThinkingAsText) texts.unshift(thoughts.map((t) => t.text).join("\n\n"));
	else if (thoughts.length > 0) {
		// Same-model thinking goes back under the field it arrived in (recorded as its signature).
		const field = thoughts[0].field;
		if (field && /^reasoning(_content|_text)?$/.test(field)) param[field] = thoughts.map((t) => t.text).join("\n");
	}
	if (texts.length > 0) param.content = texts.join("");
	if (toolCalls.length > 0) param.tool_calls = toolCalls;
	// OpenRouter needs encrypted reasoning back with the calls it belongs to (Gemini thought signatures).
	const details = message.content.flatMap((block) =>
		block.type === "toolCall" ? encryptedDetail(block.thoughtSignature) : [],
	);
	if (details.length > 0) param.reasoning_details = details;
	if (compat.requiresReasoningContentOnAssistantMessages && model.reasoning && param.reasoning_content === undefined)
		param.reasoning_content = "";
	// A turn with neither text nor calls (an aborted start) is rejected by most servers.
	if (param.content === null && toolCalls.length === 0) return undefined;
	if (param.content === null && compat.requiresAssistantAfterToolResult) param.content = "";
	return param;
}

function encryptedDetail(signature: string | undefined): unknown[] {
	if (!signature?.startsWith("{")) return [];
	try {
		const detail = JSON.parse(signature) as { type?: unknown };
		return detail.type === "reasoning.encrypted" ? [detail] : [];
	} catch {
		return [];
	}
}

/** Marks the system prompt, last tool and last user text for Anthropic models behind OpenRouter. */
function applyAnthropicCacheMarkers(request: ChatRequest) {
	const marker = { type: "ephemeral" };
	const tools = request.tools as { cache_control?: unknown }[] | undefined;
	if (tools && tools.length > 0) tools[tools.length - 1].cache_control = marker;
	const system = request.messages.find((m) => m.role === "system" || m.role === "developer");
	if (system && typeof system.content === "string")
		system.content = [{ type: "text", text: system.content, cache_control: marker }];
	const lastUser = [...request.messages].reverse().find((m) => m.role === "user");
	if (!lastUser) return;
	if (typeof lastUser.content === "string")
		lastUser.content = [{ type: "text", text: lastUser.content, cache_control: marker }];
	else if (Array.isArray(lastUser.content)) {
		const parts = lastUser.content as ContentPart[];
		const lastText = [...parts].reverse().find((p) => p.type === "text");
		if (lastText && lastText.type === "text") lastText.cache_control = marker;
	}
}

/**
 * Replaces lone UTF-16 surrogates (left by a stream cut inside an emoji) with U+FFFD: some servers
 * reject the request body otherwise.
 */
function wellFormedMessage(message: ChatMessageParam): ChatMessageParam {
	for (const [key, value] of Object.entries(message)) {
		if (typeof value === "string") message[key] = wellFormed(value);
		else if (key === "content" && Array.isArray(value))
			for (const part of value as { text?: unknown }[])
				if (typeof part.text === "string") part.text = wellFormed(part.text);
	}
	return message;
}

function wellFormed(text: string): string {
	// String.prototype.toWellFormed exists from Node 20; the ES2023 typings do not know it yet.
	const fix = (text as { toWellFormed?: () => string }).toWellFormed;
	return fix ? fix.call(text) : text;
}

/** Mistral wants exactly nine alphanumeric characters; derived deterministically from the original id. */
export function mistralToolCallId(id: string): string {
	if (/^[a-zA-Z0-9]{9}$/.test(id)) return id;
	let hash = 0x811c9dc5;
	for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
	let second = 0x01000193;
	for (let i = id.length - 1; i >= 0; i--) second = Math.imul(second ^ id.charCodeAt(i), 0x811c9dc5);
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	let out = "";
	let a = hash >>> 0;
	let b = second >>> 0;
	for (let i = 0; i < 9; i++) {
		const source = i % 2 === 0 ? a : b;
		out += alphabet[source % 62];
		if (i % 2 === 0) a = Math.floor(a / 62);
		else b = Math.floor(b / 62);
	}
	return out;
}
