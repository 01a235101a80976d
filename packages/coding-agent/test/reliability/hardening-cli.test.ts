// Issue 21 (adversarial probe) cases through the BUILT CLI against the fake provider: many parallel
// tool calls, an aborted edit, a closed stdout in json mode, a deleted cwd, a read-only HOME, a full
// disk at the first session write.
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import type { Script } from "../../../ai/test/support/fake-provider/server.js";
import { spawnPi, textReply } from "../cli/support.js";
import { useRpcSandbox } from "../rpc/support.js";

const MODEL = ["--model", "fake/fake-model"];
const rpc = useRpcSandbox();
const sb = rpc.sb;

/** One assistant turn asking for all these tool calls at once. */
function manyToolCalls(calls: { name: string; args: Record<string, unknown> }[]): Script {
	const s = new ChatStream({ model: "fake-model" }).role();
	calls.forEach((c, i) => {
		s.toolCall(i, `call_${i}`, c.name, [JSON.stringify(c.args)]);
	});
	return s.finish("tool_calls").usage({ prompt_tokens: 60, completion_tokens: 10 }).done().script();
}

describe("many parallel tool calls", () => {
	it("200 tool calls in one turn run without a MaxListenersExceededWarning", async () => {
		writeFileSync(join(sb.cwd, "a.txt"), "alpha\nbeta\n");
		mkdirSync(join(sb.cwd, "sub"));
		const read = { name: "read", args: { path: "a.txt" } };
		const ls = { name: "ls", args: { path: "." } };
		// Every tool listens on its signal; processes (bash, rg/fd or the search worker) kept to 20 each.
		const kinds = [
			read,
			ls,
			{ name: "bash", args: { command: "echo hi" } },
			read,
			ls,
			{ name: "grep", args: { pattern: "beta" } },
			read,
			ls,
			{ name: "find", args: { pattern: "*.txt" } },
			read,
		];
		const calls = Array.from({ length: 200 }, (_, i) => kinds[i % kinds.length]);
		sb.fake.enqueue(manyToolCalls(calls), textReply("all done"));
		const r = await sb.run(["-p", ...MODEL, "--tools", "read,bash,grep,ls,find", "go"]);
		expect(r.stderr).not.toContain("MaxListenersExceededWarning");
		expect(r.stderr).not.toContain("memory leak");
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("all done");
		const second = sb.fake.requests[1]?.body as { messages: { role: string }[] };
		expect(second.messages.filter((m) => m.role === "tool")).toHaveLength(200);
	}, 120_000);
});

/** Every session file under the sandbox's agent dir, parsed. */
function sessionEntries(): Record<string, unknown>[] {
	const out: Record<string, unknown>[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith(".jsonl")) {
				for (const line of readFileSync(path, "utf8").split("\n")) if (line) out.push(JSON.parse(line));
			}
		}
	};
	walk(sb.agentDir);
	return out;
}

function assistantTexts(entries: Record<string, unknown>[]): string[] {
	const texts: string[] = [];
	for (const e of entries) {
		const m = e.message as { role?: string; content?: { type: string; text?: string }[] } | undefined;
		if (e.type === "message" && m?.role === "assistant") {
			texts.push((m.content ?? []).map((b) => b.text ?? "").join(""));
		}
	}
	return texts;
}

describe("json mode with a reader that goes away", () => {
	it("stdout closed after the first line (| head -1): no crash, the answer is still saved in the session", async () => {
		const answer = Array.from({ length: 40 }, (_, i) => `word${i} `);
		sb.fake.enqueue(
			new ChatStream({ model: "fake-model" })
				.role()
				.text(...answer)
				.finish("stop")
				.usage({ prompt_tokens: 5, completion_tokens: 40 })
				.done()
				.script({ chunkSize: 60, delayMs: 10 }),
		);
		const { child, stderr } = spawnPi(sb, ["--mode", "json", ...MODEL, "hi"]);
		// Like `head -1`: read the first line, then close the pipe.
		child.stdout.once("data", () => child.stdout.destroy());
		const [code] = (await once(child, "exit")) as [number | null];
		expect(stderr()).not.toContain("EPIPE");
		expect(stderr()).not.toMatch(/at .*\.js:\d+/); // no stack trace
		expect(code).toBe(0);
		expect(assistantTexts(sessionEntries())).toEqual([answer.join("")]);
	}, 60_000);

	it("print mode: a closed stdout does not crash before the answer is saved", async () => {
		sb.fake.enqueue(textReply("saved anyway"));
		const { child, stderr } = spawnPi(sb, ["-p", ...MODEL, "hi"]);
		child.stdout.destroy();
		await once(child, "exit");
		expect(stderr()).not.toContain("EPIPE");
		expect(assistantTexts(sessionEntries())).toEqual(["saved anyway"]);
	}, 60_000);
});

describe("an edit that is aborted or cannot read its file lets the process exit", () => {
	it("rpc: edit of a FIFO with no writer, then abort and end of stdin: the process exits by itself", async () => {
		const fifo = join(sb.cwd, "pipe");
		expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
		sb.fake.enqueue(
			manyToolCalls([{ name: "edit", args: { path: "pipe", edits: [{ oldText: "a", newText: "b" }] } }]),
			new ChatStream({ model: "fake-model" }).role().text("done").finish("stop").done().script({ hangAfterBytes: 0 }),
		);
		const pi = rpc.spawn(["--no-session"]);
		pi.send(`${JSON.stringify({ id: "1", type: "prompt", message: "edit the pipe" })}\n`);
		const end = (await pi.waitFor((r) => r.type === "tool_execution_end", 30_000)) as {
			result: { content: { text: string }[] };
			isError: boolean;
		};
		expect(end.isError).toBe(true);
		expect(end.result.content[0]?.text).toMatch(/FIFO|not a regular file/i);
		// The next request hangs on the provider: abort it, then close stdin. Nothing may keep
		// the process alive (no thread blocked in an open() of the FIFO, no pending read); one that
		// does not exit is killed and fails the test in useRpcSandbox's clean-up.
		pi.send(`${JSON.stringify({ id: "2", type: "abort" })}\n`);
		await pi.waitFor((r) => r.type === "agent_settled", 30_000);
		expect(await pi.end()).toBe(0);
	}, 90_000);
});
