import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type ApiAdapter, failedStream, runAdapterStream } from "../src/adapter.js";
import { registerApi, unregisterApi } from "../src/registry.js";
import { complete, isLoopbackUrl, resolveApiKey, stream } from "../src/stream.js";
import type { Model } from "../src/types.js";
import { collect, eventTrace } from "./support/stream-helpers.js";

const model: Model = {
	id: "m",
	name: "M",
	api: "test-api",
	provider: "test-provider",
	baseUrl: "https://example.invalid",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

afterEach(() => unregisterApi("test-api"));

describe("stream and the adapter registry", () => {
	it("loads a registered adapter lazily, once, and hands it the normalized context and key", async () => {
		let loads = 0;
		const seen: unknown[] = [];
		const adapter: ApiAdapter = {
			stream(m, context, options) {
				seen.push({ messages: context.messages, apiKey: options.apiKey });
				return runAdapterStream(m, options, async ({ writer }) => {
					const i = writer.beginText();
					writer.appendText(i, "hello");
					writer.finish("stop");
				});
			},
		};
		registerApi("test-api", async () => {
			loads++;
			return adapter;
		});
		expect(loads).toBe(0);
		const context = { systemPrompt: "S", messages: [{ role: "user" as const, content: "q", timestamp: 1 }] };
		const events = await collect(stream(model, context, { apiKey: "k" }));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_end:0", "done"]);
		const again = await complete(model, context, { apiKey: "k" });
		expect(again.content).toEqual([{ type: "text", text: "hello" }]);
		expect(loads).toBe(1);
		expect(seen[0]).toEqual({
			messages: [
				{ role: "system", content: "S", timestamp: 0 },
				{ role: "user", content: "q", timestamp: 1 },
			],
			apiKey: "k",
		});
	});

	it("ends with an error naming an unknown api", async () => {
		const message = await complete({ ...model, api: "nope" }, { messages: [] }, { apiKey: "k" });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('No adapter registered for api "nope"');
	});

	it("ends with an error naming the env variables when no key is found", async () => {
		const events = await collect(stream({ ...model, provider: "anthropic" }, { messages: [] }));
		expect(eventTrace(events)).toEqual(["start", "error"]);
		const saved = { a: process.env.ANTHROPIC_API_KEY, o: process.env.ANTHROPIC_OAUTH_TOKEN };
		delete process.env.ANTHROPIC_API_KEY;
		delete process.env.ANTHROPIC_OAUTH_TOKEN;
		try {
			const message = await complete({ ...model, provider: "anthropic" }, { messages: [] });
			expect(message.errorMessage).toBe(
				'No API key for provider "anthropic": set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY, or pass apiKey',
			);
		} finally {
			if (saved.a !== undefined) process.env.ANTHROPIC_API_KEY = saved.a;
			if (saved.o !== undefined) process.env.ANTHROPIC_OAUTH_TOKEN = saved.o;
		}
	});

	it("turns an adapter load failure or a throwing adapter into an error event", async () => {
		registerApi("test-api", async () => {
			throw new Error("module missing");
		});
		const failed = await complete(model, { messages: [] }, { apiKey: "k" });
		expect(failed.errorMessage).toBe('Could not load the "test-api" adapter: module missing');
		registerApi("test-api", async () => ({
			stream() {
				throw new Error("bad adapter");
			},
		}));
		const thrown = await complete(model, { messages: [] }, { apiKey: "k" });
		expect(thrown.errorMessage).toBe('Adapter "test-api" failed: bad adapter');
	});

	it("reports a body that returns without a stop reason as a cut stream, and a throw as an error", async () => {
		const cut = runAdapterStream(model, { apiKey: "k" }, async ({ writer }) => {
			writer.appendText(writer.beginText(), "x");
		});
		expect((await cut.result()).errorInfo).toEqual({ kind: "stream_cut", retryable: true });
		const thrown = runAdapterStream(model, { apiKey: "secret-key-123" }, async () => {
			throw new Error("failed with secret-key-123");
		});
		expect((await thrown.result()).errorMessage).toBe("failed with [redacted]");
		expect((await failedStream(model, "m", { kind: "auth", retryable: false }).result()).stopReason).toBe("error");
	});

	it("resolves keys: option, then env, then a placeholder for loopback servers", () => {
		expect(resolveApiKey(model, { apiKey: "opt" })).toBe("opt");
		expect(resolveApiKey(model)).toBeUndefined();
		expect(resolveApiKey({ ...model, baseUrl: "http://localhost:11434/v1" })).toBe("local");
		expect(isLoopbackUrl("http://127.0.0.1:8080")).toBe(true);
		expect(isLoopbackUrl("http://[::1]:8080/v1")).toBe(true);
		expect(isLoopbackUrl("https://api.openai.com")).toBe(false);
	});
});

describe("import cost", () => {
	it("loads no provider SDK from the package entry (adapters only through dynamic import)", () => {
		const src = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
		const seen = new Set<string>();
		const bare = new Set<string>();
		const visit = (file: string) => {
			if (seen.has(file)) return;
			seen.add(file);
			const text = readFileSync(file, "utf8");
			// Static imports only, type-only imports excluded (they vanish at build).
			for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+["']([^"']+)["']/gm)) {
				const spec = m[1];
				if (spec.startsWith(".")) visit(join(dirname(file), spec.replace(/\.js$/, ".ts")));
				else bare.add(spec);
			}
		};
		visit(join(src, "index.ts"));
		expect([...bare].filter((s) => /openai|anthropic|google/.test(s))).toEqual([]);
		expect(seen.has(join(src, "adapters/openai-completions.ts"))).toBe(false);
		expect(seen.has(join(src, "stream.ts"))).toBe(true);
	});
});
