// The azure-openai-responses adapter over real HTTP against the fake provider: Azure's endpoint
// layout (/openai/v1/responses, the api-key header, the api-version query, the deployment as
// `model`), where the endpoint and deployment come from, and the shared stream contract. The body
// and events are OpenAI's Responses wire format, so the recorded OpenAI Responses streams
// (test/fixtures/recorded/openai-responses, see the README there) are replayed through it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveAzureConfig } from "../../src/adapters/azure-openai-config.js";
import { ResponsesEventMapper, type ResponsesWireEvent } from "../../src/adapters/openai-responses-events.js";
import { getModel } from "../../src/models/catalog.js";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { describeByteSplits } from "../support/byte-splits.js";
import { openaiError, ResponsesStream } from "../support/fake-provider/openai-responses.js";
import { recordedFrames } from "../support/fake-provider/recorded.js";
import { decodePieces } from "../support/split-replay.js";
import { describeCommonStreamFaults } from "../support/stream-faults.js";
import { collect, eventTrace } from "../support/stream-helpers.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "azure-key-1234567890" };
const AZURE_VARS = [
	"AZURE_OPENAI_BASE_URL",
	"AZURE_OPENAI_RESOURCE_NAME",
	"AZURE_OPENAI_DEPLOYMENT_NAME_MAP",
	"AZURE_OPENAI_API_VERSION",
];

// The model's own baseUrl is the fallback endpoint (as a models.json entry would give it).
const env = useFakeTarget((url) => ({
	api: "azure-openai-responses",
	provider: "azure",
	id: "gpt-fake",
	baseUrl: `${url}/openai/v1`,
	reasoning: true,
}));

let saved: Record<string, string | undefined>;
beforeEach(() => {
	saved = Object.fromEntries(AZURE_VARS.map((name) => [name, process.env[name]]));
	for (const name of AZURE_VARS) delete process.env[name];
});
afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

describe("azure-openai-responses", () => {
	it("posts to <endpoint>/responses with api-key, api-version and the deployment as model; streams text", async () => {
		process.env.AZURE_OPENAI_BASE_URL = `${env.fake.url}/openai/v1`;
		process.env.AZURE_OPENAI_DEPLOYMENT_NAME_MAP = "other=x, gpt-fake = my-deployment";
		process.env.AZURE_OPENAI_API_VERSION = "2025-04-01-preview";
		env.fake.enqueue(
			new ResponsesStream()
				.created()
				.message("msg_1", ["Hel", "lo"])
				.completed({ input_tokens: 10, output_tokens: 2, total_tokens: 12 })
				.script(),
		);
		const events = await collect(stream(env.model, context, { ...key, reasoning: "high" }));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
		const request = env.fake.requests[0];
		expect(request?.path).toBe("/openai/v1/responses");
		expect(new URLSearchParams(request?.query).get("api-version")).toBe("2025-04-01-preview");
		expect(request?.headers["api-key"]).toBe(key.apiKey);
		expect(request?.headers.authorization).toBeUndefined();
		expect(request?.body).toMatchObject({
			model: "my-deployment",
			stream: true,
			reasoning: { effort: "high", summary: "auto" },
		});
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.message.content).toMatchObject([{ type: "text", text: "Hello" }]);
		expect(done.message.provider).toBe("azure");
		expect(done.message.usage.input).toBe(10);
	});

	it("without any variable the model's baseUrl is the endpoint, the model id the deployment, api-version v1", async () => {
		env.fake.enqueue(new ResponsesStream().created().message("msg_1", ["ok"]).completed().script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("stop");
		expect(env.fake.requests[0]?.query).toBe("api-version=v1");
		expect((env.fake.requests[0]?.body as { model?: string } | undefined)?.model).toBe("gpt-fake");
	});

	it("a catalog model with no endpoint configured fails with what is missing, before any request", async () => {
		const model = getModel("azure", "gpt-5.4");
		expect(model.baseUrl).toBe("");
		const message = await stream(model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "auth", code: "missing_azure_endpoint", retryable: false });
		expect(message.errorMessage).toContain("AZURE_OPENAI_BASE_URL");
		expect(message.errorMessage).toContain("AZURE_OPENAI_RESOURCE_NAME");
		expect(env.fake.requests).toHaveLength(0);
	});

	it("an Azure 401 is an auth error; the key never appears in the message", async () => {
		env.fake.enqueue({
			kind: "json",
			status: 401,
			body: { error: { code: "401", message: "Access denied due to invalid subscription key or wrong API endpoint." } },
		});
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "auth", status: 401, retryable: false });
		expect(message.errorMessage).not.toContain(key.apiKey);
	});

	it("a 429 with retry-after is a retryable rate limit", async () => {
		env.fake.enqueue(openaiError(429, "rate_limit_exceeded", "Rate limit reached", { "retry-after": "3" }));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "rate_limit", status: 429, retryable: true, retryAfterMs: 3000 });
	});
});

describe("resolveAzureConfig", () => {
	const model = { id: "gpt-5.4", baseUrl: "" };
	it("builds the endpoint from the resource name and normalises bare Azure resource URLs to /openai/v1", () => {
		expect(resolveAzureConfig(model, { AZURE_OPENAI_RESOURCE_NAME: "acme" })).toEqual({
			ok: true,
			baseUrl: "https://acme.openai.azure.com/openai/v1",
			deployment: "gpt-5.4",
			apiVersion: "v1",
		});
		for (const raw of [
			"https://acme.openai.azure.com",
			"https://acme.openai.azure.com/openai/",
			"https://acme.cognitiveservices.azure.com/openai/v1/responses",
			"https://acme.services.ai.azure.com/",
		]) {
			const config = resolveAzureConfig(model, { AZURE_OPENAI_BASE_URL: raw });
			expect(config.ok && config.baseUrl).toBe(`${new URL(raw).origin}/openai/v1`);
		}
		// A proxy elsewhere is taken as given; the explicit URL wins over the resource name.
		const proxy = resolveAzureConfig(model, {
			AZURE_OPENAI_BASE_URL: "https://gw.example.com/azure/",
			AZURE_OPENAI_RESOURCE_NAME: "acme",
		});
		expect(proxy.ok && proxy.baseUrl).toBe("https://gw.example.com/azure");
		expect(resolveAzureConfig(model, { AZURE_OPENAI_BASE_URL: "not a url" })).toMatchObject({ ok: false });
	});
});

describeCommonStreamFaults("azure-openai-responses", {
	env,
	context,
	key,
	openText: (text) => new ResponsesStream().created().openMessage("msg_1", text).script(),
	slowText: (parts) => ({
		...new ResponsesStream().created().message("msg_1", parts).completed().script(),
		chunkSize: 40,
		delayMs: 5,
	}),
	authFailure: {
		script: openaiError(401, "invalid_api_key", "Incorrect API key provided: azure-ke*******7890."),
		errorInfo: { kind: "auth", status: 401, code: "invalid_api_key", retryable: false },
		errorMessage: "401 Incorrect API key provided: azure-ke*******7890.",
	},
	exactContent: false,
});

describeByteSplits({
	api: "azure-openai-responses",
	env,
	context,
	key,
	streams: ["openai-custom-tool.1", "openai-phase.1", "openai-error.1"].map((name) => ({
		label: `${name} (recorded OpenAI Responses stream)`,
		frames: () => recordedFrames("openai-responses", name, { eventFromType: true }),
	})),
	decode: (pieces) => decodePieces<ResponsesWireEvent>(env.model, (writer) => new ResponsesEventMapper(writer), pieces),
	period: 1000,
	terminal: /^(done|error):/,
	timeoutMs: 30_000,
});
