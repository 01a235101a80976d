import type { HeaderReader } from "./http-fetch.js";
import { isOverflowErrorText } from "./overflow.js";
import { redact } from "./redaction.js";
import type { ProviderErrorInfo } from "./types.js";

/** A failure turned into what the `error` event carries. */
export interface MappedError {
	message: string;
	info: ProviderErrorInfo;
}

/**
 * A failure pi-ai detected itself (a refused redirect, a 200 that is not an
 * event stream, a response past its cap), thrown with its facts already
 * known. SDKs wrap what a custom fetch throws, so `errorFromException` looks
 * for one along the `cause` chain and passes its facts through unchanged.
 */
export class ProviderFault extends Error {
	constructor(
		message: string,
		readonly info: ProviderErrorInfo,
	) {
		super(message);
		this.name = "ProviderFault";
	}
}

type HeaderSource = HeaderReader | Record<string, string | string[] | undefined> | undefined | null;

/**
 * Maps anything an SDK or fetch may throw to structured facts. Understands the
 * official OpenAI and Anthropic SDK errors (`status`, `headers`, `error` body),
 * Google GenAI's `ApiError` (status + JSON in the message), connection errors,
 * timeouts and aborts. `secrets` (API keys) are scrubbed from the message.
 */
export function errorFromException(error: unknown, signal?: AbortSignal, secrets: readonly string[] = []): MappedError {
	if (signal?.aborted || isAbortError(error)) {
		return { message: "Request was aborted", info: { kind: "aborted", retryable: false } };
	}
	const fault = faultInChain(error);
	if (fault) return { message: redactSecrets(fault.message, secrets), info: { ...fault.info } };
	const record = asRecord(error);
	const name = typeof record?.name === "string" ? record.name : "";
	const rawMessage = error instanceof Error ? error.message : typeof error === "string" ? error : safeStringify(error);
	const status = statusOf(record, rawMessage);

	if (status !== undefined) {
		const body = bodyOf(record, rawMessage);
		const mapped = errorFromHttpParts(status, body, headersOf(record), rawMessage);
		return { message: redactSecrets(mapped.message, secrets), info: mapped.info };
	}

	const inner = asRecord(record?.error);
	if (inner && (typeof inner.message === "string" || inner.code !== undefined)) {
		// An error object inside a 200 stream (OpenAI SDK re-throws `data.error` without a status).
		return providerStreamError(inner, secrets);
	}
	if (name.includes("Timeout") || /timed? ?out/i.test(rawMessage) || codeInChain(error, TIMEOUT_CODES)) {
		return {
			message: redactSecrets(`Request timed out: ${rawMessage}`, secrets),
			info: { kind: "network", code: "timeout", retryable: true },
		};
	}
	const netCode = codeInChain(error, NETWORK_CODES);
	if (name.includes("Connection") || netCode || /fetch failed|socket|network|terminated|ECONN/i.test(rawMessage)) {
		const text = withNetworkDetail(rawMessage, error);
		const info: ProviderErrorInfo = { kind: "network", retryable: true };
		if (netCode) info.code = netCode;
		return { message: redactSecrets(text, secrets), info };
	}
	if (isOverflowErrorText(rawMessage)) {
		return { message: redactSecrets(rawMessage, secrets), info: { kind: "overflow", retryable: false } };
	}
	return {
		message: redactSecrets(rawMessage || "Unknown error", secrets),
		info: { kind: "unknown", retryable: false },
	};
}

/** Classifies an error object that arrived inside a successful stream. */
export function providerStreamError(error: Record<string, unknown>, secrets: readonly string[] = []): MappedError {
	const text = typeof error.message === "string" ? error.message : safeStringify(error);
	const numeric = typeof error.code === "number" ? error.code : Number.parseInt(String(error.code ?? ""), 10);
	if (Number.isInteger(numeric) && numeric >= 400 && numeric < 600) {
		const mapped = errorFromHttpParts(numeric, { error }, new Map(), undefined);
		return { message: redactSecrets(mapped.message, secrets), info: mapped.info };
	}
	const info: ProviderErrorInfo = { kind: "provider", retryable: false };
	const code = providerCode({ error });
	if (code) info.code = code;
	if (isOverflowErrorText(`${text} ${code ?? ""}`)) info.kind = "overflow";
	else if (code && /overloaded|rate_limit|server_error|timeout|unavailable/i.test(code)) info.retryable = true;
	return { message: redactSecrets(text, secrets), info };
}

