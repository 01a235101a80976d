import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { errorFromException, errorFromHttpStatus, redactSecrets, retryAfterFrom } from "../src/errors.js";

const openaiError = (status: number, body: object, headers: Record<string, string> = {}) =>
	OpenAI.APIError.generate(status, body, undefined, new Headers(headers));
const anthropicError = (status: number, body: object, headers: Record<string, string> = {}) =>
	Anthropic.APIError.generate(status, body, undefined, new Headers(headers));

describe("errorFromException with SDK errors", () => {
	it("maps an OpenAI 429 with retry-after seconds", () => {
		const mapped = errorFromException(
			openaiError(
				429,
				{ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
				{ "retry-after": "20" },
			),
		);
		expect(mapped).toEqual({
			message: "429 Rate limit reached",
			info: { kind: "rate_limit", status: 429, code: "rate_limit_exceeded", retryable: true, retryAfterMs: 20_000 },
		});
	});

	it("does not retry an exhausted quota", () => {
		const mapped = errorFromException(
			openaiError(429, { error: { message: "You exceeded your current quota", code: "insufficient_quota" } }),
		);
		expect(mapped.info).toEqual({ kind: "rate_limit", status: 429, code: "insufficient_quota", retryable: false });
	});

	it("maps Anthropic 529 overloaded with retry-after as an HTTP date", () => {
		const date = new Date(Date.now() + 30_000).toUTCString();
		const mapped = errorFromException(
			anthropicError(
				529,
				{ type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
				{ "retry-after": date },
			),
		);
		expect(mapped.message).toBe("529 Overloaded");
		expect(mapped.info).toMatchObject({ kind: "overloaded", status: 529, code: "overloaded_error", retryable: true });
		expect(mapped.info.retryAfterMs).toBeGreaterThan(25_000);
		expect(mapped.info.retryAfterMs).toBeLessThanOrEqual(30_000);
	});

	it("maps Anthropic prompt-too-long to overflow, not retryable", () => {
		const mapped = errorFromException(
			anthropicError(400, {
				type: "error",
				error: { type: "invalid_request_error", message: "prompt is too long: 213462 tokens > 200000 maximum" },
			}),
		);
		expect(mapped.info).toEqual({ kind: "overflow", status: 400, code: "invalid_request_error", retryable: false });
	});

	it("maps Anthropic 413 request_too_large to overflow", () => {
		const mapped = errorFromException(
			anthropicError(413, {
				type: "error",
				error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
			}),
		);
		expect(mapped.info.kind).toBe("overflow");
		expect(mapped.info.retryable).toBe(false);
	});

	it("maps 401 to auth and 400 to bad_request", () => {
		expect(errorFromException(openaiError(401, { error: { message: "Incorrect API key" } })).info).toMatchObject({
			kind: "auth",
			retryable: false,
		});
		expect(errorFromException(openaiError(400, { error: { message: "Invalid 'messages'" } })).info).toMatchObject({
			kind: "bad_request",
			retryable: false,
		});
		expect(errorFromException(openaiError(500, { error: { message: "boom" } })).info).toMatchObject({
			kind: "server",
			retryable: true,
		});
		expect(errorFromException(openaiError(503, {})).info).toMatchObject({ kind: "overloaded", retryable: true });
	});

	it("maps the Google GenAI ApiError shape (status plus JSON message) with RetryInfo", () => {
		const error = Object.assign(
			new Error(
				'got status: 429 Too Many Requests. {"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"12s"}]}}',
			),
			{ name: "ApiError", status: 429 },
		);
		const mapped = errorFromException(error);
		expect(mapped.message).toBe("429 Resource has been exhausted");
		expect(mapped.info).toEqual({
			kind: "rate_limit",
			status: 429,
			code: "RESOURCE_EXHAUSTED",
			retryable: true,
			retryAfterMs: 12_000,
		});
	});

	it("maps Google's input-token overflow", () => {
		const error = Object.assign(
			new Error(
				'got status: 400 Bad Request. {"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}',
			),
			{ status: 400 },
		);
		expect(errorFromException(error).info.kind).toBe("overflow");
	});

	it("maps connection errors and timeouts as retryable network failures", () => {
		const reset = new OpenAI.APIConnectionError({
			message: "Connection error.",
			cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
		});
		expect(errorFromException(reset)).toEqual({
			message: "Connection error. (socket hang up)",
			info: { kind: "network", code: "ECONNRESET", retryable: true },
		});
		const timeout = new OpenAI.APIConnectionTimeoutError();
		expect(errorFromException(timeout).info).toEqual({ kind: "network", code: "timeout", retryable: true });
		const undici = new TypeError("fetch failed", {
			cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }),
		});
		expect(errorFromException(undici).info).toEqual({ kind: "network", code: "ECONNREFUSED", retryable: true });
	});

	it("maps aborts, whatever the error, when the signal is aborted", () => {
		const controller = new AbortController();
		controller.abort();
		expect(errorFromException(new Error("anything"), controller.signal).info).toEqual({
			kind: "aborted",
			retryable: false,
		});
		expect(errorFromException(new OpenAI.APIUserAbortError()).info.kind).toBe("aborted");
		expect(
			errorFromException(Object.assign(new Error("The operation was aborted"), { name: "AbortError" })).info.kind,
		).toBe("aborted");
	});

	it("maps an error object inside a 200 stream", () => {
		const inStream = new OpenAI.APIError(
			undefined,
			{ message: "Provider returned error", code: 502 },
			undefined,
			new Headers(),
		);
		expect(errorFromException(inStream).info).toMatchObject({ kind: "server", status: 502, retryable: true });
		const plain = new OpenAI.APIError(undefined, { message: "Something odd", code: "weird" }, undefined, new Headers());
		expect(errorFromException(plain)).toEqual({
			message: "Something odd",
			info: { kind: "provider", code: "weird", retryable: false },
		});
	});

	it("never includes API keys in messages", () => {
		const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
		const mapped = errorFromException(
			openaiError(401, { error: { message: `Incorrect API key provided: ${key}` } }),
			undefined,
			[key],
		);
		expect(mapped.message).not.toContain(key);
		const unknownKey = errorFromException(
			new Error(`failed with sk-ant-api03-secretsecretsecret and Bearer abcdefghijklmnop and ?key=AIzaSecret`),
		);
		expect(unknownKey.message).not.toMatch(/secretsecret|abcdefghijklmnop|AIzaSecret/);
	});
});

