// --tools / --exclude-tools as documented (1.x): `+x`/`-x` edit the defaults,
// `*` patterns match tool names, --exclude-tools patterns apply last.
import { describe, expect, it } from "vitest";
import { matchesToolPattern, selectToolNames } from "../../src/agent-session/tool-selection.js";
import { body, textReply, useCliSandbox } from "./support.js";

const known = ["read", "bash", "edit", "write", "grep", "find", "ls"];
const defaults = ["read", "bash", "edit", "write"];

describe("selectToolNames", () => {
	it.each<[string[] | undefined, string[] | undefined, string[]]>([
		[undefined, undefined, ["read", "bash", "edit", "write"]],
		[["+grep", "-write"], undefined, ["read", "bash", "edit", "grep"]],
		[["read", "grep"], undefined, ["read", "grep"]],
		[["read", "+ls"], undefined, ["read", "ls"]],
		[["*"], undefined, known],
		[["f*", "l*"], undefined, ["find", "ls"]],
		[["+*"], ["w*", "e*"], ["read", "bash", "grep", "find", "ls"]],
		[undefined, ["w*"], ["read", "bash", "edit"]],
		[["-*", "+read"], undefined, ["read"]],
		[["nonexistent"], undefined, []],
	])("--tools %j --exclude-tools %j", (tools, excludeTools, expected) => {
		expect(selectToolNames({ tools, excludeTools, known, defaults })).toEqual(expected);
	});

	it("patterns: * is any run of characters, other characters are literal", () => {
		expect(matchesToolPattern("mcp__*", "mcp__radius__x")).toBe(true);
		expect(matchesToolPattern("a.c", "abc")).toBe(false);
		expect(matchesToolPattern("*", "")).toBe(true);
		expect(matchesToolPattern("read", "read2")).toBe(false);
	});
});

const sb = useCliSandbox();

async function toolsSent(args: string[]): Promise<string[]> {
	sb.fake.enqueue(textReply("ok"));
	const r = await sb.run(["-p", "--model", "fake/fake-model", ...args, "hi"]);
	expect(r.stderr).toBe("");
	expect(r.code).toBe(0);
	return (body(sb.fake, 0).tools ?? []).map((t) => t.function.name);
}

describe("pi --tools / --exclude-tools (built CLI)", () => {
	it("--tools +grep,-write adds grep and removes write from the defaults", async () => {
		expect(await toolsSent(["--tools", "+grep,-write"])).toEqual(["read", "bash", "edit", "grep"]);
	});

	it("--exclude-tools 'w*' removes write", async () => {
		expect(await toolsSent(["--exclude-tools", "w*"])).toEqual(["read", "bash", "edit"]);
	});
});
