// Upstream 1.6.0's custom-provider examples (custom-provider-anthropic: its own
// stream over the Anthropic SDK with ToolCallArgumentsStream, calculateCost and
// collapseSystemMessages, and an OAuth login; custom-provider-gitlab-duo: a
// token exchange, then delegation to pi-ai's anthropicMessagesApi() /
// openAIResponsesApi()), unmodified, run by the BUILT pi against the fake
// provider over real HTTP/SSE. The examples hard-code their services' URLs, so
// the harness extension redirect-hosts.ts (loaded first) sends those origins to
// the fake server. Build first.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { AnthropicStream } from "../../../ai/test/support/fake-provider/anthropic.js";
import { ResponsesStream } from "../../../ai/test/support/fake-provider/openai-responses.js";
import { json, type RecordedRequest } from "../../../ai/test/support/fake-provider/server.js";
import { useCliSandbox } from "../cli/support.js";

const UPSTREAM = resolve(__dirname, "../fixtures/extensions/upstream");
const REDIRECT = resolve(__dirname, "../fixtures/extensions/providers/redirect-hosts.ts");
const ANTHROPIC = ["-e", REDIRECT, "-e", join(UPSTREAM, "custom-provider-anthropic")];
const GITLAB = ["-e", REDIRECT, "-e", join(UPSTREAM, "custom-provider-gitlab-duo")];

const sb = useCliSandbox({
	setup: (sandbox) => {
		chmodSync(sandbox.agentDir, 0o700);
		sandbox.env.PI_TEST_REDIRECT = JSON.stringify({
			"https://api.anthropic.com": sandbox.fake.url,
			"https://console.anthropic.com": sandbox.fake.url,
			"https://gitlab.com": sandbox.fake.url,
			"https://cloud.gitlab.com": sandbox.fake.url,
		});
	},
});

/**
 * stderr without the Anthropic SDK's own notice for model ids it lists as
 * deprecated (a console.warn inside messages.create, which both the example's
 * client and pi-ai's adapter call; the examples' model ids are on that list).
 */
const stderrOf = (r: { stderr: string }) =>
	r.stderr.replace(
		/The model '[^']+' is deprecated and will reach end-of-life on [^\n]+\nPlease migrate to a newer model\. Visit https:\/\/docs\.anthropic\.com\/en\/docs\/resources\/model-deprecations for more information\.\n/g,
		"",
	);
const requestsTo = (suffix: string): RecordedRequest[] => sb.fake.requests.filter((r) => r.path.endsWith(suffix));
const anthropicText = (text: string) =>
	new AnthropicStream({ model: "claude-sonnet-4-5" })
		.start({ input_tokens: 1000, output_tokens: 1 })
		.text(text)
		.delta("end_turn", { input_tokens: 1000, output_tokens: 7 })
		.stop()
		.script();

interface AnthropicBody {
	model: string;
	system?: { text: string }[];
	tools?: { name: string; input_schema: { properties: Record<string, unknown> } }[];
	messages: { role: string; content: unknown }[];
}