describe("errorFromHttpStatus", () => {
	it("classifies raw responses", () => {
		expect(errorFromHttpStatus(413, "", {})).toEqual({
			message: "413 status code (no body)",
			info: { kind: "overflow", status: 413, retryable: false },
		});
		// Some servers (Cerebras, Mistral) answer an oversized prompt with a bare 400.
		expect(errorFromHttpStatus(400, "", {}).info.kind).toBe("overflow");
		expect(errorFromHttpStatus(400, '{"error":{"message":"bad tool schema"}}', {}).info.kind).toBe("bad_request");
		expect(errorFromHttpStatus(502, "Bad gateway", {})).toEqual({
			message: "502 Bad gateway",
			info: { kind: "server", status: 502, retryable: true },
		});
		expect(errorFromHttpStatus(429, "{}", { "Retry-After-Ms": "250" }).info.retryAfterMs).toBe(250);
	});
});

describe("retryAfterFrom", () => {
	it("reads seconds, fractional seconds, dates and ms", () => {
		const now = Date.parse("2026-01-01T00:00:00Z");
		expect(retryAfterFrom(new Map([["retry-after", "2.5"]]), now)).toBe(2500);
		expect(retryAfterFrom(new Map([["retry-after", "Thu, 01 Jan 2026 00:00:10 GMT"]]), now)).toBe(10_000);
		expect(retryAfterFrom(new Map([["retry-after", "Wed, 31 Dec 2025 00:00:10 GMT"]]), now)).toBe(0);
		expect(retryAfterFrom(new Map([["retry-after-ms", "75.4"]]), now)).toBe(75);
		expect(retryAfterFrom(new Map([["retry-after", "soon"]]), now)).toBeUndefined();
	});
});

describe("redactSecrets", () => {
	it("removes given secrets and known key shapes", () => {
		expect(redactSecrets("key=abcd1234 used", ["abcd1234"])).toBe("key=[redacted] used");
	});
});
