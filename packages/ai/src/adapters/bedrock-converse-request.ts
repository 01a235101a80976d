import type {
	Message as BedrockMessage,
	Tool as BedrockTool,
	ContentBlock,
	ConverseStreamRequest,
	ImageBlock,
	SystemContentBlock,
	ToolResultContentBlock,
} from "@aws-sdk/client-bedrock-runtime";
import type { AdapterOptions } from "../adapter.js";
import { resolveCacheRetention } from "../cache-retention.js";
import { type NonSystemMessage, type NormalizedContext, splitSystemMessages } from "../context.js";
import { clampThinkingLevel, reasoningEffort, thinkingBudget } from "../thinking.js";
import { safeToolCallId, transformMessagesForModel } from "../transform-messages.js";
import type { AssistantMessage, ImageContent, Model, TextContent, ThinkingLevel, ToolResultMessage } from "../types.js";
import { sanitizeSurrogates, supportsAdaptiveThinking } from "./anthropic-messages-request.js";

type JsonDocument = NonNullable<ConverseStreamRequest["additionalModelRequestFields"]>;
const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

/** Claude on Bedrock: `anthropic.claude-…`, with or without a region prefix (`us.`, `global.`) or an ARN. */
export function isBedrockClaude(model: Pick<Model, "id">): boolean {
	return /(?:^|[./])anthropic\.claude|claude-/.test(model.id);
}

/**
 * The Converse request in the SDK's shape (`ConverseStreamCommand` input).
 * Bedrock's own rules: the system prompt is a list of blocks apart from the
 * messages, which alternate user/assistant (consecutive tool results travel in
 * one user turn); images go as raw bytes; thinking goes back as
 * `reasoningContent` with its signature; what the model family takes beyond
 * Converse (Claude's `thinking`, Nova's `reasoningConfig`) goes in
 * `additionalModelRequestFields`; prompt-cache points are marked for Claude.
 */
export function buildBedrockRequest(
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
): ConverseStreamRequest {
	const transformed = transformMessagesForModel(context.messages, model, {
		normalizeToolCallId: (id) => safeToolCallId(id, 64),
	});
	const { systemPrompt, tools, messages } = splitSystemMessages(transformed);
	const claude = isBedrockClaude(model);
	const retention = resolveCacheRetention(options);
	const cache = claude && retention !== "none";
	const cacheTtl = retention === "long" ? ("1h" as const) : undefined;
	const cachePoint = (): ContentBlock.CachePointMember & SystemContentBlock.CachePointMember => ({
		cachePoint: { type: "default", ...(cacheTtl ? { ttl: cacheTtl } : {}) },
	});

	const request: ConverseStreamRequest = { modelId: model.id, messages: convertMessages(messages) };
	if (systemPrompt !== "") {
		const system: SystemContentBlock[] = [{ text: sanitizeSurrogates(systemPrompt) }];
		if (cache) system.push(cachePoint());
		request.system = system;
	}
	if (cache) markLastUserMessage(request.messages ?? [], cachePoint());
	if (tools.length > 0) {
		request.toolConfig = {
			tools: tools.map(
				(tool): BedrockTool => ({
					toolSpec: {
						name: tool.name,
						description: tool.description,
						inputSchema: { json: { ...(tool.parameters as Record<string, unknown>), type: "object" } as JsonDocument },
					},
				}),
			),
		};
	}

	let maxTokens = options.maxTokens ?? (claude ? Math.max(1, Math.floor(model.maxTokens / 3)) : undefined);
	const level: ThinkingLevel =
		model.reasoning && options.reasoning ? clampThinkingLevel(model, options.reasoning) : "off";
	const fields: Record<string, unknown> = {};
	let thinking = false;
	if (level !== "off" && claude) {
		thinking = true;
		if (supportsAdaptiveThinking(model)) {
			fields.thinking = { type: "adaptive", display: "summarized" };
			fields.output_config = { effort: claudeEffort(model, level) };
		} else {
			let budget = thinkingBudget(level, options.thinkingBudgets);
			const total = Math.min((maxTokens ?? 0) + budget, model.maxTokens);
			// Claude needs budget_tokens < max_tokens and at least 1024.
			if (budget >= total) budget = Math.max(1024, total - 1024);
			maxTokens = Math.max(total, budget + 1);
			fields.thinking = { type: "enabled", budget_tokens: budget };
			fields.anthropic_beta = [INTERLEAVED_THINKING_BETA];
		}
	} else if (level !== "off" && /(?:^|\.)amazon\.nova/.test(model.id)) {
		const effort = reasoningEffort(model, level);
		fields.reasoningConfig = { type: "enabled", maxReasoningEffort: effort === "minimal" ? "low" : effort };
	} else if (level !== "off" && /(?:^|\.)openai\./.test(model.id)) {
		fields.reasoning_effort = reasoningEffort(model, level);
	}
	if (Object.keys(fields).length > 0) request.additionalModelRequestFields = fields as JsonDocument;

	const inference: NonNullable<ConverseStreamRequest["inferenceConfig"]> = {};
	if (maxTokens !== undefined) inference.maxTokens = maxTokens;
	// Claude refuses a temperature together with thinking.
	if (options.temperature !== undefined && !thinking) inference.temperature = options.temperature;
	if (Object.keys(inference).length > 0) request.inferenceConfig = inference;
	return request;
}

