// The built `pi` with the cloud providers' credentials in the environment: their catalog models
// appear in --list-models only when credentials are present, and `--provider X` alone picks the
// provider's default model and reaches the provider's wire API (here the fake server).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BedrockStream } from "../../../ai/test/support/fake-provider/bedrock.js";
import { GoogleStream } from "../../../ai/test/support/fake-provider/google.js";
import { MistralStream } from "../../../ai/test/support/fake-provider/mistral.js";
import { ResponsesStream } from "../../../ai/test/support/fake-provider/openai-responses.js";
import { useCliSandbox } from "./support.js";

const sb = useCliSandbox();

/** The model ids `--list-models <provider>` prints for that provider. */
async function listed(provider: string, env: NodeJS.ProcessEnv): Promise<string[]> {
	const r = await sb.run(["--list-models", provider], { env });
	expect(r.code).toBe(0);
	return r.stdout
		.split("\n")
		.slice(1)
		.map((line) => line.trim().split(/\s+/))
		.filter(([p]) => p === provider)
		.map(([, id]) => id ?? "");
}

describe("azure", () => {
	it("lists Azure models only with a key; --provider azure alone asks the default deployment", async () => {
		expect(await listed("azure", {})).toEqual([]);
		const env = {
			AZURE_OPENAI_API_KEY: "azure-secret",
			AZURE_OPENAI_BASE_URL: `${sb.fake.url}/openai/v1`,
			AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5.4=prod-gpt",
		};
		const ids = await listed("azure", env);
		expect(ids).toContain("gpt-5.4");
		expect(ids).toContain("gpt-5.6-sol");

		sb.fake.enqueue(new ResponsesStream().created().message("msg_1", ["from azure"]).completed().script());
		const r = await sb.run(["-p", "--no-session", "--provider", "azure", "hello"], { env });
		expect(r.stderr).toBe("");
		expect(r.stdout.trim()).toBe("from azure");
		const request = sb.fake.requests[0];
		expect(request?.path).toBe("/openai/v1/responses");
		expect(request?.headers["api-key"]).toBe("azure-secret");
		expect((request?.body as { model?: string } | undefined)?.model).toBe("prod-gpt");
	});
});

describe("mistral", () => {
	it("lists Mistral models only with MISTRAL_API_KEY; --provider mistral alone asks the default through the SDK", async () => {
		// The built-in provider pointed at the fake server (a models.json baseUrl override).
		writeFileSync(
			join(sb.agentDir, "models.json"),
			JSON.stringify({ providers: { mistral: { baseUrl: sb.fake.url } } }),
		);
		expect(await listed("mistral", {})).toEqual([]);
		const env = { MISTRAL_API_KEY: "mistral-secret" };
		expect(await listed("mistral", env)).toContain("devstral-medium-latest");

		sb.fake.enqueue(new MistralStream().role().text("from mistral").finish("stop").done().script());
		const r = await sb.run(["-p", "--no-session", "--provider", "mistral", "hello"], { env });
		expect(r.stderr).toBe("");
		expect(r.stdout.trim()).toBe("from mistral");
		const request = sb.fake.requests[0];
		expect(request?.path).toBe("/v1/chat/completions");
		expect(request?.headers.authorization).toBe("Bearer mistral-secret");
		expect((request?.body as { model?: string } | undefined)?.model).toBe("devstral-medium-latest");
	});
});

describe("amazon-bedrock", () => {
	it("lists Bedrock models only with AWS credentials; --provider amazon-bedrock alone signs a Converse request", async () => {
		writeFileSync(
			join(sb.agentDir, "models.json"),
			JSON.stringify({ providers: { "amazon-bedrock": { baseUrl: sb.fake.url } } }),
		);
		expect(await listed("amazon-bedrock", {})).toEqual([]);
		const env = {
			AWS_ACCESS_KEY_ID: "AKIDCLITEST",
			AWS_SECRET_ACCESS_KEY: "cli-secret",
			AWS_REGION: "eu-west-1",
		};
		const ids = await listed("amazon-bedrock", env);
		expect(ids).toContain("us.anthropic.claude-opus-4-6-v1");
		expect(ids).toContain("amazon.nova-pro-v1:0");
		expect(await listed("amazon-bedrock", { AWS_PROFILE: "work" })).toContain("us.anthropic.claude-opus-4-6-v1");

		sb.fake.enqueue(new BedrockStream().start().text("from bedrock").stop("end_turn").metadata().script());
		const r = await sb.run(["-p", "--no-session", "--provider", "amazon-bedrock", "hello"], { env });
		expect(r.stderr).toBe("");
		expect(r.stdout.trim()).toBe("from bedrock");
		const request = sb.fake.requests[0];
		expect(request?.path).toBe(`/model/${encodeURIComponent("us.anthropic.claude-opus-4-6-v1")}/converse-stream`);
		expect(String(request?.headers.authorization)).toContain("Credential=AKIDCLITEST/");
		expect(String(request?.headers.authorization)).toContain("/eu-west-1/bedrock/aws4_request");
	});

	it("without AWS credentials, a chosen Bedrock model says what to set", async () => {
		const r = await sb.run(
			["-p", "--no-session", "--model", "amazon-bedrock/us.anthropic.claude-opus-4-6-v1", "hello"],
			{
				env: {},
			},
		);
		expect(r.code).not.toBe(0);
		expect(r.stderr).toContain("Amazon Bedrock");
		expect(r.stderr).toContain("AWS_ACCESS_KEY_ID");
		expect(r.stderr).toContain("AWS_BEARER_TOKEN_BEDROCK");
		expect(sb.fake.requests).toHaveLength(0);
	});
});

describe("google-vertex", () => {
	it("lists Vertex models with an API key or ADC (a credentials file, project and location); --provider google-vertex asks the default", async () => {
		writeFileSync(
			join(sb.agentDir, "models.json"),
			JSON.stringify({ providers: { "google-vertex": { baseUrl: sb.fake.url } } }),
		);
		expect(await listed("google-vertex", {})).toEqual([]);
		const adc = join(sb.root, "adc.json");
		writeFileSync(
			adc,
			JSON.stringify({ type: "authorized_user", client_id: "x", client_secret: "y", refresh_token: "z" }),
		);
		const adcEnv = {
			GOOGLE_APPLICATION_CREDENTIALS: adc,
			GOOGLE_CLOUD_PROJECT: "p",
			GOOGLE_CLOUD_LOCATION: "europe-west4",
		};
		expect(await listed("google-vertex", adcEnv)).toContain("gemini-3.1-pro-preview");
		// The file alone is not enough: the project and location are needed too.
		expect(await listed("google-vertex", { GOOGLE_APPLICATION_CREDENTIALS: adc })).toEqual([]);

		const env = { GOOGLE_CLOUD_API_KEY: "vertex-key" };
		expect(await listed("google-vertex", env)).toContain("gemini-2.5-pro");
		sb.fake.enqueue(new GoogleStream().text("from vertex").chunk([], "STOP").script());
		const r = await sb.run(["-p", "--no-session", "--provider", "google-vertex", "hello"], { env });
		expect(r.stderr).toBe("");
		expect(r.stdout.trim()).toBe("from vertex");
		const request = sb.fake.requests[0];
		expect(request?.path).toBe("/v1beta1/publishers/google/models/gemini-3.1-pro-preview:streamGenerateContent");
		expect(request?.headers["x-goog-api-key"]).toBe("vertex-key");
	});
});
