// Issue 21 (adversarial probe) cases through the BUILT CLI against the fake provider: many parallel
// tool calls, an aborted edit, a closed stdout in json mode, a deleted cwd, a read-only HOME, a full
// disk at the first session write.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import type { Script } from "../../../ai/test/support/fake-provider/server.js";
import { assertBuilt, createSandbox, type Sandbox, textReply } from "../cli/support.js";

const MODEL = ["--model", "fake/fake-model"];
let sb: Sandbox;

beforeAll(assertBuilt);
beforeEach(async () => {
	sb = await createSandbox();
});
afterEach(async () => {
	await sb.close();
});

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
		const kinds = [
			{ name: "read", args: { path: "a.txt" } },
			{ name: "bash", args: { command: "echo hi" } },
			{ name: "grep", args: { pattern: "beta" } },
			{ name: "ls", args: { path: "." } },
			{ name: "find", args: { pattern: "*.txt" } },
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
