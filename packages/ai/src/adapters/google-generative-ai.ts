import { type GenerateContentParameters, GoogleGenAI, type GoogleGenAIOptions, type HttpOptions } from "@google/genai";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { providerStreamError } from "../errors.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { type GoogleChunk, GoogleEventMapper } from "./google-generative-ai-events.js";
import { buildGoogleRequest } from "./google-generative-ai-request.js";
import { failMalformed, readSseBody, streamObserver } from "./sse-body.js";

/**
 * The `google-generative-ai` wire adapter over `@google/genai` (loaded lazily
 * by the registry). The SDK builds and sends the request and turns HTTP errors
 * into its `ApiError`; a successful body is taken over through the SDK's
 * `fetch` hook and read with pi-ai's SSE parser, because the SDK wraps every
 * chunk in a `Response` object, which caps long streams at a few thousand
 * chunks per second.
 */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return streamGoogle(model, context, options, (httpOptions) => ({
			apiKey: options.apiKey,
			vertexai: false,
			// The model's baseUrl already names the API version (…/v1beta).
			httpOptions: { ...httpOptions, baseUrl: model.baseUrl, apiVersion: "" },
		}));
	},
};

/** The SDK client options for one request, given the HTTP options every Google request shares. */
export type GoogleClientOptions = (httpOptions: HttpOptions) => GoogleGenAIOptions | Promise<GoogleGenAIOptions>;

/**
 * One streamed request through `@google/genai`, for the Gemini API and Vertex
 * AI alike: `clientOptions` says which (key, project, location, endpoint);
 * the request body, the fetch hook and the stream reading are the same.
 */
export function streamGoogle(
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
	clientOptions: GoogleClientOptions,
) {
	return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
		let params: GenerateContentParameters = buildGoogleRequest(model, context, options);
		if (options.onPayload) {
			const replaced = await options.onPayload(params, model);
			if (replaced !== undefined) params = replaced as GenerateContentParameters;
		}
		let body: ReadableStream<Uint8Array> | null = null;
		const client = new GoogleGenAI(
			await clientOptions({
				headers: { ...model.headers, ...options.headers },
				// No retryOptions: the SDK then makes exactly one attempt; retries belong to the caller.
				fetch: async (input: string | URL | Request, init?: RequestInit) => {
					const response = await providerFetchFor(options, model)(input, init);
					options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
					if (!response.ok) return response; // the SDK maps the error
					body = response.body;
					return new Response("", { status: response.status, headers: response.headers });
				},
			}),
		);
		const chunks = await client.models.generateContentStream({
			...params,
			config: { ...params.config, abortSignal: signal },
		});
		// The SDK got an empty body: this ends at once.
		for await (const _ of chunks);
		const stream = body as ReadableStream<Uint8Array> | null;
		if (!stream) throw new Error("The response has no body");

		const mapper = new GoogleEventMapper(writer);
		const ended = await readSseBody(
			stream as unknown as AsyncIterable<Uint8Array>,
			writer,
			touch,
			(data) => {
				const payload = parseChunk(data);
				if (!payload) failMalformed(writer, "chunk", data);
				else if (payload.error) {
					// An error object inside the 200 stream, shaped like Google's error bodies.
					const mapped = providerStreamError(payload.error, [options.apiKey]);
					writer.fail(mapped.message, mapped.info);
				} else mapper.handle(payload);
			},
			streamObserver(options, model),
		);
		if (ended) mapper.end();
	});
}

function parseChunk(data: string): (GoogleChunk & { error?: Record<string, unknown> }) | undefined {
	try {
		const value: unknown = JSON.parse(data);
		return typeof value === "object" && value !== null ? (value as GoogleChunk) : undefined;
	} catch {
		return undefined;
	}
}
