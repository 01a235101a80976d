// Events an extension receives from the BUILT pi (print and rpc mode, fake
// provider): turnIndex per turn, message_end replacement reaching the session
// file, ctx.executeTool from a tool (hooks with parentToolCallId, nestedCalls
// record), session_before_switch cancelling an RPC new_session, user_bash over
// RPC. The extension logs what it saw to a file the test reads.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../cli/support.js";
import { responseTo, useRpcSandbox } from "../rpc/support.js";

const rpc = useRpcSandbox();
const sb = rpc.sb;

const EXT = `
import { appendFileSync } from "node:fs";
import { Type } from "typebox";
export default function (pi) {
	const log = (line) => appendFileSync(process.env.EVENT_LOG, line + "\\n");
	pi.on("turn_start", (e) => log("turn_start " + e.turnIndex));
	pi.on("turn_end", (e) => { log("turn_end " + e.turnIndex + " " + e.outcome + " " + (e.messageEntryId ? "id" : "noid")); });
	pi.on("message_end", (e) => {
		if (e.message.role !== "assistant") return;
		const text = e.message.content.filter((c) => c.type === "text").map((c) => c.text).join("");
		if (text === "secret answer") return { message: { ...e.message, content: [{ type: "text", text: "[redacted]" }] } };
	});
	pi.on("tool_call", (e) => { log("tool_call " + e.toolName + " " + e.toolCallId + " parent=" + (e.parentToolCallId ?? "-")); });
	pi.on("tool_result", (e) => { if (e.parentToolCallId) log("tool_result " + e.toolCallId); });
	pi.on("session_before_switch", (e) => { log("before_switch " + e.reason); return { cancel: true }; });
	pi.on("user_bash", (e) => ({ result: { output: "handled " + e.command, exitCode: 0, cancelled: false, truncated: false } }));
	pi.registerTool({
		name: "twice",
		label: "Twice",
		description: "Runs bash twice through ctx.executeTool.",
		parameters: Type.Object({}),
		async execute(_id, _p, signal, _u, ctx) {
			const a = await ctx.executeTool("bash", { command: "echo one" }, { signal });
			const b = await ctx.executeTool("missing_tool", {});
			const text = a.result.content.map((c) => c.text).join("") + "|" + b.isError;
			return { content: [{ type: "text", text }], details: {} };
		},
	});
}
`;

function sessionLines(): Record<string, unknown>[] {
	const root = join(sb.agentDir, "sessions");
	const files = existsSync(root)
		? readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => join(root, d, f)))
		: [];
	return files.flatMap((f) =>
		readFileSync(f, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l)),
	);
}

describe("extension events from the built CLI", () => {
	it("print: turnIndex counts turns, executeTool runs nested calls, message_end replaces the recorded answer", async () => {
		const logFile = join(sb.root, "events.log");
		writeFileSync(join(sb.cwd, "ext.ts"), EXT);
		sb.fake.enqueue(toolReply("twice", {}), textReply("secret answer"));
		const r = await sb.run(["-p", "--model", "fake/fake-model", "-e", "ext.ts", "go"], {
			env: { EVENT_LOG: logFile },
		});
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("[redacted]\n");
		const log = readFileSync(logFile, "utf8").trim().split("\n");
		expect(log.filter((l) => l.startsWith("turn_"))).toEqual([
			"turn_start 0",
			"turn_end 0 completed id",
			"turn_start 1",
			"turn_end 1 completed id",
		]);
		const parent = log.find((l) => l.startsWith("tool_call twice"))?.split(" ")[2];
		expect(parent).toBeTruthy();
		expect(log).toContain(`tool_call bash ${parent}/1 parent=${parent}`);
		expect(log).toContain(`tool_result ${parent}/1`);
		// The nested call's output reached the calling tool; the unknown tool came back as an error.
		const toolMessage = JSON.stringify(
			(sb.fake.requests[1].body as { messages: { role: string; content: unknown }[] }).messages.filter(
				(m) => m.role === "tool",
			),
		);
		expect(toolMessage).toContain("one|true");
		const lines = sessionLines();
		const result = lines.find((l) => l.type === "message" && (l.message as { role: string }).role === "toolResult") as {
			message: { nestedCalls: { calls: { name: string; status: string }[] } };
		};
		expect(result.message.nestedCalls.calls.map((c) => [c.name, c.status])).toEqual([
			["bash", "ok"],
			["missing_tool", "error"],
		]);
		expect(JSON.stringify(lines)).not.toContain("secret answer");
		expect(JSON.stringify(lines)).toContain("[redacted]");
	});

	it("rpc: session_before_switch cancels new_session; user_bash answers the bash command", async () => {
		const logFile = join(sb.root, "events.log");
		writeFileSync(join(sb.cwd, "ext.ts"), EXT);
		sb.env.EVENT_LOG = logFile;
		const pi = rpc.spawn(["--no-session", "-e", join(sb.cwd, "ext.ts")]);
		pi.send(`${JSON.stringify({ id: "n1", type: "new_session" })}\n`);
		const n1 = await pi.waitFor(responseTo("n1"), 30_000);
		expect(n1).toMatchObject({ success: true, data: { cancelled: true } });
		pi.send(`${JSON.stringify({ id: "b1", type: "bash", command: "rm -rf /nothing" })}\n`);
		const b1 = await pi.waitFor(responseTo("b1"), 30_000);
		expect(b1).toMatchObject({ success: true, data: { output: "handled rm -rf /nothing", exitCode: 0 } });
		expect(readFileSync(logFile, "utf8")).toContain("before_switch new");
	});

	it("print: before_provider_headers edits the sent headers; provider_stream_event sees the raw chunks", async () => {
		const logFile = join(sb.root, "provider.log");
		writeFileSync(
			join(sb.cwd, "provider-ext.ts"),
			`
import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("before_provider_headers", (e, ctx) => {
		e.headers["x-session-id"] = ctx.sessionManager.getSessionId();
		e.headers["X-Stainless-Lang"] = null;
	});
	pi.on("provider_stream_event", (e) => {
		appendFileSync(process.env.EVENT_LOG, e.provider + " " + e.api + " " + e.model + " " + JSON.stringify(e.data.choices?.[0]?.delta ?? null) + "\\n");
	});
}
`,
		);
		sb.fake.enqueue(textReply("hello"));
		const r = await sb.run(["-p", "--model", "fake/fake-model", "-e", "provider-ext.ts", "go"], {
			env: { EVENT_LOG: logFile },
		});
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("hello\n");
		const sent = sb.fake.requests[0]?.headers ?? {};
		const sessionId = sessionLines().find((l) => l.type === "session")?.id;
		expect(typeof sessionId).toBe("string");
		expect(sent["x-session-id"]).toBe(sessionId);
		expect(sent["x-stainless-lang"]).toBeUndefined();
		const log = readFileSync(logFile, "utf8").trim().split("\n");
		expect(log.length).toBeGreaterThan(0);
		expect(log.every((l) => l.startsWith("fake openai-completions fake-model "))).toBe(true);
		expect(log.some((l) => l.includes('"content":"hello"'))).toBe(true);
	});
});
