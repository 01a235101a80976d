// An extension provider whose custom stream fails (streamSimple throws before
// returning a stream, the stream throws midway, or it ends without a done or
// error event) gives an error reply naming the provider and the extension
// file; the session file keeps everything saved before it and the next prompt
// works. Print mode (one process per prompt, resumed with --session) and rpc
// (one process, three prompts). The BUILT pi runs. Build first.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { useRpcSandbox } from "../rpc/support.js";

const BROKEN = resolve(__dirname, "../fixtures/extensions/providers/broken-wire.ts");
const MODEL = ["--model", "broken/b1"];

interface Entry {
	type: string;
	message?: { role: string; content: { type: string; text?: string }[]; stopReason?: string; errorMessage?: string };
}

function entries(file: string): Entry[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as Entry);
}

/** user / assistant turns of a session file as short strings: `user:hello`, `assistant:wire ok: hello`, `error:…`. */
function turns(file: string): string[] {
	return entries(file)
		.filter((e) => e.type === "message" && (e.message?.role === "user" || e.message?.role === "assistant"))
		.map((e) => {
			const m = e.message as NonNullable<Entry["message"]>;
			if (m.stopReason === "error") return `error:${m.errorMessage}`;
			return `${m.role}:${m.content.map((c) => c.text ?? "").join("")}`;
		});
}

const failures = [
	{ prompt: "throw", says: `The stream of provider "broken" failed: the broken wire refused to start (${BROKEN})` },
	{ prompt: "midway", says: `The stream of provider "broken" failed: the broken wire snapped mid-stream (${BROKEN})` },
	{ prompt: "noend", says: `The stream of provider "broken" ended without a done or error event (${BROKEN})` },
];

const rpc = useRpcSandbox();

describe("an extension provider's failing stream (built CLI)", () => {
	it("print: each failure is an error naming the extension (exit 1); the session keeps what came before; the next prompt works", async () => {
		const file = join(rpc.sb.root, "s.jsonl");
		const run = (prompt: string) => rpc.sb.run(["-e", BROKEN, ...MODEL, "--session", file, "-p", prompt]);
		const first = await run("hello");
		expect(first.stdout).toBe("wire ok: hello\n");
		expect(first.code).toBe(0);
		const expected = ["user:hello", "assistant:wire ok: hello"];
		for (const { prompt, says } of failures) {
			const r = await run(prompt);
			expect(r.code).toBe(1);
			expect(r.stdout).toBe("");
			expect(r.stderr).toContain(says);
			expected.push(`user:${prompt}`, `error:${says}`);
			// Nothing saved before the failure is lost; the failed turn is recorded as an error reply.
			expect(turns(file)).toEqual(expected);
		}
		const next = await run("again");
		expect(next.stderr).not.toContain("failed");
		expect(next.stdout).toBe("wire ok: again\n");
		expect(next.code).toBe(0);
		expect(turns(file)).toEqual([...expected, "user:again", "assistant:wire ok: again"]);
	}, 120_000);

	it("rpc: the prompts that fail end with the error (agent_end), the process goes on, the next prompt is answered", async () => {
		const file = join(rpc.sb.root, "rpc.jsonl");
		const p = rpc.spawn(["-e", BROKEN, ...MODEL, "--session", file]);
		const prompt = async (message: string) => {
			const before = p.records.length;
			const response = await p.call({ type: "prompt", message });
			expect(response.success).toBe(true);
			const end = await p.waitFor((r) => r.type === "agent_end" && p.records.indexOf(r) >= before, 30_000);
			const messages = end.messages as { role: string; stopReason?: string; errorMessage?: string }[];
			return messages.filter((m) => m.role === "assistant").at(-1);
		};
		expect(await prompt("hello")).toMatchObject({ stopReason: "stop" });
		for (const { prompt: text, says } of failures) {
			expect(await prompt(text)).toMatchObject({ stopReason: "error", errorMessage: says });
		}
		const last = (await prompt("again")) as { content?: { text?: string }[] };
		expect(last.content?.map((c) => c.text).join("")).toBe("wire ok: again");
		expect(turns(file)).toEqual([
			"user:hello",
			"assistant:wire ok: hello",
			...failures.flatMap((f) => [`user:${f.prompt}`, `error:${f.says}`]),
			"user:again",
			"assistant:wire ok: again",
		]);
		expect(p.child.exitCode).toBeNull();
	}, 120_000);
});
