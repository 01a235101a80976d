import type {
	ResponseCreateParamsStreaming,
	ResponseFunctionCallOutputItemList,
	ResponseInputContent,
	ResponseInputItem,
	ResponseReasoningItem,
} from "openai/resources/responses/responses";
import type { AdapterOptions } from "../adapter.js";
import { resolveCacheRetention } from "../cache-retention.js";
import { type NormalizedContext, renderSystemUpdate, replaySystemState } from "../context.js";
import { clampThinkingLevel, reasoningEffort } from "../thinking.js";
import { safeToolCallId, transformMessagesForModel } from "../transform-messages.js";
import type { AssistantMessage, ImageContent, Message, Model, TextContent, ToolResultMessage } from "../types.js";
import { parseTextSignature } from "./openai-responses-events.js";

export interface ResponsesRequest {
	params: ResponseCreateParamsStreaming;
	headers: Record<string, string>;
}

/**
 * Tool-call ids are `call_id|item_id`. Foreign ids (another provider's) become
 * a valid call id alone; the item id is kept only when it is a Responses one.
 */
export function normalizeResponsesToolCallId(id: string): string {
	const bar = id.indexOf("|");
	const call = safeToolCallId(bar >= 0 ? id.slice(0, bar) : id, 64);
	const item = bar >= 0 ? id.slice(bar + 1) : "";
	return /^(fc|ct)_[A-Za-z0-9_-]+$/.test(item) ? `${call}|${item}` : call;
}

/** Builds the `responses.create` body (stateless: `store: false`, reasoning replayed encrypted). */
export function buildResponsesRequest(
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
): ResponsesRequest {
	const messages = transformMessagesForModel(context.messages, model, {
		normalizeToolCallId: normalizeResponsesToolCallId,
	});
	const { tools } = replaySystemState(messages);
	const params: ResponseCreateParamsStreaming = {
		model: model.id,
		input: convertMessages(messages, model),
		stream: true,
		store: false,
	};
	if (tools.length > 0) {
		params.tools = tools.map((tool) => ({
			type: "function",
			name: tool.name,
			description: tool.description,
			parameters: tool.parameters as Record<string, unknown>,
			strict: false,
		}));
	}
	if (options.maxTokens !== undefined) params.max_output_tokens = options.maxTokens;
	if (options.temperature !== undefined) params.temperature = options.temperature;
	if (model.reasoning) {
		// Without the encrypted content, stateless requests cannot replay reasoning items.
		params.include = ["reasoning.encrypted_content"];
		const level = options.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
		const off = model.thinkingLevelMap?.off;
		if (level === "off") {
			// Models that can switch reasoning off name the effort that does it (e.g. "none").
			if (typeof off === "string") params.reasoning = { effort: off as "none" };
		} else {
			const effort = level ? reasoningEffort(model, level) : undefined;
			if (effort) params.reasoning = { effort: effort as "low", summary: "auto" };
		}
	}
	const retention = resolveCacheRetention(options);
	if (options.sessionId && retention !== "none") {
		params.prompt_cache_key = options.sessionId;
		if (retention === "long" && model.compat?.supportsLongCacheRetention !== false)
			params.prompt_cache_retention = "24h";
	}
	const headers: Record<string, string> = {};
	if (model.compat?.sendSessionIdHeader && options.sessionId) headers.session_id = options.sessionId;
	Object.assign(headers, model.headers, options.headers);
	return { params, headers };
}

function convertMessages(messages: Message[], model: Model): ResponseInputItem[] {
	const systemRole = model.reasoning ? "developer" : "system";
	const input: ResponseInputItem[] = [];
	// The leading system messages form the prompt; later ones are sent where they happened.
	const firstOther = messages.findIndex((message) => message.role !== "system");
	const leading = firstOther < 0 ? messages : messages.slice(0, firstOther);
	const prompt = replaySystemState(leading).systemPrompt;
	if (prompt !== "") input.push({ role: systemRole, content: prompt });
	const customCalls = new Set<string>();

	for (const message of firstOther < 0 ? [] : messages.slice(firstOther)) {
		if (message.role === "system") {
			const text = renderSystemUpdate(message);
			if (text !== "") input.push({ role: systemRole, content: text });
		} else if (message.role === "user") {
			const content =
				typeof message.content === "string" ? textContent(message.content) : message.content.flatMap(inputContent);
			if (content.length > 0) input.push({ role: "user", content });
		} else if (message.role === "assistant") {
			input.push(...assistantItems(message, model, customCalls));
		} else {
			input.push(toolResultItem(message, customCalls));
		}
	}
	return input;
}

