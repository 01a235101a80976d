// Microsoft Foundry chat models on the `azure` provider (1.6.0's providers.md: "Microsoft Foundry
// models through Chat Completions, such as azure/deepseek-v4-pro"): api openai-completions, the
// same endpoint settings as the Responses models (AZURE_OPENAI_BASE_URL / _RESOURCE_NAME, a bare
// resource URL gets /openai/v1), the deployment name as `model`, the key as a bearer token; the
// chat-completions wire format, over real HTTP to the fake provider.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getModel } from "../../src/models/catalog.js";
import { stream } from "../../src/stream.js";
import type { Context, Model } from "../../src/types.js";
import { ChatStream } from "../support/fake-provider/openai-chat.js";
import { type FakeProvider, startFakeProvider } from "../support/fake-provider/server.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "azure-foundry-key-1234567890" };
const AZURE_VARS = [
	"AZURE_OPENAI_BASE_URL",
	"AZURE_OPENAI_RESOURCE_NAME",
	"AZURE_OPENAI_DEPLOYMENT_NAME_MAP",
	"AZURE_OPENAI_API_VERSION",
];

let fake: FakeProvider;
let saved: Record<string, string | undefined>;
beforeEach(async () => {
	saved = Object.fromEntries(AZURE_VARS.map((name) => [name, process.env[name]]));
	for (const name of AZURE_VARS) delete process.env[name];
	fake = await startFakeProvider();
});
afterEach(async () => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
	await fake.close();
});

const foundry = (): Model => getModel("azure", "deepseek-v4-pro");

describe("azure: Microsoft Foundry chat models", () => {
	it("the catalog lists deepseek-v4-pro under azure as a chat-completions model with its effort map", () => {
		const model = foundry();
		expect(model).toMatchObject({ provider: "azure", api: "openai-completions", baseUrl: "", reasoning: true });
		expect(model.thinkingLevelMap).toMatchObject({ low: "low", medium: "medium", high: "high", minimal: null });
		expect(getModel("azure", "gpt-5.4").api).toBe("azure-openai-responses");
	});

	it("posts <endpoint>/chat/completions with the deployment as model and a bearer key; reasoning streams", async () => {
		process.env.AZURE_OPENAI_BASE_URL = `${fake.url}/openai/v1`;
		process.env.AZURE_OPENAI_DEPLOYMENT_NAME_MAP = "deepseek-v4-pro=my-deepseek";
		fake.enqueue(
			new ChatStream()
				.role()
				.reasoning("reasoning_content", "think")
				.text("Hel", "lo")
				.finish("stop")
				.usage({ prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 })
				.done()
				.script(),
		);
		const message = await stream(foundry(), context, { ...key, reasoning: "high" }).result();
		expect(message.errorMessage).toBeUndefined();
		expect(message.stopReason).toBe("stop");
		expect(message.provider).toBe("azure");
		expect(message.model).toBe("deepseek-v4-pro");
		expect(message.content).toMatchObject([
			{ type: "thinking", thinking: "think" },
			{ type: "text", text: "Hello" },
		]);
		const request = fake.requests[0];
		expect(request?.path).toBe("/openai/v1/chat/completions");
		expect(request?.headers.authorization).toBe(`Bearer ${key.apiKey}`);
		expect(request?.body).toMatchObject({ model: "my-deepseek", stream: true, reasoning_effort: "high" });
	});

	it("an endpoint that is not an Azure host (a gateway) is used as given; the model id is the deployment by default", async () => {
		// (A bare *.openai.azure.com / *.ai.azure.com resource URL gets /openai/v1: resolveAzureConfig's
		// tests in streaming.test.ts; an Azure host cannot be reached from a test.)
		process.env.AZURE_OPENAI_BASE_URL = `${fake.url}/foundry`;
		fake.enqueue(new ChatStream().role().text("ok").finish("stop").done().script());
		const message = await stream(foundry(), context, key).result();
		expect(message.stopReason).toBe("stop");
		expect(fake.requests[0]?.path).toBe("/foundry/chat/completions");
		expect(fake.requests[0]?.body).toMatchObject({ model: "deepseek-v4-pro" });
	});

	it("no endpoint configured: fails before any request, naming the variables to set", async () => {
		const message = await stream(foundry(), context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "auth", code: "missing_azure_endpoint", retryable: false });
		expect(message.errorMessage).toContain("AZURE_OPENAI_BASE_URL");
		expect(message.errorMessage).toContain("AZURE_OPENAI_RESOURCE_NAME");
		expect(fake.requests).toHaveLength(0);
	});
});
