// The bedrock-converse-stream adapter (over @aws-sdk/client-bedrock-runtime) against the fake provider
// speaking Bedrock's binary event stream (test/support/fake-provider/bedrock.ts): the signed request
// the SDK sends, text / reasoning / tool-use streams, usage and cache tokens, stop reasons, HTTP and
// mid-stream exceptions as errorInfo, byte splits, abort, missing credentials.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveBedrockTarget } from "../../src/adapters/bedrock-converse-config.js";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { BedrockStream, bedrockError } from "../support/fake-provider/bedrock.js";
import { everyBoundaryPlans, installMemoryFetch, projectEvents, splitBytes } from "../support/split-replay.js";
import { describeCommonStreamFaults } from "../support/stream-faults.js";
import { assistantTurn, collect, eventTrace } from "../support/stream-helpers.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const ambient = { apiKey: "<authenticated>" };

const AWS_ENV = {
	AWS_ACCESS_KEY_ID: "AKIDFAKEEXAMPLE",
	AWS_SECRET_ACCESS_KEY: "fake-secret-key-0123456789",
	AWS_REGION: "us-west-2",
};
const saved: Record<string, string | undefined> = {};
const AWS_NAMES = [
	...Object.keys(AWS_ENV),
	"AWS_PROFILE",
	"AWS_SESSION_TOKEN",
	"AWS_DEFAULT_REGION",
	"AWS_BEARER_TOKEN_BEDROCK",
	"AWS_CONFIG_FILE",
	"AWS_SHARED_CREDENTIALS_FILE",
];
beforeAll(() => {
	for (const name of AWS_NAMES) saved[name] = process.env[name];
	for (const name of AWS_NAMES) delete process.env[name];
	Object.assign(process.env, AWS_ENV);
	// No user files: the SDK must not read a developer's ~/.aws.
	process.env.AWS_CONFIG_FILE = "/nonexistent/aws-config";
	process.env.AWS_SHARED_CREDENTIALS_FILE = "/nonexistent/aws-credentials";
});
afterAll(() => {
	for (const name of AWS_NAMES) {
		if (saved[name] === undefined) delete process.env[name];
		else process.env[name] = saved[name];
	}
});