/** `level` is clamped already, so xhigh and max arrive only where the model's map names them. */
function claudeEffort(model: Model, level: Exclude<ThinkingLevel, "off">): string {
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string") return mapped;
	if (level === "minimal" || level === "low") return "low";
	return level === "medium" ? "medium" : "high";
}

function convertMessages(messages: NonSystemMessage[]): BedrockMessage[] {
	const out: BedrockMessage[] = [];
	const push = (role: "user" | "assistant", content: ContentBlock[]) => {
		if (content.length === 0) return;
		const last = out[out.length - 1];
		// Converse wants alternating roles: same-role neighbours (a prompt after tool results) merge.
		if (last?.role === role) last.content = [...(last.content ?? []), ...content];
		else out.push({ role, content });
	};
	for (const message of messages) {
		if (message.role === "user") {
			push(
				"user",
				typeof message.content === "string" ? textBlocks(message.content) : message.content.flatMap(userBlock),
			);
		} else if (message.role === "assistant") {
			push("assistant", assistantBlocks(message));
		} else {
			push("user", [toolResultBlock(message)]);
		}
	}
	return out;
}

function userBlock(block: TextContent | ImageContent): ContentBlock[] {
	return block.type === "text" ? textBlocks(block.text) : [{ image: imageBlock(block) }];
}

function assistantBlocks(message: AssistantMessage): ContentBlock[] {
	const blocks: ContentBlock[] = [];
	for (const block of message.content) {
		if (block.type === "text") blocks.push(...textBlocks(block.text));
		else if (block.type === "thinking") {
			if (block.redacted && block.thinkingSignature) {
				blocks.push({ reasoningContent: { redactedContent: Buffer.from(block.thinkingSignature, "base64") } });
			} else if (block.thinkingSignature && block.thinking.trim() !== "") {
				blocks.push({
					reasoningContent: {
						reasoningText: { text: sanitizeSurrogates(block.thinking), signature: block.thinkingSignature },
					},
				});
			} else {
				// Unsigned reasoning (a cut stream, another model family) is refused as reasoning: keep it as text.
				blocks.push(...textBlocks(block.thinking));
			}
		} else {
			blocks.push({
				toolUse: { toolUseId: block.id, name: block.name, input: block.arguments as JsonDocument },
			});
		}
	}
	return blocks;
}

function toolResultBlock(message: ToolResultMessage): ContentBlock {
	const content: ToolResultContentBlock[] = message.content.flatMap((block): ToolResultContentBlock[] =>
		block.type === "text"
			? block.text.trim() === ""
				? []
				: [{ text: sanitizeSurrogates(block.text) }]
			: [{ image: imageBlock(block) }],
	);
	return {
		toolResult: {
			toolUseId: message.toolCallId,
			content: content.length > 0 ? content : [{ text: "(no output)" }],
			status: message.isError ? "error" : "success",
		},
	};
}

/** Bedrock rejects empty text blocks. */
function textBlocks(text: string): ContentBlock[] {
	return text.trim() === "" ? [] : [{ text: sanitizeSurrogates(text) }];
}

const IMAGE_FORMATS: Record<string, ImageBlock["format"]> = {
	"image/png": "png",
	"image/jpeg": "jpeg",
	"image/jpg": "jpeg",
	"image/gif": "gif",
	"image/webp": "webp",
};

function imageBlock(image: ImageContent): ImageBlock {
	return {
		format: IMAGE_FORMATS[image.mimeType.toLowerCase()] ?? "png",
		source: { bytes: Buffer.from(image.data, "base64") },
	};
}

function markLastUserMessage(messages: BedrockMessage[], point: ContentBlock): void {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message?.role === "user" && message.content) {
			message.content.push(point);
			return;
		}
	}
}