describe("custom-provider-anthropic (upstream, unmodified)", () => {
	it("streams a reply through its own SDK client with the key from CUSTOM_ANTHROPIC_API_KEY; usage is costed", async () => {
		sb.fake.enqueueFor("/v1/messages", anthropicText("custom hello"));
		const r = await sb.run(
			[...ANTHROPIC, "--model", "custom-anthropic/claude-sonnet-4-5", "--mode", "json", "--no-session", "-p", "hi"],
			{ env: { CUSTOM_ANTHROPIC_API_KEY: "sk-ant-api-test" } },
		);
		expect(stderrOf(r)).toBe("");
		expect(r.code).toBe(0);
		const [request] = requestsTo("/v1/messages");
		// The repo's @anthropic-ai/sdk (1.14; the example pins 0.52) sends the key as a bearer token.
		expect(request.headers.authorization).toBe("Bearer sk-ant-api-test");
		const sent = request.body as AnthropicBody;
		expect(sent.model).toBe("claude-sonnet-4-5");
		// getCurrentSystemPrompt / getCurrentTools over the collapsed transcript: pi's prompt and tools.
		expect(sent.system?.[0].text).toContain("read");
		expect(sent.tools?.map((t) => t.name)).toEqual(expect.arrayContaining(["read", "bash"]));
		expect(sent.messages.at(-1)).toMatchObject({ role: "user" });
		const end = r.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l))
			.find((e) => e.type === "agent_end");
		const reply = end.messages.at(-1);
		expect(reply.content).toEqual([{ type: "text", text: "custom hello" }]);
		// calculateCost with the model's price ($3 / M input, $15 / M output).
		expect(reply.usage.cost.input).toBeCloseTo(0.003, 10);
		expect(reply.usage.cost.output).toBeCloseTo(7 * 15e-6, 10);
	}, 120_000);

	it("a streamed tool call (ToolCallArgumentsStream) runs the tool; its result goes back as tool_result", async () => {
		writeFileSync(join(sb.cwd, "note.txt"), "the note says 42\n");
		sb.fake.enqueueFor(
			"/v1/messages",
			new AnthropicStream()
				.start()
				.toolUse("toolu_1", "read", ['{"pa', 'th": "note', '.txt"}'])
				.delta("tool_use")
				.stop()
				.script(),
			anthropicText("it says 42"),
		);
		const r = await sb.run(
			[...ANTHROPIC, "--model", "custom-anthropic/claude-opus-4-5", "--no-session", "-p", "read"],
			{
				env: { CUSTOM_ANTHROPIC_API_KEY: "sk-ant-api-test" },
			},
		);
		expect(stderrOf(r)).toBe("");
		expect(r.stdout).toBe("it says 42\n");
		const second = requestsTo("/v1/messages")[1].body as AnthropicBody;
		const results = JSON.stringify(second.messages.at(-1));
		expect(results).toContain('"tool_use_id":"toolu_1"');
		expect(results).toContain("the note says 42");
	}, 120_000);

	it("pi auth login runs its OAuth login (token exchange at the redirected URL); requests then use the OAuth token", async () => {
		sb.fake.enqueueFor(
			"/v1/oauth/token",
			json(200, { access_token: "sk-ant-oat-live", refresh_token: "r-1", expires_in: 3600 }),
		);
		const login = await sb.run(["auth", "login", "custom-anthropic", ...ANTHROPIC], { stdin: "the-code#the-state\n" });
		expect(login.stderr).toContain("https://claude.ai/oauth/authorize?");
		expect(login.code).toBe(0);
		const exchange = requestsTo("/v1/oauth/token")[0].body as Record<string, string>;
		expect(exchange).toMatchObject({ grant_type: "authorization_code", code: "the-code", state: "the-state" });
		expect(JSON.parse(readFileSync(join(sb.agentDir, "auth.json"), "utf8"))["custom-anthropic"]).toMatchObject({
			type: "oauth",
			access: "sk-ant-oat-live",
			refresh: "r-1",
		});

		sb.fake.enqueueFor("/v1/messages", anthropicText("oauth hello"));
		const r = await sb.run([...ANTHROPIC, "--model", "custom-anthropic/claude-sonnet-4-5", "--no-session", "-p", "hi"]);
		expect(stderrOf(r)).toBe("");
		expect(r.stdout).toBe("oauth hello\n");
		const request = requestsTo("/v1/messages")[0];
		expect(request.headers.authorization).toBe("Bearer sk-ant-oat-live");
		expect((request.body as AnthropicBody).system?.[0].text).toBe(
			"You are Claude Code, Anthropic's official CLI for Claude.",
		);
	}, 120_000);
});

describe("custom-provider-gitlab-duo (upstream, unmodified)", () => {
	const directAccess = () => json(200, { token: "duo-direct-token", headers: { "x-gitlab-realm": "saas" } });

	it("a Claude model: the GitLab token buys a direct-access token, then anthropicMessagesApi() streams from the proxy", async () => {
		sb.fake.enqueueFor("/api/v4/ai/third_party_agents/direct_access", directAccess());
		sb.fake.enqueueFor("/messages", anthropicText("duo claude"));
		const r = await sb.run(
			[...GITLAB, "--model", "gitlab-duo/claude-sonnet-4-5-20250929", "--no-session", "-p", "hi"],
			{ env: { GITLAB_TOKEN: "glpat-test" } },
		);
		expect(stderrOf(r)).toBe("");
		expect(r.stdout).toBe("duo claude\n");
		const exchange = requestsTo("/direct_access")[0];
		expect(exchange.headers.authorization).toBe("Bearer glpat-test");
		const request = requestsTo("/messages")[0];
		expect(request.path).toMatch(/^\/ai\/v1\/proxy\/anthropic\//);
		expect(request.headers.authorization).toBe("Bearer duo-direct-token");
		expect(request.headers["x-gitlab-realm"]).toBe("saas");
		expect((request.body as AnthropicBody).model).toBe("claude-sonnet-4-5-20250929");
	}, 120_000);

	it("a GPT model goes through openAIResponsesApi() to the OpenAI proxy", async () => {
		sb.fake.enqueueFor("/api/v4/ai/third_party_agents/direct_access", directAccess());
		sb.fake.enqueueFor("/responses", new ResponsesStream().created().message("m1", ["duo gpt"]).completed().script());
		const r = await sb.run([...GITLAB, "--model", "gitlab-duo/gpt-5-codex", "--no-session", "-p", "hi"], {
			env: { GITLAB_TOKEN: "glpat-test" },
		});
		expect(stderrOf(r)).toBe("");
		expect(r.stdout).toBe("duo gpt\n");
		const request = requestsTo("/responses")[0];
		expect(request.path).toBe("/ai/v1/proxy/openai/v1/responses");
		expect(request.headers.authorization).toBe("Bearer duo-direct-token");
		expect((request.body as { model: string }).model).toBe("gpt-5-codex");
	}, 120_000);

	it("a refused direct-access exchange is the reply's error, named as the example words it", async () => {
		sb.fake.enqueueFor("/api/v4/ai/third_party_agents/direct_access", json(403, { message: "Duo not enabled" }));
		const r = await sb.run([...GITLAB, "--model", "gitlab-duo/claude-haiku-4-5-20251001", "--no-session", "-p", "hi"], {
			env: { GITLAB_TOKEN: "glpat-test" },
		});
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("GitLab Duo access denied. Ensure GitLab Duo is enabled for your account.");
		expect(requestsTo("/messages")).toHaveLength(0);
	}, 120_000);
});
