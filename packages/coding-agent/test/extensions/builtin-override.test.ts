// An extension tool named like a built-in replaces it (BUILT CLI, fake
// provider). `read` is a core tool: replaced silently. `codemode` and
// `tool_search` come from bundled extensions (builtin:codemode,
// builtin:tool-search): registering one of those names leaves that built-in
// extension out entirely, with a warning naming both (as 1.6.0 does, checked
// against its CLI with this scenario). The same holds for `/mcp` and
// builtin:mcp. Build first.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, toolReply, useCliSandbox } from "../cli/support.js";

const MODEL = ["--model", "fake/fake-model"];

const sb = useCliSandbox();

/** An extension registering tools `names` (each answers "MINE <name>"); `extra` goes into the factory. */
function writeExtension(file: string, names: string[], options: { defaultActive?: boolean; extra?: string } = {}) {
	const path = join(sb.cwd, file);
	const active = options.defaultActive === false ? "defaultActive: false, " : "";
	writeFileSync(
		path,
		`import { Type } from "typebox";
export default function (pi) {
	for (const name of ${JSON.stringify(names)}) {
		pi.registerTool({ name, label: name, description: "mine " + name, ${active}parameters: Type.Object({}),
			execute: async () => ({ content: [{ type: "text", text: "MINE " + name }], details: {} }) });
	}
	${options.extra ?? ""}
}
`,
	);
	return path;
}

/** Declared tools of request `i`: name → description. */
const declared = (i: number) =>
	Object.fromEntries(
		(body(sb.fake, i).tools ?? []).map((t) => [
			t.function.name,
			(t.function as { description?: string }).description ?? "",
		]),
	);

const toolResults = (i: number) =>
	body(sb.fake, i)
		.messages.filter((m) => m.role === "tool")
		.map((m) => JSON.stringify(m.content));

const replacedWarning = (path: string, what: string, builtin: string) =>
	`Warning: Extension ${path} registers ${what}, so the built-in extension ${builtin} was not loaded.`;