const env = useFakeTarget((url) => ({
	api: "bedrock-converse-stream",
	provider: "amazon-bedrock",
	id: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
	baseUrl: url,
	input: ["text", "image"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
}));

type Body = Record<string, unknown> & { messages: Record<string, unknown>[] };
const bodyOf = (i = 0) => env.fake.requests[i]?.body as Body;

describe("bedrock-converse-stream", () => {
	it("the SDK posts /model/{id}/converse-stream signed with SigV4; text streams to done with usage and cache tokens", async () => {
		env.fake.enqueue(
			new BedrockStream()
				.start()
				.text("Hel", "lo")
				.stop("end_turn")
				.metadata({
					inputTokens: 60,
					outputTokens: 7,
					totalTokens: 167,
					cacheReadInputTokens: 40,
					cacheWriteInputTokens: 60,
				})
				.script(),
		);
		const events = await collect(stream(env.model, context, { ...ambient, maxTokens: 300 }));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(done)}`);
		expect(done.message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(done.message.stopReason).toBe("stop");
		expect(done.message.rawStopReason).toBe("end_turn");
		expect(done.message.usage).toMatchObject({ input: 60, output: 7, cacheRead: 40, cacheWrite: 60, totalTokens: 167 });
		const request = env.fake.requests[0];
		expect(request?.method).toBe("POST");
		expect(request?.path).toBe(
			`/model/${encodeURIComponent("us.anthropic.claude-sonnet-4-5-20250929-v1:0")}/converse-stream`,
		);
		expect(String(request?.headers.authorization)).toMatch(
			/^AWS4-HMAC-SHA256 Credential=AKIDFAKEEXAMPLE\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/,
		);
		expect(bodyOf()).toMatchObject({
			inferenceConfig: { maxTokens: 300 },
			system: [{ text: "Be brief." }, { cachePoint: { type: "default" } }],
			messages: [{ role: "user", content: [{ text: "hi" }, { cachePoint: { type: "default" } }] }],
		});
	});
});

describe("bedrock-converse-stream: content", () => {
	it("reasoning with its signature, then text and a tool call whose input streams in pieces, ends with toolUse", async () => {
		env.fake.enqueue(
			new BedrockStream()
				.start()
				.reasoning(["Let me ", "look."], "sig-abc")
				.text("Reading it.")
				.toolUse("tooluse_Abc-123", "read", ['{"pa', 'th": "a.ts"}'])
				.stop("tool_use")
				.metadata()
				.script(),
		);
		const message = await stream(env.model, context, ambient).result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me look.", thinkingSignature: "sig-abc" },
			{ type: "text", text: "Reading it." },
			{ type: "toolCall", id: "tooluse_Abc-123", name: "read", arguments: { path: "a.ts" } },
		]);
	});

	it("redacted reasoning keeps its bytes (base64) as a redacted thinking block", async () => {
		env.fake.enqueue(
			new BedrockStream()
				.start()
				.redactedReasoning(Buffer.from("opaque"))
				.text("ok")
				.stop("end_turn")
				.metadata()
				.script(),
		);
		const message = await stream(env.model, context, ambient).result();
		expect(message.content[0]).toEqual({
			type: "thinking",
			thinking: "",
			thinkingSignature: Buffer.from("opaque").toString("base64"),
			redacted: true,
		});
	});

	it("sends history in Converse's shape: images as bytes, signed reasoning, toolUse/toolResult, merged user turns", async () => {
		const origin = { api: "bedrock-converse-stream", provider: "amazon-bedrock", model: env.model.id } as const;
		const history: Context = {
			systemPrompt: "sys",
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "look" },
						{ type: "image", data: Buffer.from("png-bytes").toString("base64"), mimeType: "image/png" },
					],
					timestamp: 1,
				},
				assistantTurn(origin, [
					{ type: "thinking", thinking: "plan", thinkingSignature: "sig-1" },
					{ type: "text", text: "Reading." },
					{ type: "toolCall", id: "call|with*bad:chars", name: "read", arguments: { path: "x" } },
				]),
				{
					role: "toolResult",
					toolCallId: "call|with*bad:chars",
					toolName: "read",
					content: [{ type: "text", text: "file body" }],
					isError: true,
					timestamp: 3,
				},
				{ role: "user", content: "and now?", timestamp: 4 },
			],
			tools: [{ name: "read", description: "Read a file", parameters: { type: "object", properties: {} } }],
		};
		env.fake.enqueue(new BedrockStream().start().text("ok").stop("end_turn").metadata().script());
		await stream(env.model, history, { ...ambient, cacheRetention: "none" }).result();
		const body = bodyOf();
		expect(body.system).toEqual([{ text: "sys" }]);
		const [user, assistant, results] = body.messages as { role: string; content: Record<string, unknown>[] }[];
		expect(user).toEqual({
			role: "user",
			content: [
				{ text: "look" },
				{ image: { format: "png", source: { bytes: Buffer.from("png-bytes").toString("base64") } } },
			],
		});
		expect(assistant?.content[0]).toEqual({
			reasoningContent: { reasoningText: { text: "plan", signature: "sig-1" } },
		});
		expect(assistant?.content[1]).toEqual({ text: "Reading." });
		const toolUse = assistant?.content[2]?.toolUse as { toolUseId: string; name: string; input: unknown };
		expect(toolUse.toolUseId).toMatch(/^[a-zA-Z0-9_-]+$/);
		expect(toolUse).toMatchObject({ name: "read", input: { path: "x" } });
		expect(results).toEqual({
			role: "user",
			content: [
				{ toolResult: { toolUseId: toolUse.toolUseId, content: [{ text: "file body" }], status: "error" } },
				{ text: "and now?" },
			],
		});
		expect(body.toolConfig).toEqual({
			tools: [
				{
					toolSpec: {
						name: "read",
						description: "Read a file",
						inputSchema: { json: { type: "object", properties: {} } },
					},
				},
			],
		});
	});

	it("thinking for Claude: a budget with the interleaved beta on 4.5, adaptive effort on 4.6+; no temperature with it", async () => {
		const send = async (id: string, reasoning: "off" | "high" | "max", map?: Record<string, string | null>) => {
			env.fake.enqueue(new BedrockStream().start().text("ok").stop("end_turn").metadata().script());
			const model = { ...env.model, id, reasoning: true, maxTokens: 64_000, thinkingLevelMap: map };
			const message = await stream(model, context, {
				...ambient,
				reasoning,
				temperature: 0.5,
				maxTokens: 4000,
			}).result();
			expect(message.stopReason).toBe("stop");
			const body = env.fake.requests.at(-1)?.body as Body;
			return { fields: body.additionalModelRequestFields, inference: body.inferenceConfig };
		};
		expect(await send("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "high")).toEqual({
			fields: {
				thinking: { type: "enabled", budget_tokens: 16384 },
				anthropic_beta: ["interleaved-thinking-2025-05-14"],
			},
			inference: { maxTokens: 20384 },
		});
		expect(await send("global.anthropic.claude-opus-4-6-v1", "max", { max: "max" })).toEqual({
			fields: { thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: "max" } },
			inference: { maxTokens: 4000 },
		});
		expect(await send("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "off")).toEqual({
			fields: undefined,
			inference: { maxTokens: 4000, temperature: 0.5 },
		});
		expect((await send("us.amazon.nova-2-lite-v1:0", "high")).fields).toEqual({
			reasoningConfig: { type: "enabled", maxReasoningEffort: "high" },
		});
	});

	it("stop reasons: max_tokens is length; a guardrail is a provider error; no messageStop is a cut stream", async () => {
		const end = async (script: BedrockStream) => {
			env.fake.enqueue(script.script());
			return stream(env.model, context, ambient).result();
		};
		expect((await end(new BedrockStream().start().text("a").stop("max_tokens").metadata())).stopReason).toBe("length");
		const filtered = await end(new BedrockStream().start().text("a").stop("guardrail_intervened").metadata());
		expect(filtered.errorInfo).toEqual({ kind: "provider", code: "guardrail_intervened", retryable: false });
		const cut = await end(new BedrockStream().start().text("a"));
		expect(cut.errorInfo).toMatchObject({ kind: "stream_cut", retryable: true });
		expect(cut.content).toEqual([{ type: "text", text: "a" }]);
		// The usage arrives after messageStop: a stream cut between them still reports the stop.
		const noUsage = await end(new BedrockStream().start().text("b").stop("end_turn"));
		expect(noUsage.stopReason).toBe("stop");
	});
});

describe("bedrock-converse-stream: errors", () => {
	it("HTTP 429 ThrottlingException is a retryable rate limit with retry-after; 400 ValidationException is bad_request", async () => {
		env.fake.enqueue(
			bedrockError(429, "ThrottlingException", "Too many requests, please wait.", { "retry-after": "3" }),
		);
		const limited = await stream(env.model, context, ambient).result();
		expect(limited.errorInfo).toEqual({
			kind: "rate_limit",
			status: 429,
			code: "ThrottlingException",
			retryable: true,
			retryAfterMs: 3000,
		});
		expect(limited.errorMessage).toBe("429 Too many requests, please wait.");
		env.fake.enqueue(bedrockError(400, "ValidationException", "messages.0: field required"));
		const invalid = await stream(env.model, context, ambient).result();
		expect(invalid.errorInfo).toEqual({
			kind: "bad_request",
			status: 400,
			code: "ValidationException",
			retryable: false,
		});
		expect(env.fake.requests).toHaveLength(2); // the SDK made no retry of its own
	});

	it("a too-long prompt is an overflow", async () => {
		env.fake.enqueue(bedrockError(400, "ValidationException", "Input is too long for requested model."));
		const message = await stream(env.model, context, ambient).result();
		expect(message.errorInfo).toMatchObject({ kind: "overflow", status: 400, retryable: false });
	});

	it("a mid-stream exception event ends with its facts and keeps the partial", async () => {
		env.fake.enqueue(
			new BedrockStream().start().openText("Partial").exception("throttlingException", "Rate exceeded").script(),
		);
		const throttled = await stream(env.model, context, ambient).result();
		expect(throttled.stopReason).toBe("error");
		expect(throttled.errorInfo).toEqual({ kind: "rate_limit", code: "ThrottlingException", retryable: true });
		expect(throttled.errorMessage).toContain("Rate exceeded");
		expect(throttled.content).toEqual([{ type: "text", text: "Partial" }]);
		env.fake.enqueue(
			new BedrockStream().start().exception("modelStreamErrorException", "Model stream failed").script(),
		);
		const broken = await stream(env.model, context, ambient).result();
		expect(broken.errorInfo).toEqual({ kind: "server", code: "ModelStreamErrorException", retryable: true });
	});

	it("a corrupted frame (bad CRC) is an error, not a success", async () => {
		const bytes = new BedrockStream().start().text("ok").stop("end_turn").metadata().bytes();
		bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
		env.fake.enqueue({ kind: "sse", bytes, headers: { "content-type": "application/vnd.amazon.eventstream" } });
		const message = await stream(env.model, context, ambient).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/checksum|crc/i);
	});
});

describe("bedrock-converse-stream: credentials", () => {
	it("a Bedrock API key (the request's key or AWS_BEARER_TOKEN_BEDROCK) is sent as a bearer token, not SigV4", async () => {
		env.fake.enqueue(new BedrockStream().start().text("ok").stop("end_turn").metadata().script());
		const viaKey = await stream(env.model, context, { apiKey: "bedrock-api-key-123" }).result();
		expect(viaKey.stopReason).toBe("stop");
		expect(env.fake.requests[0]?.headers.authorization).toBe("Bearer bedrock-api-key-123");
		process.env.AWS_BEARER_TOKEN_BEDROCK = "env-bearer-456";
		try {
			env.fake.enqueue(new BedrockStream().start().text("ok").stop("end_turn").metadata().script());
			const viaEnv = await stream(env.model, context).result();
			expect(viaEnv.stopReason).toBe("stop");
			expect(env.fake.requests[1]?.headers.authorization).toBe("Bearer env-bearer-456");
		} finally {
			delete process.env.AWS_BEARER_TOKEN_BEDROCK;
		}
	});

	it("a rejected key is an auth error whose message does not contain it", async () => {
		env.fake.enqueue(bedrockError(403, "AccessDeniedException", "Invalid API key bedrock-api-key-123"));
		const message = await stream(env.model, context, { apiKey: "bedrock-api-key-123" }).result();
		expect(message.errorInfo).toMatchObject({ kind: "auth", status: 403, code: "AccessDeniedException" });
		expect(message.errorMessage).not.toContain("bedrock-api-key-123");
	});

	it("no AWS credentials anywhere: a clear message naming what to set, and no request", async () => {
		const keys = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
		delete process.env.AWS_ACCESS_KEY_ID;
		delete process.env.AWS_SECRET_ACCESS_KEY;
		try {
			const message = await stream(env.model, context).result();
			expect(message.errorInfo).toEqual({ kind: "auth", code: "missing_credentials", retryable: false });
			expect(message.errorMessage).toContain("Amazon Bedrock");
			for (const name of ["AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_BEARER_TOKEN_BEDROCK"])
				expect(message.errorMessage).toContain(name);
			// A profile named but not found: the SDK's credential chain fails, told the same way.
			process.env.AWS_PROFILE = "no-such-profile";
			const profile = await stream(env.model, context).result();
			expect(profile.errorInfo).toMatchObject({ kind: "auth", code: "missing_credentials", retryable: false });
			expect(profile.errorMessage).toContain("AWS_ACCESS_KEY_ID");
			expect(env.fake.requests).toHaveLength(0);
		} finally {
			delete process.env.AWS_PROFILE;
			process.env.AWS_ACCESS_KEY_ID = keys.id;
			process.env.AWS_SECRET_ACCESS_KEY = keys.secret;
		}
	});
});

describeCommonStreamFaults("bedrock-converse-stream", {
	env,
	context,
	key: ambient,
	openText: (text) => new BedrockStream().start().openText(text).script(),
	slowText: (parts) => ({
		...new BedrockStream()
			.start()
			.text(...parts)
			.stop("end_turn")
			.metadata()
			.script(),
		chunkSize: 40,
		delayMs: 5,
	}),
	authFailure: {
		script: bedrockError(403, "UnrecognizedClientException", "The security token included in the request is invalid."),
		errorInfo: { kind: "auth", status: 403, code: "UnrecognizedClientException", retryable: false },
		errorMessage: "403 The security token included in the request is invalid.",
	},
	exactContent: true,
});

describe("bedrock-converse-stream: byte splits of the binary event stream", () => {
	const recorded = () =>
		new BedrockStream()
			.start()
			.reasoning(["Weighing ", "the options — ünïcödé ✓"], "sig-Zz9")
			.text("Let me ", "read")
			.toolUse("tooluse_1", "read", ['{"path"', ': "src/ä.ts"}'])
			.stop("tool_use")
			.metadata({ inputTokens: 10, outputTokens: 20, totalTokens: 30, cacheReadInputTokens: 5 });
	const run = async (pieces: Uint8Array[]) => {
		memory.respond(pieces, 200, { "content-type": "application/vnd.amazon.eventstream" });
		return projectEvents(await collect(stream(env.model, context, ambient)));
	};
	let memory: ReturnType<typeof installMemoryFetch>;
	beforeAll(() => {
		memory = installMemoryFetch();
	});
	afterAll(() => memory.restore());

	it("every byte boundary (preludes, headers, payloads, CRCs) gives identical events", async () => {
		const frames = recorded().getFrames();
		const bytes = Buffer.concat(frames);
		const ranges: [number, number][] = [];
		let at = 0;
		for (const frame of frames) {
			ranges.push([at, at + frame.length]);
			at += frame.length;
		}
		const baseline = await run([bytes]);
		expect(baseline.at(-1)).toMatch(/^done:toolUse:/);
		const plans = everyBoundaryPlans(ranges, 12);
		for (const cuts of plans) expect(await run(splitBytes(bytes, cuts))).toEqual(baseline);
		expect(new Set(plans.flat()).size).toBe(bytes.length - 1);
		// Every byte its own piece.
		const everyByte = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
		expect(await run(splitBytes(bytes, everyByte))).toEqual(baseline);
	}, 60_000);
});

describe("bedrock target resolution", () => {
	it("region from AWS_REGION, AWS_DEFAULT_REGION, else the standard endpoint's; custom endpoints kept as given", () => {
		const eu = { baseUrl: "https://bedrock-runtime.eu-central-1.amazonaws.com" };
		expect(resolveBedrockTarget(eu, "<authenticated>", {})).toEqual({
			envRegion: undefined,
			fallbackRegion: "eu-central-1",
			endpoint: undefined,
			bearerToken: undefined,
		});
		expect(resolveBedrockTarget(eu, "<authenticated>", { AWS_DEFAULT_REGION: "ap-south-1" }).envRegion).toBe(
			"ap-south-1",
		);
		expect(
			resolveBedrockTarget(eu, "<authenticated>", { AWS_REGION: "us-west-2", AWS_DEFAULT_REGION: "ap-south-1" })
				.envRegion,
		).toBe("us-west-2");
		const vpc = resolveBedrockTarget(
			{ baseUrl: "https://vpce-123.bedrock-runtime.us-east-1.vpce.amazonaws.com/" },
			"k",
			{},
		);
		expect(vpc).toMatchObject({
			endpoint: "https://vpce-123.bedrock-runtime.us-east-1.vpce.amazonaws.com",
			fallbackRegion: "us-east-1",
			bearerToken: "k",
		});
		expect(resolveBedrockTarget(eu, "<authenticated>", { AWS_BEARER_TOKEN_BEDROCK: " tok " }).bearerToken).toBe("tok");
	});
});
