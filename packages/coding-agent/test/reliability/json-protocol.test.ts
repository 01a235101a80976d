// RELIABILITY.md "RPC/JSON payloads with U+2028/U+2029, \r, lone surrogates":
// `pi --mode json` (the BUILT CLI) prints one JSON record per line; text with
// line/paragraph separators, CR and a lone surrogate must reach the provider
// and come back in the events unchanged, and never split a record.
// (RPC framing, malformed and partial lines: test/rpc/rpc-framing.test.ts.)
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { useCliSandbox } from "../cli/support.js";

const sb = useCliSandbox();

const TRICKY = "a\u2028b\u2029c\rd\r\ne";

describe("pi --mode json: awkward characters", () => {
	it("U+2028, U+2029 and CR round-trip through the provider and the event stream", async () => {
		sb.fake.enqueue(
			new ChatStream()
				.role()
				.text(`reply ${TRICKY}`)
				.finish("stop")
				.usage({ prompt_tokens: 5, completion_tokens: 5 })
				.done()
				.script(),
		);
		const r = await sb.run(["--mode", "json", "--model", "fake/fake-model", `ask ${TRICKY}`]);
		expect(r.code).toBe(0);
		const lines = r.stdout.split("\n").filter(Boolean);
		const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>); // no record is split
		const sent = (sb.fake.requests[0].body as { messages: { role: string; content: unknown }[] }).messages.at(-1);
		expect(JSON.stringify(sent)).toContain(JSON.stringify(`ask ${TRICKY}`).slice(1, -1));
		const end = records.filter((x) => x.type === "message_end").at(-1) as {
			message: { content: { type: string; text: string }[] };
		};
		expect(end.message.content[0].text).toBe(`reply ${TRICKY}`);
	});

	it("a lone surrogate from the provider is carried as an escape, never as invalid UTF-8", async () => {
		// The SSE data holds the escape \\ud83d with no pair (as a stream cut inside an emoji leaves it).
		const script = new ChatStream().role().text("smile X").finish("stop").done().script();
		const bytes = Buffer.from(script.bytes.toString("utf8").replace("smile X", "smile \\ud83d"), "utf8");
		sb.fake.enqueue({ ...script, bytes });
		const r = await sb.run(["--mode", "json", "--model", "fake/fake-model", "hi"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("\\ud83d");
		expect(Buffer.from(r.stdout, "utf8").toString("utf8")).toBe(r.stdout);
		const records = r.stdout
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l) as Record<string, unknown>);
		const end = records.filter((x) => x.type === "message_end").at(-1) as {
			message: { content: { text: string }[] };
		};
		expect(end.message.content[0].text).toBe("smile \ud83d");
	});
});
