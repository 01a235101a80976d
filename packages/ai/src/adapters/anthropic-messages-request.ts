import type {
	CacheControlEphemeral,
	ContentBlockParam,
	ImageBlockParam,
	MessageCreateParamsStreaming,
	MessageParam,
	TextBlockParam,
	ToolResultBlockParam,
	Tool as WireTool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { AdapterOptions } from "../adapter.js";
import { resolveCacheRetention } from "../cache-retention.js";
import { type NonSystemMessage, type NormalizedContext, splitSystemMessages } from "../context.js";
import { clampThinkingLevel, supportsAdaptiveThinking, thinkingBudget } from "../thinking.js";
import { safeToolCallId, transformMessagesForModel } from "../transform-messages.js";
import type { AssistantMessage, ImageContent, Model, ThinkingLevel, Tool, ToolResultMessage } from "../types.js";

export { supportsAdaptiveThinking };

/** OAuth (Claude Pro/Max) tokens look like `sk-ant-oat01-…` and need Bearer auth plus Claude Code's identity. */
export function isAnthropicOAuthToken(key: string): boolean {
	return key.includes("sk-ant-oat");
}

/** The identity line OAuth requests must lead their system prompt with. */
export const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";
export const CLAUDE_CODE_VERSION = "2.1.75";
const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
const FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14";
const OAUTH_BETAS = ["claude-code-20250219", "oauth-2025-04-20"];

/** Claude Code's own tool names; OAuth requests use this exact casing for tools that match case-insensitively. */
const CLAUDE_CODE_TOOLS = [
	"Read",
	"Write",
	"Edit",
	"Bash",
	"Grep",
	"Glob",
	"AskUserQuestion",
	"EnterPlanMode",
	"ExitPlanMode",
	"KillShell",
	"NotebookEdit",
	"Skill",
	"Task",
	"TaskOutput",
	"TodoWrite",
	"WebFetch",
	"WebSearch",
];
const CLAUDE_CODE_BY_LOWER = new Map(CLAUDE_CODE_TOOLS.map((name) => [name.toLowerCase(), name]));

export interface AnthropicRequest {
	params: MessageCreateParamsStreaming;
	/** Headers beyond auth: betas, identity, the model's and the caller's. */
	headers: Record<string, string>;
	oauth: boolean;
	/** Maps a tool name from the response back to the caller's tool name. */
	toolNameFromWire: (name: string) => string;
}

/** Builds the Messages API request body and headers for one call. */
export function buildAnthropicRequest(
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
): AnthropicRequest {
	const oauth = isAnthropicOAuthToken(options.apiKey);
	const transformed = transformMessagesForModel(context.messages, model, {
		normalizeToolCallId: (id) => safeToolCallId(id, 64),
	});
	const { systemPrompt, tools, messages } = splitSystemMessages(transformed);
	const toWire = (name: string) => (oauth ? (CLAUDE_CODE_BY_LOWER.get(name.toLowerCase()) ?? name) : name);
	const toolNameFromWire = (name: string) =>
		tools.find((tool) => tool.name === name)?.name ??
		tools.find((tool) => tool.name.toLowerCase() === name.toLowerCase())?.name ??
		name;

	const cacheControl = cacheControlFor(model, options);
	const baseMaxTokens = options.maxTokens ?? Math.max(1, Math.floor(model.maxTokens / 3));
	const params: MessageCreateParamsStreaming = {
		model: model.id,
		max_tokens: baseMaxTokens,
		messages: convertMessages(messages, toWire),
		stream: true,
	};

	const system: TextBlockParam[] = [];
	if (oauth) system.push({ type: "text", text: CLAUDE_CODE_IDENTITY });
	if (systemPrompt !== "") system.push({ type: "text", text: sanitizeSurrogates(systemPrompt) });
	if (system.length > 0) {
		const last = system[system.length - 1];
		if (cacheControl && last) last.cache_control = cacheControl;
		params.system = system;
	}

	// Eager input streaming sends tool arguments as they are generated; servers without the
	// per-tool flag get the same behaviour from the fine-grained streaming beta.
	const eager = model.compat?.supportsEagerToolInputStreaming !== false;
	if (tools.length > 0) params.tools = convertTools(tools, toWire, eager, cacheControl);
	if (cacheControl) markLastUserMessages(params.messages, cacheControl, 2);

	const betas: string[] = oauth ? [...OAUTH_BETAS] : [];
	if (tools.length > 0 && !eager) betas.push(FINE_GRAINED_TOOL_STREAMING_BETA);
	const wanted: ThinkingLevel =
		model.reasoning && options.reasoning ? clampThinkingLevel(model, options.reasoning) : "off";
	// Mid tool loop, the API requires the open assistant turn to start with (signed) thinking;
	// a turn written without it (thinking just switched on, another model) cannot be continued
	// with thinking, so this one request goes without.
	const level: ThinkingLevel = wanted !== "off" && openTurnLacksThinking(params.messages) ? "off" : wanted;
	if (level !== "off") {
		if (supportsAdaptiveThinking(model)) {
			// Some models default to omitting the thinking text; ask for the summary so it can be shown.
			params.thinking = { type: "adaptive", display: "summarized" };
			params.output_config = { effort: adaptiveEffort(model, level) };
		} else {
			let budget = thinkingBudget(level, options.thinkingBudgets);
			const maxTokens = Math.min(baseMaxTokens + budget, model.maxTokens);
			// The API needs budget_tokens < max_tokens and at least 1024.
			if (budget >= maxTokens) budget = Math.max(1024, maxTokens - 1024);
			params.max_tokens = Math.max(maxTokens, budget + 1);
			params.thinking = { type: "enabled", budget_tokens: budget };
			betas.push(INTERLEAVED_THINKING_BETA);
		}
	} else if (options.temperature !== undefined) {
		// Temperature is rejected together with extended thinking. (This SDK's types no longer list it.)
		(params as { temperature?: number }).temperature = options.temperature;
	}

	const userId = options.metadata?.user_id;
	if (typeof userId === "string") params.metadata = { user_id: userId };

	const headers: Record<string, string> = {};
	if (betas.length > 0) headers["anthropic-beta"] = betas.join(",");
	if (oauth) {
		headers["user-agent"] = `claude-cli/${CLAUDE_CODE_VERSION}`;
		headers["x-app"] = "cli";
	}
	Object.assign(headers, model.headers, options.headers);
	return { params, headers, oauth, toolNameFromWire };
}

/** True when the transcript ends in tool results answering an assistant turn that does not open with thinking. */
function openTurnLacksThinking(messages: MessageParam[]): boolean {
	let i = messages.length - 1;
	while (i >= 0) {
		const message = messages[i];
		if (message?.role !== "user" || typeof message.content === "string") break;
		if (!message.content.every((block) => block.type === "tool_result")) return false;
		i--;
	}
	if (i === messages.length - 1) return false;
	const turn = messages[i];
	if (turn?.role !== "assistant" || typeof turn.content === "string") return false;
	const first = turn.content[0];
	return first?.type !== "thinking" && first?.type !== "redacted_thinking";
}

/** `level` is already clamped, so xhigh and max arrive only where the model's map names their API value. */
function adaptiveEffort(
	model: Model,
	level: Exclude<ThinkingLevel, "off">,
): NonNullable<MessageCreateParamsStreaming["output_config"]>["effort"] {
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string") return mapped as "low" | "medium" | "high" | "xhigh" | "max";
	if (level === "minimal" || level === "low") return "low";
	if (level === "medium") return "medium";
	return "high";
}

/** Ephemeral cache marker; 1h ttl for "long" retention unless the model says it cannot. */
function cacheControlFor(model: Model, options: AdapterOptions): CacheControlEphemeral | undefined {
	const retention = resolveCacheRetention(options);
	if (retention === "none") return undefined;
	if (retention === "long" && model.compat?.supportsLongCacheRetention !== false)
		return { type: "ephemeral", ttl: "1h" };
	return { type: "ephemeral" };
}

function convertTools(
	tools: Tool[],
	toWire: (name: string) => string,
	eager: boolean,
	cacheControl?: CacheControlEphemeral,
): WireTool[] {
	const out = tools.map((tool): WireTool => {
		const schema = tool.parameters as Record<string, unknown>;
		const wire: WireTool = {
			name: toWire(tool.name),
			description: tool.description,
			input_schema: { ...schema, type: "object" } as WireTool["input_schema"],
		};
		if (eager) wire.eager_input_streaming = true;
		return wire;
	});
	const last = out[out.length - 1];
	if (cacheControl && last) last.cache_control = cacheControl;
	return out;
}

function convertMessages(messages: NonSystemMessage[], toWire: (name: string) => string): MessageParam[] {
	const out: MessageParam[] = [];
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i];
		if (!message) continue;
		if (message.role === "user") {
			const blocks =
				typeof message.content === "string"
					? textBlocks(message.content)
					: message.content.flatMap<TextBlockParam | ImageBlockParam>((block) =>
							block.type === "text" ? textBlocks(block.text) : [imageBlock(block)],
						);
			if (blocks.length > 0) out.push({ role: "user", content: blocks });
		} else if (message.role === "assistant") {
			const blocks = assistantBlocks(message, toWire);
			if (blocks.length > 0) out.push({ role: "assistant", content: blocks });
		} else {
			// Consecutive tool results travel together in one user message.
			const results: ToolResultBlockParam[] = [toolResultBlock(message)];
			while (messages[i + 1]?.role === "toolResult") {
				i++;
				results.push(toolResultBlock(messages[i] as ToolResultMessage));
			}
			out.push({ role: "user", content: results });
		}
	}
	return out;
}

