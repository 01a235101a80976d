// A thinkingLevelMap on an extension-registered model (static list and
// refreshModels) reaches the request: the mapped provider value is sent, a
// level mapped to null is clamped to a neighbour, xhigh is available because
// the map names it. Through the BUILT pi against the fake provider.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";

const EXT = resolve(__dirname, "../fixtures/extensions/providers/thinking-map.ts");

const sb = useCliSandbox({
	setup(sb) {
		sb.env.THINK_BASE_URL = `${sb.fake.url}/v1`;
	},
});

const efforts = () =>
	sb.fake.requests
		.filter((r) => r.path.endsWith("/chat/completions"))
		.map((r) => (r.body as { reasoning_effort?: string }).reasoning_effort);

describe("extension models keep thinkingLevelMap (built CLI)", () => {
	it("sends the mapped values; a null level is clamped; xhigh exists because the map names it", async () => {
		const levels = ["high", "xhigh", "minimal", "medium"];
		sb.fake.enqueueFor("/chat/completions", ...levels.map((l) => textReply(l)));
		for (const level of levels) {
			const r = await sb.run([
				"-e",
				EXT,
				"--model",
				"think-static/mapped",
				"--thinking",
				level,
				"--no-session",
				"-p",
				"q",
			]);
			expect(r.stderr).toBe("");
			expect(r.stdout).toBe(`${level}\n`);
		}
		// minimal is unsupported (null): the nearest higher level, low, is sent.
		expect(efforts()).toEqual(["max-effort", "ultra", "low", "medium"]);
	}, 120_000);

	it("a model listed by refreshModels keeps its map too", async () => {
		sb.fake.enqueueFor("/chat/completions", textReply("live"));
		const r = await sb.run([
			"-e",
			EXT,
			"--model",
			"think-live/live-mapped",
			"--thinking",
			"high",
			"--no-session",
			"-p",
			"q",
		]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("live\n");
		expect(efforts()).toEqual(["max-effort"]);
	}, 120_000);

	it("a malformed map is refused where the extension registers it, naming model, provider and file", async () => {
		const bad = resolve(sb.root, "bad-map.ts");
		const { writeFileSync } = await import("node:fs");
		writeFileSync(
			bad,
			`export default (pi) => pi.registerProvider("bad", { baseUrl: "http://x", apiKey: "k", api: "openai-completions",
				models: [{ id: "b1", name: "b1", reasoning: true, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				thinkingLevelMap: { turbo: "x" } }] });`,
		);
		const r = await sb.run(["-e", bad, "--list-models"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain('thinkingLevelMap of model "b1" (provider "bad")');
		expect(r.stderr).toContain(bad);
	}, 120_000);
});
