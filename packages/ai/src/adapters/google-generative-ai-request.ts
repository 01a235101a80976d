import type { Content, GenerateContentConfig, GenerateContentParameters, Part, ThinkingConfig } from "@google/genai";
import type { AdapterOptions } from "../adapter.js";
import { type NonSystemMessage, type NormalizedContext, splitSystemMessages } from "../context.js";
import { clampThinkingLevel, thinkingBudget } from "../thinking.js";
import { transformMessagesForModel } from "../transform-messages.js";
import type { AssistantMessage, ImageContent, Model, TextContent, ThinkingLevel, ToolResultMessage } from "../types.js";

/**
 * Google's documented stand-in for a missing thought signature on a function
 * call (Gemini 3 rejects unsigned calls, e.g. calls replayed from another model).
 */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

/** Builds the `generateContentStream` parameters (without the abort signal). */
export function buildGoogleRequest(
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
): GenerateContentParameters {
	// Google accepts any tool-call id (it matches results by name), so ids pass through.
	const { systemPrompt, tools, messages } = splitSystemMessages(transformMessagesForModel(context.messages, model));
	const config: GenerateContentConfig = {};
	if (systemPrompt !== "") config.systemInstruction = systemPrompt;
	if (tools.length > 0) {
		config.tools = [
			{
				functionDeclarations: tools.map((tool) => ({
					name: tool.name,
					description: tool.description,
					parametersJsonSchema: tool.parameters,
				})),
			},
		];
	}
	if (options.temperature !== undefined) config.temperature = options.temperature;
	if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
	const thinking = thinkingConfig(model, options);
	if (thinking) config.thinkingConfig = thinking;
	return { model: model.id, contents: convertMessages(messages, model), config };
}

function isGemini3(model: Model): boolean {
	return /gemini-3/.test(model.id);
}

/**
 * Gemini 3 takes a thinking level and cannot switch thinking off (off → its
 * lowest level, thoughts hidden); 2.x takes a token budget (0 disables it on
 * models that allow that, i.e. not the Pro models).
 */
export function thinkingConfig(model: Model, options: AdapterOptions): ThinkingConfig | undefined {
	if (!model.reasoning) return undefined;
	const level: ThinkingLevel = options.reasoning ? clampThinkingLevel(model, options.reasoning) : "off";
	if (isGemini3(model)) {
		const pro = /pro/.test(model.id);
		if (level === "off") return { thinkingLevel: (pro ? "LOW" : "MINIMAL") as ThinkingConfig["thinkingLevel"] };
		const mapped = model.thinkingLevelMap?.[level];
		const name =
			typeof mapped === "string"
				? mapped.toUpperCase()
				: level === "minimal"
					? pro
						? "LOW"
						: "MINIMAL"
					: level === "low"
						? "LOW"
						: level === "medium"
							? pro
								? "HIGH"
								: "MEDIUM"
							: "HIGH";
		return { includeThoughts: true, thinkingLevel: name as ThinkingConfig["thinkingLevel"] };
	}
	if (level === "off") return /pro/.test(model.id) ? undefined : { thinkingBudget: 0 };
	return { includeThoughts: true, thinkingBudget: thinkingBudget(level, options.thinkingBudgets) };
}

function convertMessages(messages: NonSystemMessage[], model: Model): Content[] {
	const out: Content[] = [];
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i];
		if (!message) continue;
		if (message.role === "user") {
			const parts =
				typeof message.content === "string" ? textParts(message.content) : message.content.flatMap(contentPart);
			if (parts.length > 0) out.push({ role: "user", parts });
		} else if (message.role === "assistant") {
			const parts = assistantParts(message, model);
			if (parts.length > 0) out.push({ role: "model", parts });
		} else {
			// Consecutive results answer one turn's calls: one user turn holds them all.
			const parts: Part[] = [];
			const images: Part[] = [];
			let current: ToolResultMessage | undefined = message;
			while (current) {
				parts.push(functionResponsePart(current));
				for (const block of current.content) if (block.type === "image") images.push(imagePart(block));
				const next = messages[i + 1];
				if (next?.role !== "toolResult") break;
				i++;
				current = next;
			}
			out.push({ role: "user", parts: [...parts, ...images] });
		}
	}
	return out;
}

function assistantParts(message: AssistantMessage, model: Model): Part[] {
	const parts: Part[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() === "" && !block.textSignature) continue;
			const part: Part = { text: block.text };
			if (block.textSignature) part.thoughtSignature = block.textSignature;
			parts.push(part);
		} else if (block.type === "thinking") {
			if (block.thinking.trim() === "" && !block.thinkingSignature) continue;
			const part: Part = { text: block.thinking, thought: true };
			if (block.thinkingSignature) part.thoughtSignature = block.thinkingSignature;
			parts.push(part);
		} else {
			const part: Part = { functionCall: { name: block.name, args: block.arguments } };
			const signature = block.thoughtSignature ?? (isGemini3(model) ? SKIP_THOUGHT_SIGNATURE : undefined);
			if (signature) part.thoughtSignature = signature;
			parts.push(part);
		}
	}
	return parts;
}

function functionResponsePart(message: ToolResultMessage): Part {
	const text = message.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const hasImages = message.content.some((block) => block.type === "image");
	const value = text !== "" ? text : hasImages ? "(see the attached image)" : "";
	return {
		functionResponse: {
			name: message.toolName,
			response: message.isError ? { error: value } : { output: value },
		},
	};
}

function contentPart(block: TextContent | ImageContent): Part[] {
	return block.type === "text" ? textParts(block.text) : [imagePart(block)];
}

function textParts(text: string): Part[] {
	return text.trim() === "" ? [] : [{ text }];
}

function imagePart(image: ImageContent): Part {
	return { inlineData: { mimeType: image.mimeType, data: image.data } };
}
