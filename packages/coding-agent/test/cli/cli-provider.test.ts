// `--provider <name>` alone picks that provider's default model (docs/cli.md):
// the built-in default for a catalog provider, the first model for one of the
// user's own.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, useCliSandbox } from "./support.js";

const sb = useCliSandbox();

describe("--provider without --model", () => {
	it("a models.json provider: its first model", async () => {
		sb.writeModels({ models: [{ id: "first-model" }, { id: "second-model" }] });
		sb.fake.enqueue(textReply("from the first"));
		const r = await sb.run(["--provider", "fake", "-p", "hi"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("from the first\n");
		expect(body(sb.fake, 0).model).toBe("first-model");
	});

	it("a catalog provider: its default model (openai → gpt-5.4), not the first one listed", async () => {
		// Route the built-in openai provider to the fake server; the key comes from the environment.
		writeFileSync(
			join(sb.agentDir, "models.json"),
			JSON.stringify({ providers: { openai: { baseUrl: `${sb.fake.url}/v1` } } }),
		);
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ retry: { enabled: false } }));
		// Only the request matters here (the fake answers in another API's format).
		await sb.run(["--provider", "openai", "-p", "hi"], { env: { OPENAI_API_KEY: "sk-test" } });
		expect(sb.fake.requests.length).toBeGreaterThanOrEqual(1);
		expect((sb.fake.requests[0].body as { model: string }).model).toBe("gpt-5.4");
	});

	it("an unknown provider is an error before any request", async () => {
		const r = await sb.run(["--provider", "nosuch", "-p", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/nosuch/);
		expect(sb.fake.requests).toHaveLength(0);
	});
});
