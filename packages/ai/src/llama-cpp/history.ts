/**
 * Pure mapping from pi-ai's transcript to node-llama-cpp's chat history and
 * function declarations. The chat wrapper (from the model's own template)
 * renders them; tool results ride inside the function call they answer, which
 * is how node-llama-cpp models a model turn with calls.
 */
import type {
	ChatHistoryItem,
	ChatModelFunctionCall,
	ChatModelFunctions,
	ChatModelResponse,
	GbnfJsonSchema,
} from "node-llama-cpp";
import { renderSystemUpdate, replaySystemState } from "../context.js";
import { transformMessagesForModel } from "../transform-messages.js";
import type { Message, Model, Tool, ToolResultMessage } from "../types.js";

export interface LlamaChatInput {
	history: ChatHistoryItem[];
	functions?: ChatModelFunctions;
}

/** History ending with an empty model turn (the one to generate), plus the tools as functions. */
export function toLlamaChatInput(messages: readonly Message[], model: Model): LlamaChatInput {
	const { tools } = replaySystemState(messages);
	const transformed = transformMessagesForModel(messages, model);
	const results = new Map<string, ToolResultMessage>();
	for (const message of transformed) if (message.role === "toolResult") results.set(message.toolCallId, message);

	const history: ChatHistoryItem[] = [];
	let leadingDone = false;
	const leading: string[] = [];
	let openTurn: ChatModelResponse | undefined;
	for (const message of transformed) {
		if (message.role === "system") {
			if (!leadingDone) {
				leading.push(renderSystemUpdate(message));
				continue;
			}
			const text = renderSystemUpdate(message);
			if (text !== "") history.push({ type: "system", text });
			openTurn = undefined;
			continue;
		}
		if (!leadingDone) {
			leadingDone = true;
			const prompt = leading.filter((part) => part !== "").join("\n\n");
			if (prompt !== "") history.push({ type: "system", text: prompt });
		}
		if (message.role === "user") {
			const text =
				typeof message.content === "string"
					? message.content
					: message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
			history.push({ type: "user", text });
			openTurn = undefined;
		} else if (message.role === "assistant") {
			// An assistant turn after tool results continues the same model turn.
			if (!openTurn) {
				openTurn = { type: "model", response: [] };
				history.push(openTurn);
			}
			for (const block of message.content) {
				if (block.type === "text") {
					if (block.text !== "") openTurn.response.push(block.text);
				} else if (block.type === "thinking") {
					if (block.thinking !== "")
						openTurn.response.push({ type: "segment", segmentType: "thought", text: block.thinking, ended: true });
				} else {
					const result = results.get(block.id);
					const call: ChatModelFunctionCall = {
						type: "functionCall",
						name: block.name,
						params: block.arguments,
						result: result ? toolResultText(result) : "No result provided",
					};
					openTurn.response.push(call);
				}
			}
		}
		// Tool results were attached to their calls above.
	}
	if (!leadingDone) {
		const prompt = leading.filter((part) => part !== "").join("\n\n");
		if (prompt !== "") history.push({ type: "system", text: prompt });
	}
	// Generate a new turn unless the transcript ends inside one (after tool results).
	const last = history.at(-1);
	if (!(last?.type === "model" && transformed.at(-1)?.role === "toolResult")) {
		history.push({ type: "model", response: [] });
	}
	const input: LlamaChatInput = { history };
	if (tools.length > 0) input.functions = toFunctions(tools);
	return input;
}

function toolResultText(result: ToolResultMessage): string {
	const text = result.content.map((block) => (block.type === "text" ? block.text : "(image)")).join("\n");
	return result.isError ? `Error: ${text}` : text;
}

export function toFunctions(tools: readonly Tool[]): ChatModelFunctions {
	const functions: Record<string, { description?: string; params?: GbnfJsonSchema }> = {};
	for (const tool of tools) {
		const params = toGbnfSchema(tool.parameters);
		functions[tool.name] = { description: tool.description, params };
	}
	return functions;
}

/**
 * The subset of a tool's JSON Schema that node-llama-cpp turns into a grammar
 * (types, properties, required, items, enum/const, anyOf/oneOf, string
 * lengths). Unsupported keywords are dropped: the grammar is then looser than
 * the schema, and pi's own argument validation still runs before the tool.
 */
export function toGbnfSchema(schema: unknown): GbnfJsonSchema {
	if (typeof schema !== "object" || schema === null) return anyValue();
	const s = schema as Record<string, unknown>;
	const description = typeof s.description === "string" ? { description: s.description } : {};
	if ("const" in s && isScalar(s.const)) return { const: s.const, ...description };
	if (Array.isArray(s.enum) && s.enum.every(isScalar)) return { enum: s.enum, ...description };
	const variants = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
		| unknown[]
		| undefined;
	if (variants && variants.length > 0) return { oneOf: variants.map(toGbnfSchema), ...description };
	const type = Array.isArray(s.type) ? s.type[0] : s.type;
	switch (type) {
		case "object": {
			const properties: Record<string, GbnfJsonSchema> = {};
			const raw =
				typeof s.properties === "object" && s.properties !== null ? (s.properties as Record<string, unknown>) : {};
			for (const [key, value] of Object.entries(raw)) properties[key] = toGbnfSchema(value);
			const required = Array.isArray(s.required)
				? s.required.filter((k): k is string => typeof k === "string" && k in properties)
				: [];
			return { type: "object", properties, required, ...description };
		}
		case "array":
			return { type: "array", items: s.items === undefined ? anyValue() : toGbnfSchema(s.items), ...description };
		case "string": {
			const out: { type: "string"; minLength?: number; maxLength?: number; description?: string } = {
				type: "string",
				...description,
			};
			if (typeof s.minLength === "number") out.minLength = s.minLength;
			if (typeof s.maxLength === "number") out.maxLength = s.maxLength;
			return out;
		}
		case "number":
		case "integer":
		case "boolean":
		case "null":
			return { type, ...description };
		default:
			return anyValue();
	}
}

function anyValue(): GbnfJsonSchema {
	return { type: ["string", "number", "boolean", "null"] };
}

function isScalar(value: unknown): value is string | number | boolean | null {
	return value === null || ["string", "number", "boolean"].includes(typeof value);
}