describe("an extension tool named like a built-in replaces it (built CLI)", () => {
	it("codemode, tool_search and read: the extension's tools are declared and run; the built-in extensions are left out with a warning", async () => {
		const ext = writeExtension("mine.ts", ["codemode", "tool_search", "read"]);
		sb.fake.enqueue(toolReply("codemode", {}), toolReply("tool_search", {}), toolReply("read", {}), textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", ext, "hi"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("ok\n");
		// Registration activates a tool (no defaultActive: false), as for any extension tool.
		expect(declared(0)).toMatchObject({
			codemode: "mine codemode",
			tool_search: "mine tool_search",
			read: "mine read",
		});
		expect(toolResults(3)).toEqual(['"MINE codemode"', '"MINE tool_search"', '"MINE read"']);
		const warnings = r.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
		expect(warnings).toHaveLength(2);
		expect(warnings[0]).toContain(replacedWarning(ext, "tool `codemode`", "builtin:codemode"));
		expect(warnings[1]).toContain(replacedWarning(ext, "tool `tool_search`", "builtin:tool-search"));
		// No conflict between the two registrations: the built-in never took part (`read` is silent).
		expect(r.stderr).not.toContain("registered by both");
	});

	it("a replacing codemode registered inactive is activated by --tools +codemode, and the built-in's loadout shaping is gone", async () => {
		const ext = writeExtension("lazy.ts", ["codemode"], { defaultActive: false });
		sb.fake.enqueue(textReply("one"), textReply("two"));
		const off = await sb.run(["-p", ...MODEL, "-e", ext, "hi"]);
		expect(off.code).toBe(0);
		expect(Object.keys(declared(0))).not.toContain("codemode");
		const on = await sb.run(["-p", ...MODEL, "--tools", "+codemode", "-e", ext, "hi"]);
		expect(on.code).toBe(0);
		expect(declared(1).codemode).toBe("mine codemode");
		// builtin:codemode, when active, appends codemode hints to the other tools' descriptions.
		expect(declared(1).read).not.toContain("codemode");
		expect(on.stderr).toContain(replacedWarning(ext, "tool `codemode`", "builtin:codemode"));
	});

	it("without a replacement the built-ins load: +codemode declares the built-in codemode, and nothing is reported", async () => {
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "--tools", "+codemode,+tool_search", "hi"]);
		expect(r.code).toBe(0);
		expect(declared(0).codemode).toMatch(/^Run a JavaScript script/);
		expect(declared(0).tool_search).toBeDefined();
		expect(declared(0).tool_search).not.toContain("mine");
		expect(r.stderr).not.toContain("Warning:");
	});

	it("registered later, in session_start: the built-ins leave then, with the same warnings, and the extension's tools run", async () => {
		// --tools +codemode: the built-in codemode is active (and shapes other tools' descriptions) until replaced.
		const ext = writeExtension("late.ts", [], {
			extra: `pi.on("session_start", () => {
		for (const name of ["codemode", "tool_search"]) {
			pi.registerTool({ name, label: name, description: "late " + name, parameters: Type.Object({}),
				execute: async () => ({ content: [{ type: "text", text: "LATE " + name }], details: {} }) });
		}
	});`,
		});
		sb.fake.enqueue(toolReply("codemode", {}), toolReply("tool_search", {}), textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "--tools", "+codemode", "-e", ext, "hi"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("ok\n");
		expect(declared(0)).toMatchObject({ codemode: "late codemode", tool_search: "late tool_search" });
		// builtin:codemode's loadout shaping (codemode hints in other tools' descriptions) left with it.
		expect(declared(0).read).not.toContain("codemode");
		expect(toolResults(2)).toEqual(['"LATE codemode"', '"LATE tool_search"']);
		const warnings = r.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
		expect(warnings).toHaveLength(2);
		expect(warnings[0]).toContain(replacedWarning(ext, "tool `codemode`", "builtin:codemode"));
		expect(warnings[1]).toContain(replacedWarning(ext, "tool `tool_search`", "builtin:tool-search"));
		expect(r.stderr).not.toContain("registered by both");
	});

	it("registered at run time by a command (pi.registerTool), the next request declares and runs the extension's codemode", async () => {
		const ext = writeExtension("cmd.ts", [], {
			extra: `pi.registerCommand("swap", { handler: async () => {
		pi.registerTool({ name: "codemode", label: "codemode", description: "swapped codemode", parameters: Type.Object({}),
			execute: async () => ({ content: [{ type: "text", text: "SWAPPED" }], details: {} }) });
	} });`,
		});
		sb.fake.enqueue(textReply("before"), toolReply("codemode", {}), textReply("after"));
		const r = await sb.run(["-p", ...MODEL, "--tools", "+codemode", "-e", ext, "hi", "/swap", "again"]);
		expect(r.code).toBe(0);
		// Before the command the built-in answered; after it the extension's tool is declared and called.
		expect(declared(0).codemode).toMatch(/^Run a JavaScript script/);
		expect(declared(1).codemode).toBe("swapped codemode");
		expect(declared(1).read).not.toContain("codemode");
		expect(toolResults(2)).toEqual(['"SWAPPED"']);
		const warnings = r.stderr.split("\n").filter((l) => l.startsWith("Warning:"));
		expect(warnings).toEqual([expect.stringContaining(replacedWarning(ext, "tool `codemode`", "builtin:codemode"))]);
	});

	it("an extension registering /mcp leaves builtin:mcp out with the same warning", async () => {
		const ext = writeExtension("mcp.ts", [], { extra: `pi.registerCommand("mcp", { handler: async () => {} });` });
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", ext, "hi"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain(replacedWarning(ext, "command `/mcp`", "builtin:mcp"));
	});
});
