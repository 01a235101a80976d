// The Anthropic SDK console.warn()s for deprecated model ids; in -p that text went to stderr
// beside the answer. With the built pi against the fake Anthropic server: a deprecated model id
// answers with a clean stderr, and the fact is kept as a diagnostic on the session's message.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AnthropicStream } from "../../../ai/test/support/fake-provider/anthropic.js";
import { useCliSandbox } from "./support.js";

const sb = useCliSandbox();

function sessionLines(dir: string): Record<string, unknown>[] {
	const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
	expect(files).toHaveLength(1);
	return readFileSync(join(dir, files[0] as string), "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("-p with a model the Anthropic SDK deems deprecated", () => {
	it("prints only the answer: nothing on stderr; the session keeps the deprecation as a diagnostic", async () => {
		sb.writeModels({
			api: "anthropic-messages",
			baseUrl: sb.fake.url,
			compat: undefined,
			models: [{ id: "claude-sonnet-4-5", contextWindow: 200_000 }],
		});
		sb.fake.enqueue(new AnthropicStream().start().text("fine").delta("end_turn").stop().script());
		const r = await sb.run(["--model", "fake/claude-sonnet-4-5", "-p", "hi"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("fine\n");
		expect(r.code).toBe(0);
		expect(sb.fake.requests[0]?.path).toBe("/v1/messages");
		const assistant = sessionLines(join(sb.agentDir, "sessions"))
			.map((l) => l.message as { role?: string; diagnostics?: { type: string }[] } | undefined)
			.find((m) => m?.role === "assistant");
		expect(assistant?.diagnostics?.map((d) => d.type)).toEqual(["anthropic_model_deprecated"]);
	});
});