/** For raw fetch users: classify a non-2xx response from its status, body text and headers. */
export function errorFromHttpStatus(status: number, bodyText: string, headers?: HeaderSource): MappedError {
	let body: unknown = bodyText;
	try {
		body = bodyText.trim() === "" ? undefined : JSON.parse(bodyText);
	} catch {
		// Plain-text body: keep the text.
	}
	return errorFromHttpParts(status, body, normalizeHeaders(headers), undefined);
}

function errorFromHttpParts(
	status: number,
	body: unknown,
	headers: Map<string, string>,
	fallbackMessage: string | undefined,
): MappedError {
	const detail = providerMessage(body);
	const code = providerCode(body);
	const message =
		detail !== undefined
			? `${status} ${detail}`
			: fallbackMessage && fallbackMessage !== ""
				? fallbackMessage.startsWith(String(status))
					? fallbackMessage
					: `${status} ${fallbackMessage}`
				: `${status} status code (no body)`;
	const info: ProviderErrorInfo = { kind: kindForStatus(status), status, retryable: false };
	if (code) info.code = code;

	const overflowText = `${message} ${code ?? ""}`;
	if ((status === 400 || status === 413 || status === 422 || status === 500) && isOverflowErrorText(overflowText)) {
		info.kind = "overflow";
	} else if (code === "context_length_exceeded" || code === "request_too_large") {
		info.kind = "overflow";
	} else if (status === 429 && code === "insufficient_quota") {
		// Billing exhaustion: waiting will not help.
		info.kind = "rate_limit";
	} else if (code === "overloaded_error") {
		info.kind = "overloaded";
	}

	info.retryable =
		info.kind === "rate_limit"
			? code !== "insufficient_quota"
			: info.kind === "overloaded" || info.kind === "server" || info.kind === "network";
	const retryAfterMs = retryAfterFrom(headers) ?? retryDelayFromBody(body);
	if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs;
	return { message, info };
}

function kindForStatus(status: number): ProviderErrorInfo["kind"] {
	if (status === 401 || status === 403) return "auth";
	if (status === 429) return "rate_limit";
	if (status === 529 || status === 503) return "overloaded";
	if (status === 408) return "network";
	if (status === 413) return "overflow";
	if (status >= 500) return "server";
	if (status >= 400) return "bad_request";
	return "unknown";
}

