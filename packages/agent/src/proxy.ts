import type { AssistantMessageEventStream, Context, Model, ProviderErrorInfo, StreamOptions } from "@pi/ai";
import { errorText } from "./messages.js";
import { type ProxyAssistantMessageEvent, ProxyMessageAssembler } from "./proxy-wire.js";

/** Request options a proxy can forward (callbacks cannot cross the wire). */
export type ProxySerializableOptions = Pick<
	StreamOptions,
	| "temperature"
	| "maxTokens"
	| "reasoning"
	| "cacheRetention"
	| "sessionId"
	| "headers"
	| "metadata"
	| "thinkingBudgets"
	| "timeoutMs"
	| "maxResponseBytes"
	| "maxResponseMs"
>;

export interface ProxyStreamOptions extends ProxySerializableOptions {
	/** Aborts the relayed request. */
	signal?: AbortSignal;
	/** Sent as `Authorization: Bearer <token>`. */
	authToken: string;
	/** The app server's base URL; the request goes to `<proxyUrl>/api/stream`. */
	proxyUrl: string;
	/** Defaults to the global `fetch`. */
	fetch?: typeof fetch;
}

const FORWARDED: (keyof ProxySerializableOptions)[] = [
	"temperature",
	"maxTokens",
	"reasoning",
	"cacheRetention",
	"sessionId",
	"headers",
	"metadata",
	"thinkingBudgets",
	"timeoutMs",
	"maxResponseBytes",
	"maxResponseMs",
];

/**
 * A stream function for apps that relay LLM calls through their own server
 * (which holds the provider keys). POSTs `{model, context, options}` as JSON
 * to `<proxyUrl>/api/stream` and reads Server-Sent Events whose `data` lines
 * are `ProxyAssistantMessageEvent`s; the full events are rebuilt locally.
 * Failures (HTTP status, network, abort, a cut stream) end the stream with
 * `error`, never a throw.
 */
export function streamProxy(model: Model, context: Context, options: ProxyStreamOptions): AssistantMessageEventStream {
	const assembler = new ProxyMessageAssembler(model);
	void relay(assembler, model, context, options);
	return assembler.stream;
}

async function relay(
	assembler: ProxyMessageAssembler,
	model: Model,
	context: Context,
	options: ProxyStreamOptions,
): Promise<void> {
	const signal = options.signal;
	const onAbort = () => assembler.fail("Request was aborted", { kind: "aborted", retryable: false });
	if (signal?.aborted) return onAbort();
	signal?.addEventListener("abort", onAbort, { once: true });
	try {
		const forwarded: Record<string, unknown> = {};
		for (const key of FORWARDED) if (options[key] !== undefined) forwarded[key] = options[key];
		const body = JSON.stringify({
			model,
			context: {
				...context,
				tools: context.tools?.map(({ name, description, parameters }) => ({ name, description, parameters })),
			},
			options: forwarded,
		});
		const response = await (options.fetch ?? fetch)(`${options.proxyUrl.replace(/\/+$/, "")}/api/stream`, {
			method: "POST",
			headers: { Authorization: `Bearer ${options.authToken}`, "Content-Type": "application/json" },
			body,
			signal,
		});
		if (!response.ok) {
			assembler.fail(await httpErrorMessage(response), httpErrorInfo(response));
			return;
		}
		if (!response.body) {
			assembler.fail("Proxy response has no body", { kind: "stream_cut", retryable: true });
			return;
		}
		await readEvents(response.body, (event) => assembler.apply(event));
		if (!assembler.isDone) {
			assembler.fail("Proxy stream ended without a terminal event", { kind: "stream_cut", retryable: true });
		}
	} catch (error) {
		if (signal?.aborted) onAbort();
		else assembler.fail(`Proxy request failed: ${errorText(error)}`, { kind: "network", retryable: true });
	} finally {
		signal?.removeEventListener("abort", onAbort);
	}
}

async function httpErrorMessage(response: Response): Promise<string> {
	let detail = "";
	try {
		const data = (await response.json()) as { error?: unknown };
		if (typeof data.error === "string") detail = data.error;
		else if (data.error && typeof (data.error as { message?: unknown }).message === "string")
			detail = (data.error as { message: string }).message;
	} catch {
		// Not JSON: the status line says enough.
	}
	return detail ? `Proxy error: ${detail}` : `Proxy error: ${response.status} ${response.statusText}`.trimEnd();
}

function httpErrorInfo(response: Response): ProviderErrorInfo {
	const status = response.status;
	const retryAfter = Number(response.headers.get("retry-after"));
	const info: ProviderErrorInfo = { kind: "bad_request", status, retryable: false };
	if (status === 401 || status === 403) info.kind = "auth";
	else if (status === 429) {
		info.kind = "rate_limit";
		info.retryable = true;
	} else if (status === 503 || status === 529) {
		info.kind = "overloaded";
		info.retryable = true;
	} else if (status >= 500) {
		info.kind = "server";
		info.retryable = true;
	}
	if (Number.isFinite(retryAfter) && retryAfter > 0) info.retryAfterMs = retryAfter * 1000;
	return info;
}

/** Reads an SSE body, handing each event's `data` (parsed JSON) to `onEvent`. */
async function readEvents(
	body: ReadableStream<Uint8Array>,
	onEvent: (event: ProxyAssistantMessageEvent) => void,
): Promise<void> {
	const decoder = new TextDecoder();
	let buffer = "";
	let data: string[] = [];
	const dispatch = () => {
		if (data.length === 0) return;
		const text = data.join("\n");
		data = [];
		if (text.trim() === "" || text === "[DONE]") return;
		onEvent(JSON.parse(text) as ProxyAssistantMessageEvent);
	};
	const reader = body.getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
			let newline = buffer.search(/\r\n|\r|\n/);
			while (newline !== -1) {
				const line = buffer.slice(0, newline);
				const width = buffer.startsWith("\r\n", newline) ? 2 : 1;
				// A lone \r at the end of the buffer may be half of \r\n; wait for more.
				if (!done && width === 1 && buffer[newline] === "\r" && newline === buffer.length - 1) break;
				buffer = buffer.slice(newline + width);
				if (line === "") dispatch();
				else if (line.startsWith("data:")) data.push(line.slice(line[5] === " " ? 6 : 5));
				newline = buffer.search(/\r\n|\r|\n/);
			}
			if (done) break;
		}
		if (buffer.startsWith("data:")) data.push(buffer.slice(buffer[5] === " " ? 6 : 5));
		dispatch();
	} finally {
		reader.releaseLock();
	}
}
