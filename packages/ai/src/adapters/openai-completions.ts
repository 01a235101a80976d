/**
 * OpenAI Chat Completions. Also serves the compatible servers (Ollama, vLLM,
 * llama.cpp, LM Studio, OpenRouter, Groq, xAI, DeepSeek, Cerebras, Mistral…)
 * through `compat` switches.
 *
 * The request is the official `openai` SDK's `ChatCompletionCreateParams`,
 * sent as the SDK sends it (`POST <baseURL>/chat/completions` with the SDK's
 * headers, openai-completions-headers.ts) through providerRequest; an error
 * status is classified from its body, the event stream read with pi-ai's SSE
 * parser. The SDK's client itself is not used: building its request touches
 * fetch's `Headers` and `FormData`, which on Node 20 loads all of undici even
 * for a local server answered over node:http (~40 ms and ~12 MiB of a start),
 * and the SDK chunk (~370 KB) would be compiled for nothing.
 */
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { errorFromHttpStatus, ProviderFault, providerStreamError } from "../errors.js";
import { bodyChunks } from "../http-fetch.js";
import { providerRequestFor } from "../provider-fetch.js";
import { SseParser } from "../sse.js";
import type { AssistantStreamWriter } from "../stream-writer.js";
import type { Model } from "../types.js";
import { resolveAzureConfig } from "./azure-openai-config.js";
import { ChatStreamBlocks } from "./chat-stream-blocks.js";
import { resolveCompletionsCompat } from "./openai-completions-compat.js";
import { chatCompletionsHeaders } from "./openai-completions-headers.js";
import { buildChatRequest } from "./openai-completions-request.js";
import { observeEvent } from "./sse-body.js";

/** What a streamed chunk may carry, across dialects (only the fields read here). */
interface ChunkToolCall {
	index?: number;
	id?: string | null;
	function?: { name?: string | null; arguments?: string | null };
}
interface ChunkDelta {
	content?: string | null;
	reasoning_content?: string | null;
	reasoning?: string | null;
	reasoning_text?: string | null;
	reasoning_details?: { type?: string; text?: string; summary?: string; id?: string; data?: string }[] | null;
	tool_calls?: ChunkToolCall[] | null;
}
interface ChunkUsage {
	prompt_tokens?: number;
	completion_tokens?: number;
	total_tokens?: number;
	prompt_cache_hit_tokens?: number;
	prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
}
interface Chunk {
	id?: string;
	model?: string;
	choices?: { delta?: ChunkDelta | null; finish_reason?: string | null }[];
	usage?: ChunkUsage | null;
	x_groq?: { usage?: ChunkUsage };
}

const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;

export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			const compat = resolveCompletionsCompat(model);
			let request: unknown = buildChatRequest(model, context, options, compat);
			let baseURL = model.baseUrl;
			if (model.provider === "azure") {
				// A Microsoft Foundry model on Azure: the resource's endpoint, the deployment as the model.
				const azure = resolveAzureConfig(model);
				if (!azure.ok) {
					writer.fail(azure.message, { kind: "auth", code: "missing_azure_endpoint", retryable: false });
					return;
				}
				baseURL = azure.baseUrl;
				request = { ...(request as object), model: azure.deployment };
			}
			const replaced = await options.onPayload?.(request, model);
			if (replaced !== undefined) request = replaced;

			const send = providerRequestFor(options, model);
			const response = await send(chatCompletionsUrl(baseURL), {
				method: "POST",
				headers: chatCompletionsHeaders(options.apiKey, model.headers, options.headers),
				body: JSON.stringify(request),
				signal,
			});
			options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
			if (!response.ok) {
				const mapped = errorFromHttpStatus(response.status, await response.text(), response.headers);
				throw new ProviderFault(mapped.message, mapped.info);
			}
			const body = bodyChunks(response);
			if (!body) throw new Error("The response has no body");

			const state = new ChunkReader(writer);
			const parser = new SseParser();
			let sawDone = false;
			for await (const bytes of body) {
				touch(bytes.length);
				if (sawDone) continue; // drain to the end so the connection can be reused
				for (const event of parser.pushBytes(bytes)) {
					if (event.data.startsWith("[DONE]")) {
						sawDone = true;
						state.end();
						break;
					}
					if (event.data.trim() === "") continue;
					const chunk = parseChunk(event.data);
					if (chunk && options.onStreamEvent) {
						const onStreamEvent = options.onStreamEvent;
						await observeEvent((data) => onStreamEvent(data, model), chunk);
					}
					if (!chunk) {
						writer.fail(`Malformed chunk from the provider: ${event.data.slice(0, 200)}`, {
							kind: "provider",
							code: "malformed_chunk",
							retryable: true,
						});
						return;
					}
					if (chunk.error) {
						const mapped = providerStreamError(chunk.error, [options.apiKey]);
						writer.fail(mapped.message, mapped.info);
						return;
					}
					state.read(chunk);
				}
			}
			if (sawDone || signal.aborted) return;
			state.end();
		});
	},
};

