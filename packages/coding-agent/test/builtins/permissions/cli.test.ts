// builtin:permissions through the built CLI against the fake provider: each
// mode and rule with scripted tool calls in print mode (anything that would
// ask is denied, and the model reads why), and the dialogs over rpc (allow
// once, deny with a reason, allow for the session).
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, toolReply, useCliSandbox } from "../../cli/support.js";
import { startClient } from "../../rpc/support.js";

const sb = useCliSandbox();

const settings = (s: Record<string, unknown>) => writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify(s));

/** Runs one tool call in print mode; returns what the model read as its result. */
async function printCall(tool: string, args: Record<string, unknown>, extra: string[] = []): Promise<string> {
	sb.fake.enqueue(toolReply(tool, args), textReply("done"));
	const r = await sb.run(["-p", "--no-mcp", "--model", "fake/fake-model", ...extra, "go"]);
	expect(r.code).toBe(0);
	const toolMessage = body(sb.fake, sb.fake.requests.length - 1).messages.find((m) => m.role === "tool");
	return JSON.stringify(toolMessage?.content);
}

describe("builtin:permissions in print mode (built CLI)", () => {
	it("off by default: nothing is asked or denied", async () => {
		await printCall("bash", { command: "echo hi > made.txt" });
		expect(existsSync(join(sb.cwd, "made.txt"))).toBe(true);
	});

	it("ask (--permissions): a command that would ask is denied with a reason naming the way out", async () => {
		const result = await printCall("bash", { command: "echo hi > made.txt" }, ["--permissions", "ask"]);
		expect(existsSync(join(sb.cwd, "made.txt"))).toBe(false);
		expect(result).toMatch(/no one to ask in print mode/);
		expect(result).toMatch(/permissions\.commands\.allow/);
	});

	it("auto-edit (settings): writes in the project run, commands are denied", async () => {
		settings({ permissions: { mode: "auto-edit" } });
		await printCall("write", { path: "a.txt", content: "x" });
		expect(existsSync(join(sb.cwd, "a.txt"))).toBe(true);
		const result = await printCall("bash", { command: "touch b.txt" });
		expect(existsSync(join(sb.cwd, "b.txt"))).toBe(false);
		expect(result).toMatch(/auto-edit asks before commands/);
		// Outside the project a write asks even here, so it is denied.
		const outside = await printCall("write", { path: "../outside.txt", content: "x" });
		expect(existsSync(join(sb.cwd, "..", "outside.txt"))).toBe(false);
		expect(outside).toMatch(/writes outside the project folder/);
	});

	it("read-only: writes denied, read-only commands run", async () => {
		settings({ permissions: { mode: "read-only" } });
		expect(await printCall("write", { path: "a.txt", content: "x" })).toMatch(/read-only: write is not allowed/);
		expect(existsSync(join(sb.cwd, "a.txt"))).toBe(false);
		writeFileSync(join(sb.cwd, "data.txt"), "line\n");
		expect(await printCall("bash", { command: "cat data.txt | wc -l" })).toMatch(/1/);
	});

	it("rules: command allow lets a command run under ask; deny beats full", async () => {
		settings({ permissions: { mode: "ask", commands: { allow: ["touch *"] } } });
		await printCall("bash", { command: "touch ok.txt" });
		expect(existsSync(join(sb.cwd, "ok.txt"))).toBe(true);
		settings({ permissions: { mode: "full", commands: { deny: ["rm *"] }, paths: { deny: ["secret/**"] } } });
		expect(await printCall("bash", { command: "touch x && rm ok.txt" })).toMatch(
			/denied by the permission rule \\"rm \*\\"/,
		);
		expect(existsSync(join(sb.cwd, "ok.txt"))).toBe(true);
		expect(await printCall("write", { path: "secret/k", content: "x" })).toMatch(/denied by the permission rule/);
	});

	it("covers codemode's inner calls the same way", async () => {
		settings({ permissions: { mode: "read-only" } });
		const result = await printCall(
			"codemode",
			{ code: 'const r = await tools.write({ path: "inner.txt", content: "x" });\nreturn r;' },
			["--tools", "+codemode"],
		);
		expect(existsSync(join(sb.cwd, "inner.txt"))).toBe(false);
		expect(result).toMatch(/read-only: write is not allowed/);
	});
});

describe("builtin:permissions over rpc (built CLI)", () => {
	it("asks: allow once, deny with a reason the model reads, allow for the session", async () => {
		settings({ permissions: { mode: "ask" } });
		const client = await startClient(sb, ["--no-mcp"]);
		const answers: string[] = [];
		const titles: string[] = [];
		client.onEvent((e) => {
			if (e.type !== "extension_ui_request") return;
			const req = e as { id: string; method: string; title?: string; options?: string[] };
			if (req.method === "select") {
				titles.push(req.title ?? "");
				const want = answers.shift() ?? "";
				const value = req.options?.find((o) => o.startsWith(want));
				if (value) client.respondToUI({ id: req.id, value });
				else client.respondToUI({ id: req.id, cancelled: true });
			} else if (req.method === "input") client.respondToUI({ id: req.id, value: "use make instead" });
		});
		try {
			answers.push("Allow once");
			sb.fake.enqueue(toolReply("bash", { command: "touch once.txt" }), textReply("ok"));
			await client.promptAndWait("one");
			expect(existsSync(join(sb.cwd, "once.txt"))).toBe(true);
			expect(titles[0]).toBe("Allow bash: touch once.txt?\n(permission mode ask confirms every command)");

			answers.push("Deny with a reason");
			sb.fake.enqueue(toolReply("bash", { command: "touch denied.txt" }), textReply("ok"));
			await client.promptAndWait("two");
			expect(existsSync(join(sb.cwd, "denied.txt"))).toBe(false);
			const denied = JSON.stringify(body(sb.fake, sb.fake.requests.length - 1).messages.at(-1)?.content);
			expect(denied).toMatch(/The user denied bash: touch denied\.txt: use make instead/);

			answers.push("Allow for this session");
			sb.fake.enqueue(toolReply("bash", { command: "touch s1.txt" }), textReply("ok"));
			await client.promptAndWait("three");
			const asked = titles.length;
			sb.fake.enqueue(toolReply("bash", { command: "touch s2.txt" }), textReply("ok"));
			await client.promptAndWait("four");
			expect(titles.slice(asked)).toEqual([]);
			expect(existsSync(join(sb.cwd, "s1.txt")) && existsSync(join(sb.cwd, "s2.txt"))).toBe(true);
		} finally {
			await client.stop();
		}
	});
});