/** Delay from `retry-after-ms` (ms) or `retry-after` (seconds or an HTTP date). */
export function retryAfterFrom(headers: Map<string, string>, now = Date.now()): number | undefined {
	const ms = headers.get("retry-after-ms");
	if (ms !== undefined) {
		const value = Number.parseFloat(ms);
		if (Number.isFinite(value) && value >= 0) return Math.round(value);
	}
	const after = headers.get("retry-after");
	if (after !== undefined) {
		const seconds = Number(after.trim());
		if (after.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
		const date = Date.parse(after);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	return undefined;
}

/** Google puts the delay in the body: `details[].retryDelay: "30s"`. */
function retryDelayFromBody(body: unknown): number | undefined {
	const details = asRecord(asRecord(body)?.error)?.details;
	if (!Array.isArray(details)) return undefined;
	for (const detail of details) {
		const delay = asRecord(detail)?.retryDelay;
		if (typeof delay === "string") {
			const match = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim());
			if (match) return Math.round(Number.parseFloat(match[1]) * 1000);
		}
	}
	return undefined;
}

/** The provider's own error message from the shapes OpenAI, Anthropic and Google use. */
function providerMessage(body: unknown): string | undefined {
	if (typeof body === "string") return body.trim() === "" ? undefined : body.trim();
	const record = asRecord(body);
	if (!record) return undefined;
	const inner = asRecord(record.error);
	if (inner && typeof inner.message === "string") return inner.message;
	if (typeof record.error === "string") return record.error;
	if (typeof record.message === "string") return record.message;
	if (typeof record.detail === "string") return record.detail;
	return safeStringify(body);
}

function providerCode(body: unknown): string | undefined {
	const record = asRecord(body);
	if (!record) return undefined;
	const inner = asRecord(record.error) ?? record;
	for (const key of ["code", "type", "status"] as const) {
		const value = inner[key];
		if (typeof value === "string" && value !== "" && value !== "error") return value;
	}
	return undefined;
}

function statusOf(record: Record<string, unknown> | undefined, message: string): number | undefined {
	const status = record?.status;
	if (typeof status === "number" && status >= 100) return status;
	// Google GenAI: "got status: 429 Too Many Requests. {...}"
	const match = /got status: (\d{3})/.exec(message);
	return match ? Number(match[1]) : undefined;
}

function bodyOf(record: Record<string, unknown> | undefined, message: string): unknown {
	if (record && "error" in record && record.error !== undefined) {
		const error = record.error;
		// OpenAI's SDK keeps only the inner error object; re-wrap so one parser reads all shapes.
		const inner = asRecord(error);
		if (inner && !("error" in inner) && ("message" in inner || "code" in inner)) return { error: inner };
		return error;
	}
	const jsonStart = message.indexOf("{");
	if (jsonStart >= 0) {
		try {
			return JSON.parse(message.slice(jsonStart));
		} catch {
			// Not JSON after all.
		}
	}
	return undefined;
}

function headersOf(record: Record<string, unknown> | undefined): Map<string, string> {
	const headers = record?.headers;
	if (isHeaderReader(headers)) return normalizeHeaders(headers);
	if (asRecord(headers)) return normalizeHeaders(headers as Record<string, string>);
	return new Map();
}

/**
 * A `Headers`, or pi-ai's own reader of a node:http answer (http-fetch.ts). Told by shape: `instanceof
 * Headers` would load all of undici on Node 20 (its classes are lazy globals) for an error that needs none of it.
 */
function isHeaderReader(headers: unknown): headers is HeaderReader {
	return (
		typeof headers === "object" &&
		headers !== null &&
		typeof (headers as HeaderReader).forEach === "function" &&
		typeof (headers as HeaderReader).get === "function"
	);
}

function normalizeHeaders(headers: HeaderSource): Map<string, string> {
	const out = new Map<string, string>();
	if (!headers) return out;
	if (isHeaderReader(headers)) {
		headers.forEach((value, key) => {
			out.set(key.toLowerCase(), value);
		});
		return out;
	}
	for (const [key, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		out.set(key.toLowerCase(), Array.isArray(value) ? value.join(", ") : value);
	}
	return out;
}

const NETWORK_CODES = [
	"ECONNRESET",
	"ECONNREFUSED",
	"ECONNABORTED",
	"EPIPE",
	"ENOTFOUND",
	"EAI_AGAIN",
	"EHOSTUNREACH",
	"ENETUNREACH",
	"UND_ERR_SOCKET",
	"UND_ERR_CLOSED",
];
const TIMEOUT_CODES = ["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"];

function codeInChain(error: unknown, codes: readonly string[]): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current; depth++) {
		const code = asRecord(current)?.code;
		if (typeof code === "string" && codes.includes(code)) return code;
		current = asRecord(current)?.cause;
	}
	return undefined;
}

function faultInChain(error: unknown): ProviderFault | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current; depth++) {
		if (current instanceof ProviderFault) return current;
		current = asRecord(current)?.cause;
	}
	return undefined;
}

/**
 * The message plus what its causes add: SDKs wrap the socket error twice
 * ("Connection error." → "fetch failed" → "connect ECONNREFUSED 127.0.0.1:8080"),
 * and a host name with several addresses fails with one error per address.
 * The innermost facts (address, port, errno) are what a user can act on.
 */
function withNetworkDetail(rawMessage: string, error: unknown): string {
	const details: string[] = [];
	const add = (text: unknown) => {
		if (typeof text !== "string" || text === "" || rawMessage.includes(text) || details.includes(text)) return;
		details.push(text);
	};
	let current = asRecord(error)?.cause;
	for (let depth = 0; depth < 5 && current; depth++) {
		const record = asRecord(current);
		add(record?.message);
		if (Array.isArray(record?.errors)) for (const sub of record.errors) add(asRecord(sub)?.message);
		current = record?.cause;
	}
	// "fetch failed" says nothing the socket error does not.
	const useful = details.length > 1 ? details.filter((d) => d !== "fetch failed") : details;
	return useful.length > 0 ? `${rawMessage} (${useful.join("; ")})` : rawMessage;
}

function isAbortError(error: unknown): boolean {
	const record = asRecord(error);
	// The SDKs' user-abort errors keep the generic name; their class says what they are.
	return record?.name === "AbortError" || record?.constructor?.name === "APIUserAbortError";
}

/** Removes API keys and bearer tokens from text that may be shown or logged. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
	return redact(text, secrets);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
	return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}

function safeStringify(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}
