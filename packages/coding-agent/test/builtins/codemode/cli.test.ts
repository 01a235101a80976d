// builtin:codemode and builtin:tool-search through the built CLI: both load
// by default but stay undeclared until `--tools +name` or `defaultTools`
// names them; `-builtin:x` in settings leaves them out; a script's output
// reaches the model as the tool result.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lateToolFilter, requestedToolNames } from "../../../src/agent-session/tool-selection.js";
import { body, textReply, toolReply, useCliSandbox } from "../../cli/support.js";

describe("which inactive tools --tools / defaultTools activate", () => {
	it.each<[string[] | undefined, unknown, string[]]>([
		[["+codemode"], undefined, ["codemode"]],
		[["read", "codemode"], ["+tool_search"], ["read", "codemode"]],
		[undefined, ["+codemode", "+tool_search"], ["codemode", "tool_search"]],
		[["-codemode"], ["+codemode"], []],
		[["+tool_*"], undefined, []],
	])("--tools %j, defaultTools %j", (tools, defaults, expected) => {
		expect([...requestedToolNames(tools, defaults)].sort()).toEqual(expected.sort());
	});

	it("the late-tool filter says activate only for exactly named tools", () => {
		const filter = lateToolFilter(["+codemode"], ["mcp__bad__*"], undefined);
		expect(filter?.("codemode")).toBe("activate");
		expect(filter?.("tool_search")).toBeUndefined();
		expect(filter?.("mcp__bad__x")).toBe("excluded");
		expect(lateToolFilter(undefined, undefined, ["+codemode"])?.("codemode")).toBe("activate");
		expect(lateToolFilter(undefined, undefined, undefined)).toBeUndefined();
	});
});

const sb = useCliSandbox();

async function toolsSent(args: string[]): Promise<string[]> {
	sb.fake.enqueue(textReply("ok"));
	const r = await sb.run(["-p", "--no-mcp", "--model", "fake/fake-model", ...args, "hi"]);
	expect(r.stderr).toBe("");
	expect(r.code).toBe(0);
	return (body(sb.fake, sb.fake.requests.length - 1).tools ?? []).map((t) => t.function.name);
}

describe("builtin:codemode and builtin:tool-search (built CLI)", () => {
	it("are loaded but not declared unless named", async () => {
		expect(await toolsSent([])).toEqual(["read", "bash", "edit", "write"]);
		expect(await toolsSent(["--tools", "+codemode"])).toEqual(["read", "bash", "edit", "write", "codemode"]);
		expect(await toolsSent(["--tools", "read,tool_search"])).toEqual(["read", "tool_search"]);
	});

	it("defaultTools names them; -builtin:x leaves them out", async () => {
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ defaultTools: ["+codemode", "+tool_search"] }));
		expect(await toolsSent([])).toEqual(["read", "bash", "edit", "write", "codemode", "tool_search"]);
		writeFileSync(
			join(sb.agentDir, "settings.json"),
			JSON.stringify({ defaultTools: ["+codemode", "+tool_search"], extensions: ["-builtin:codemode"] }),
		);
		expect(await toolsSent([])).toEqual(["read", "bash", "edit", "write", "tool_search"]);
	});

	it("a script's output is the tool result the model reads", async () => {
		sb.fake.enqueue(
			toolReply("codemode", {
				code: 'console.log("hello from the sandbox");\nreturn { answer: 6 * 7, process: typeof process };',
			}),
			textReply("done"),
		);
		const r = await sb.run(["-p", "--no-mcp", "--model", "fake/fake-model", "--tools", "+codemode", "go"]);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		const messages = body(sb.fake, 1).messages;
		const toolMessage = messages.find((m) => m.role === "tool");
		const text = JSON.stringify(toolMessage?.content);
		expect(text).toMatch(/Script completed in/);
		expect(text).toMatch(/\\"answer\\": 42/);
		expect(text).toMatch(/\\"process\\": \\"undefined\\"/);
		expect(text).toMatch(/<console_output>\\nhello from the sandbox\\n<\/console_output>/);
	});
});
