import type { ChatCompletionStreamRequest } from "@mistralai/mistralai/models/components";

/**
 * The Chat Completions request in the wire's snake_case, exactly as the
 * official SDK's outbound schema (`ChatCompletionStreamRequest$outboundSchema`)
 * writes it — renamed keys and the schema's defaults (`prefix: false` on
 * assistant turns, `index: 0` on tool calls) — for the shapes
 * `buildMistralRequest` makes. The SDK's schemas are built with zod and
 * importing them costs more than the whole rest of a first request, so the
 * common path does not load them; a test holds this function to the SDK's
 * own output for every shape the builder makes.
 *
 * Anything else (a key or shape the builder never makes, e.g. a payload
 * replaced by `onPayload`) gives `undefined`: the caller then lets the SDK's
 * schema validate and write it.
 */
export function mistralWireBody(request: ChatCompletionStreamRequest): Record<string, unknown> | undefined {
	try {
		return convertRequest(request as unknown as Record<string, unknown>);
	} catch (error) {
		if (error instanceof Unknown) return undefined;
		throw error;
	}
}

/** Thrown inside the conversion when a value is not one of the known shapes. */
class Unknown extends Error {}

type Obj = Record<string, unknown>;

function unknown(): never {
	throw new Unknown();
}

function object(value: unknown): Obj {
	return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Obj) : unknown();
}

function string(value: unknown): string {
	return typeof value === "string" ? value : unknown();
}

/** Copies `value`'s keys (all of which must be in `keys`), renamed by `renames`; undefined values are left out. */
function pick(value: Obj, keys: Record<string, (v: unknown) => unknown>, renames: Record<string, string> = {}): Obj {
	const out: Obj = {};
	for (const [key, v] of Object.entries(value)) {
		const convert = keys[key];
		if (!convert) unknown();
		if (v === undefined) continue;
		out[renames[key] ?? key] = convert(v);
	}
	return out;
}

const same = (v: unknown) => v;
const nullableString = (v: unknown) => (v === null ? null : string(v));
const finite = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : unknown());
const integer = (v: unknown) => (Number.isInteger(v) ? v : unknown());
const literal =
	(...allowed: string[]) =>
	(v: unknown) =>
		typeof v === "string" && allowed.includes(v) ? v : unknown();

function convertRequest(request: Obj): Obj {
	const out = pick(
		request,
		{
			model: string,
			messages: (v) => (Array.isArray(v) ? v.map(convertMessage) : unknown()),
			stream: (v) => (v === true ? v : unknown()),
			maxTokens: integer,
			temperature: finite,
			tools: (v) => (Array.isArray(v) ? v.map(convertTool) : unknown()),
			promptCacheKey: string,
			reasoningEffort: literal("none", "low", "medium", "high"),
			promptMode: literal("reasoning"),
		},
		{
			maxTokens: "max_tokens",
			promptCacheKey: "prompt_cache_key",
			reasoningEffort: "reasoning_effort",
			promptMode: "prompt_mode",
		},
	);
	if (out.model === undefined || out.messages === undefined) unknown();
	out.stream = true;
	return out;
}

function convertMessage(value: unknown): Obj {
	const message = object(value);
	switch (message.role) {
		case "system":
			return pick(message, { role: same, content: string });
		case "user":
			return pick(message, {
				role: same,
				content: (v) => (typeof v === "string" ? v : Array.isArray(v) ? v.map(convertUserChunk) : unknown()),
			});
		case "assistant": {
			const out = pick(
				message,
				{
					role: same,
					content: (v) => (v === null ? null : Array.isArray(v) ? v.map(convertAssistantChunk) : unknown()),
					toolCalls: (v) => (Array.isArray(v) ? v.map(convertToolCall) : unknown()),
				},
				{ toolCalls: "tool_calls" },
			);
			out.prefix = false;
			return out;
		}
		case "tool":
			return pick(
				message,
				{ role: same, content: string, toolCallId: nullableString, name: nullableString },
				{ toolCallId: "tool_call_id" },
			);
		default:
			return unknown();
	}
}

function textChunk(chunk: Obj): Obj {
	return pick(chunk, { type: same, text: string });
}

function convertUserChunk(value: unknown): Obj {
	const chunk = object(value);
	if (chunk.type === "text") return textChunk(chunk);
	if (chunk.type === "image_url") return pick(chunk, { type: same, imageUrl: string }, { imageUrl: "image_url" });
	return unknown();
}

function convertAssistantChunk(value: unknown): Obj {
	const chunk = object(value);
	if (chunk.type === "text") return textChunk(chunk);
	if (chunk.type === "thinking")
		return pick(chunk, {
			type: same,
			thinking: (v) =>
				Array.isArray(v)
					? v.map((part) => (object(part).type === "text" ? textChunk(object(part)) : unknown()))
					: unknown(),
		});
	return unknown();
}

function convertToolCall(value: unknown): Obj {
	const out = pick(object(value), {
		id: string,
		type: literal("function"),
		function: (v) => {
			const fn = pick(object(v), { name: string, arguments: string });
			return fn.name === undefined || fn.arguments === undefined ? unknown() : fn;
		},
	});
	if (out.id === undefined || out.function === undefined) unknown();
	return { type: "function", ...out, index: 0 };
}

function convertTool(value: unknown): Obj {
	const tool = pick(object(value), {
		type: literal("function"),
		function: (v) => {
			const fn = pick(object(v), { name: string, description: string, parameters: (p) => object(p) });
			return fn.name === undefined || fn.parameters === undefined ? unknown() : fn;
		},
	});
	if (tool.type === undefined || tool.function === undefined) unknown();
	return tool;
}