function assistantItems(message: AssistantMessage, model: Model, customCalls: Set<string>): ResponseInputItem[] {
	const sameModel = message.provider === model.provider && message.api === model.api && message.model === model.id;
	const items: ResponseInputItem[] = [];
	for (const block of message.content) {
		if (block.type === "thinking") {
			// Only a complete reasoning item can be replayed; unsigned thinking (a cut stream) is dropped.
			const item = sameModel ? parseReasoningItem(block.thinkingSignature) : undefined;
			if (item) items.push(item);
		} else if (block.type === "text") {
			if (block.text.trim() === "") continue;
			const signature = sameModel ? parseTextSignature(block.textSignature) : undefined;
			if (signature?.id.startsWith("msg_")) {
				items.push({
					type: "message",
					role: "assistant",
					id: signature.id,
					status: "completed",
					content: [{ type: "output_text", text: block.text, annotations: [] }],
					...(signature.phase ? { phase: signature.phase } : {}),
				});
			} else {
				items.push({ role: "assistant", content: block.text });
			}
		} else {
			const bar = block.id.indexOf("|");
			const callId = bar >= 0 ? block.id.slice(0, bar) : block.id;
			const itemId = bar >= 0 ? block.id.slice(bar + 1) : undefined;
			// An item id ties the call to its reasoning item, which only the same model's turn carries.
			const keepItemId = sameModel && itemId !== undefined;
			if (itemId?.startsWith("ct_")) {
				customCalls.add(callId);
				const raw = block.arguments.input;
				items.push({
					type: "custom_tool_call",
					call_id: callId,
					name: block.name,
					input: typeof raw === "string" ? raw : JSON.stringify(block.arguments),
					...(keepItemId ? { id: itemId } : {}),
				});
			} else {
				items.push({
					type: "function_call",
					call_id: callId,
					name: block.name,
					arguments: JSON.stringify(block.arguments),
					...(keepItemId ? { id: itemId } : {}),
				});
			}
		}
	}
	// A reasoning item must be followed by the output it led to; a turn cut after its reasoning has none.
	while (items.length > 0 && (items[items.length - 1] as { type?: string }).type === "reasoning") items.pop();
	return items;
}

function toolResultItem(message: ToolResultMessage, customCalls: Set<string>): ResponseInputItem {
	const bar = message.toolCallId.indexOf("|");
	const callId = bar >= 0 ? message.toolCallId.slice(0, bar) : message.toolCallId;
	const text = message.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	if (customCalls.has(callId)) return { type: "custom_tool_call_output", call_id: callId, output: text };
	const images = message.content.filter((block): block is ImageContent => block.type === "image");
	if (images.length === 0) return { type: "function_call_output", call_id: callId, output: text };
	const output: ResponseFunctionCallOutputItemList = [];
	if (text !== "") output.push({ type: "input_text", text });
	for (const image of images) output.push({ type: "input_image", detail: "auto", image_url: dataUrl(image) });
	return { type: "function_call_output", call_id: callId, output };
}

function parseReasoningItem(signature: string | undefined): ResponseReasoningItem | undefined {
	if (!signature?.startsWith("{")) return undefined;
	try {
		const item = JSON.parse(signature) as ResponseReasoningItem;
		return item.type === "reasoning" && typeof item.id === "string" ? item : undefined;
	} catch {
		return undefined;
	}
}

function textContent(text: string): ResponseInputContent[] {
	return text.trim() === "" ? [] : [{ type: "input_text", text }];
}

function inputContent(block: TextContent | ImageContent): ResponseInputContent[] {
	if (block.type === "text") return textContent(block.text);
	return [{ type: "input_image", detail: "auto", image_url: dataUrl(block) }];
}

function dataUrl(image: ImageContent): string {
	return `data:${image.mimeType};base64,${image.data}`;
}
