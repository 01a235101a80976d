import type { ChatCompletionStreamRequest } from "@mistralai/mistralai/models/components";
import type { AdapterOptions } from "../adapter.js";
import { resolveCacheRetention } from "../cache-retention.js";
import { type NormalizedContext, renderSystemUpdate, replaySystemState, systemContentText } from "../context.js";
import { reasoningEffort } from "../thinking.js";
import { transformMessagesForModel } from "../transform-messages.js";
import type { ImageContent, Message, Model, TextContent, Tool } from "../types.js";
import { mistralToolCallId } from "./openai-completions-request.js";

type MistralMessage = ChatCompletionStreamRequest["messages"][number];
type ContentChunk = { type: "text"; text: string } | { type: "image_url"; imageUrl: string };

/** Note sent ahead of images a tool returned: Mistral takes images in user turns only. */
const TOOL_IMAGES_NOTE = "Images returned by the tool above:";

/**
 * The Chat Completions request in the Mistral SDK's shape (camelCase; the SDK
 * validates it and writes the wire's snake_case). Mistral's own rules: tool
 * call ids are exactly nine alphanumeric characters, a tool result names its
 * tool, earlier reasoning goes back as `thinking` chunks, and reasoning is
 * asked for with `reasoning_effort` (models with a level map) or
 * `prompt_mode: "reasoning"` (the Magistral models, which have none).
 */
export function buildMistralRequest(
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
): ChatCompletionStreamRequest {
	const messages = transformMessagesForModel(context.messages, model, { normalizeToolCallId: mistralToolCallId });
	const { tools } = replaySystemState(messages);
	const request: ChatCompletionStreamRequest = {
		model: model.id,
		messages: convertMessages(model, messages),
		stream: true,
	};
	if (options.maxTokens) request.maxTokens = options.maxTokens;
	if (options.temperature !== undefined) request.temperature = options.temperature;
	if (tools.length > 0) request.tools = tools.map(convertTool);
	if (resolveCacheRetention(options) !== "none" && options.sessionId) request.promptCacheKey = options.sessionId;
	if (model.reasoning) {
		const effort = reasoningEffort(model, options.reasoning);
		if (model.thinkingLevelMap) {
			const off = model.thinkingLevelMap.off;
			// Mistral's effort names are OpenAI's ("none", "low", … "high"); the map holds them.
			const value = effort ?? (typeof off === "string" ? off : undefined);
			if (value !== undefined) request.reasoningEffort = value as ChatCompletionStreamRequest["reasoningEffort"];
		} else if (effort !== undefined) request.promptMode = "reasoning";
	}
	return request;
}

function convertTool(tool: Tool) {
	return {
		type: "function" as const,
		function: {
			name: tool.name,
			description: tool.description,
			parameters: tool.parameters as Record<string, unknown>,
		},
	};
}

function textAndImages(content: (TextContent | ImageContent)[]): ContentChunk[] {
	return content.map((block) =>
		block.type === "text"
			? { type: "text", text: block.text }
			: { type: "image_url", imageUrl: `data:${block.mimeType};base64,${block.data}` },
	);
}

function convertMessages(model: Model, messages: Message[]): MistralMessage[] {
	const out: MistralMessage[] = [];
	let pendingImages: ContentChunk[] = [];
	const flushImages = () => {
		if (pendingImages.length === 0) return;
		out.push({ role: "user", content: [{ type: "text", text: TOOL_IMAGES_NOTE }, ...pendingImages] });
		pendingImages = [];
	};
	for (const [index, message] of messages.entries()) {
		if (message.role !== "toolResult") flushImages();
		switch (message.role) {
			case "system": {
				const text =
					index === 0
						? replaySystemState([message]).systemPrompt
						: renderSystemUpdate(message) || systemContentText(message.content);
				if (text) out.push({ role: "system", content: text });
				break;
			}
			case "user":
				out.push({
					role: "user",
					content: typeof message.content === "string" ? message.content : textAndImages(message.content),
				});
				break;
			case "assistant": {
				const content: (
					| { type: "text"; text: string }
					| { type: "thinking"; thinking: { type: "text"; text: string }[] }
				)[] = [];
				const toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[] = [];
				for (const block of message.content) {
					if (block.type === "text" && block.text !== "") content.push({ type: "text", text: block.text });
					else if (block.type === "thinking" && block.thinking !== "" && !block.redacted)
						content.push({ type: "thinking", thinking: [{ type: "text", text: block.thinking }] });
					else if (block.type === "toolCall")
						toolCalls.push({
							id: block.id,
							type: "function",
							function: { name: block.name, arguments: JSON.stringify(block.arguments) },
						});
				}
				if (content.length === 0 && toolCalls.length === 0) break;
				out.push({
					role: "assistant",
					content: content.length > 0 ? content : null,
					...(toolCalls.length > 0 ? { toolCalls } : {}),
				});
				break;
			}
			case "toolResult": {
				const text = message.content
					.filter((block): block is TextContent => block.type === "text")
					.map((block) => block.text)
					.join("\n");
				out.push({
					role: "tool",
					toolCallId: message.toolCallId,
					name: message.toolName,
					content: text || "(no output)",
				});
				if (model.input.includes("image"))
					pendingImages.push(...textAndImages(message.content.filter((block) => block.type === "image")));
				break;
			}
		}
	}
	flushImages();
	return out;
}
