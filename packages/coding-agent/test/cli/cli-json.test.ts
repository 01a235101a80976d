// `pi --mode json`: the session header, then every session event as one JSON line, in order.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, toolReply, useCliSandbox } from "./support.js";

/** Not on this machine, so a provider there counts as configured only with a key. */
const REMOTE_URL = "https://llm.example.invalid/v1";

const sb = useCliSandbox();

describe("pi --mode json", () => {
	it("writes the header then every event as a JSON line, in order", async () => {
		writeFileSync(join(sb.cwd, "a.txt"), "alpha\n");
		sb.fake.enqueue(toolReply("read", { path: "a.txt" }), textReply("It says alpha."));
		const r = await sb.run(["--mode", "json", "-p", "--model", "fake/fake-model", "read a.txt"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toBe("");
		expect(r.stdout.endsWith("\n")).toBe(true);
		const lines = r.stdout
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(lines[0]).toMatchObject({ type: "session", version: 3, cwd: sb.cwd });
		expect(typeof lines[0].id).toBe("string");
		const kinds = lines.slice(1).map((e) => {
			if (e.type === "message_update") return `update:${e.assistantMessageEvent.type}`;
			if (e.type === "message_start" || e.type === "message_end") return `${e.type}:${e.message.role}`;
			return e.type;
		});
		const collapsed = kinds.filter((k: string, i: number) => !(k.endsWith("_delta") && kinds[i - 1] === k));
		expect(collapsed).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"update:toolcall_start",
			"update:toolcall_delta",
			"update:toolcall_end",
			// builtin:checkpoints' snapshot before the prompt runs beside the request; it is recorded
			// (pi.appendEntry, announced) before the reply is.
			"entry_appended",
			"message_end:assistant",
			"tool_execution_start",
			"tool_execution_end",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"update:text_start",
			"update:text_delta",
			"update:text_end",
			"message_end:assistant",
			"turn_end",
			"agent_end",
			"agent_settled",
		]);
		expect(lines.find((e) => e.type === "entry_appended").entry).toMatchObject({
			type: "custom",
			customType: "checkpoint",
			data: { reason: "start" },
		});
		const end = lines.find((e) => e.type === "agent_end");
		expect(end.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		const toolEnd = lines.find((e) => e.type === "tool_execution_end");
		expect(toolEnd).toMatchObject({ toolName: "read", isError: false });
		expect(JSON.stringify(toolEnd.result)).toContain("alpha");
	});

	it("the assistant message_start line has empty content; the answer comes with message_end", async () => {
		sb.fake.enqueue(textReply("The final answer."));
		const r = await sb.run(["--mode", "json", "-p", "--model", "fake/fake-model", "hi"]);
		expect(r.code).toBe(0);
		const lines = r.stdout
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l));
		const start = lines.find((e) => e.type === "message_start" && e.message.role === "assistant");
		const end = lines.find((e) => e.type === "message_end" && e.message.role === "assistant");
		expect(start.message.content).toEqual([]);
		expect(end.message.content).toEqual([{ type: "text", text: "The final answer." }]);
	});

	it("prints the header, then the error, and exits 1 without a key", async () => {
		sb.writeModels({ apiKey: undefined, baseUrl: REMOTE_URL }); // a server elsewhere needs a key
		const r = await sb.run(["--mode", "json", "--model", "fake/fake-model", "hi"]);
		expect(r.code).toBe(1);
		const lines = r.stdout.trimEnd().split("\n");
		expect(lines).toHaveLength(1);
		expect(JSON.parse(lines[0]).type).toBe("session");
		expect(r.stderr).toMatch(/^No API key found for fake\./);
	});
});