/** `<baseURL>/chat/completions`, as the SDK joins them (the SDK's default server when there is no base URL). */
function chatCompletionsUrl(baseURL: string | undefined): string {
	const base = baseURL || "https://api.openai.com/v1";
	return `${base.endsWith("/") ? base.slice(0, -1) : base}/chat/completions`;
}

/** Maps chunks onto the writer (the blocks as chat-stream-blocks.ts builds them), with OpenRouter's encrypted reasoning. */
class ChunkReader {
	private readonly blocks: ChatStreamBlocks;
	/** Encrypted reasoning (OpenRouter `reasoning_details`) by tool-call id, replayed with that call. */
	private readonly encrypted = new Map<string, string>();
	private readonly toolIds = new Map<string, number>();

	constructor(private readonly writer: AssistantStreamWriter) {
		this.blocks = new ChatStreamBlocks(writer);
	}

	read(chunk: Chunk): void {
		const blocks = this.blocks;
		blocks.startWith(chunk);
		const usage = chunk.usage ?? chunk.x_groq?.usage;
		if (usage) this.usage(usage);
		const choice = chunk.choices?.[0];
		if (!choice) return;
		const delta = choice.delta;
		if (delta) {
			const reasoning = reasoningDelta(delta);
			if (reasoning) blocks.appendThinking(reasoning.text, reasoning.field);
			if (typeof delta.content === "string") blocks.appendText(delta.content);
			if (delta.tool_calls) {
				for (const call of delta.tool_calls) {
					const block = blocks.toolCall(
						{ index: call.index, id: call.id, name: call.function?.name },
						call.function?.arguments,
					);
					if (call.id) this.toolIds.set(call.id, block);
				}
			}
			if (Array.isArray(delta.reasoning_details)) {
				for (const detail of delta.reasoning_details) {
					if (detail.type === "reasoning.encrypted" && detail.id && detail.data)
						this.encrypted.set(detail.id, JSON.stringify(detail));
				}
			}
		}
		blocks.setFinishReason(choice.finish_reason);
	}

	private usage(usage: ChunkUsage): void {
		const prompt = usage.prompt_tokens ?? 0;
		const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
		const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens ?? 0;
		const completion = usage.completion_tokens ?? 0;
		// Some servers (xAI) leave reasoning tokens out of completion_tokens but count them in the total.
		const output = Math.max(completion, (usage.total_tokens ?? 0) - prompt);
		this.writer.setUsage({
			input: Math.max(0, prompt - cached - cacheWrite),
			output,
			cacheRead: cached,
			cacheWrite,
		});
	}

	/** The wire stream ended: only a reported finish reason makes it a success. */
	end(): void {
		for (const [id, signature] of this.encrypted) {
			const block = this.toolIds.get(id);
			if (block !== undefined) this.writer.updateToolCall(block, { thoughtSignature: signature });
		}
		const reason = this.blocks.finishReasonOrFail();
		if (reason === undefined) return;
		switch (reason) {
			case "length":
				this.writer.finish("length");
				return;
			case "tool_calls":
			case "function_call":
				this.writer.finish("toolUse");
				return;
			case "content_filter":
				this.writer.fail("The provider's content filter stopped the response", {
					kind: "provider",
					code: "content_filter",
					retryable: false,
				});
				return;
			default:
				// "stop", and the odd "eos"/"end_turn" of some local servers.
				this.writer.finish(this.blocks.toolCallCount > 0 && reason !== "stop" ? "toolUse" : "stop");
		}
	}
}

function parseChunk(data: string): (Chunk & { error?: Record<string, unknown> }) | undefined {
	try {
		const value: unknown = JSON.parse(data);
		return typeof value === "object" && value !== null ? (value as Chunk) : undefined;
	} catch {
		return undefined;
	}
}

function reasoningDelta(delta: ChunkDelta): { field: string; text: string } | undefined {
	// Servers may send the same text under two names (OpenRouter: reasoning + reasoning_details): take one.
	for (const field of REASONING_FIELDS) {
		const value = delta[field];
		if (typeof value === "string" && value !== "") return { field, text: value };
	}
	if (Array.isArray(delta.reasoning_details)) {
		const text = delta.reasoning_details.map((d) => d.text ?? d.summary ?? "").join("");
		if (text !== "") return { field: "reasoning_details", text };
	}
	return undefined;
}