function assistantBlocks(message: AssistantMessage, toWire: (name: string) => string): ContentBlockParam[] {
	const blocks: ContentBlockParam[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			blocks.push(...textBlocks(block.text));
		} else if (block.type === "thinking") {
			if (block.redacted && block.thinkingSignature) {
				blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
			} else if (block.thinkingSignature && block.thinkingSignature.trim() !== "") {
				blocks.push({
					type: "thinking",
					thinking: sanitizeSurrogates(block.thinking),
					signature: block.thinkingSignature,
				});
			} else {
				// Unsigned thinking (an interrupted stream) is refused as thinking; keep it readable as text.
				blocks.push(...textBlocks(block.thinking));
			}
		} else {
			blocks.push({ type: "tool_use", id: block.id, name: toWire(block.name), input: block.arguments });
		}
	}
	return blocks;
}

function toolResultBlock(message: ToolResultMessage): ToolResultBlockParam {
	const content = message.content.flatMap<TextBlockParam | ImageBlockParam>((block) =>
		block.type === "text" ? textBlocks(block.text) : [imageBlock(block)],
	);
	const result: ToolResultBlockParam = { type: "tool_result", tool_use_id: message.toolCallId };
	if (content.length > 0) result.content = content;
	if (message.isError) result.is_error = true;
	return result;
}

/** Anthropic rejects empty text blocks. */
function textBlocks(text: string): TextBlockParam[] {
	return text.trim() === "" ? [] : [{ type: "text", text: sanitizeSurrogates(text) }];
}

function imageBlock(image: ImageContent): ImageBlockParam {
	return {
		type: "image",
		source: { type: "base64", media_type: image.mimeType as "image/png", data: image.data },
	};
}

/** Puts cache markers on the last block of the last `count` user-role messages (tool results included). */
function markLastUserMessages(messages: MessageParam[], cacheControl: CacheControlEphemeral, count: number): void {
	let marked = 0;
	for (let i = messages.length - 1; i >= 0 && marked < count; i--) {
		const message = messages[i];
		if (message?.role !== "user" || typeof message.content === "string") continue;
		const last = message.content[message.content.length - 1];
		if (last && (last.type === "text" || last.type === "image" || last.type === "tool_result")) {
			last.cache_control = cacheControl;
			marked++;
		}
	}
}

/** Lone UTF-16 surrogates make the API reject the whole body; replace them. */
export function sanitizeSurrogates(text: string): string {
	return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}
