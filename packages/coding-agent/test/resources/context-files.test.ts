import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ancestorsRootFirst, loadContextFiles } from "../../src/resources/context-files.js";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-ctx-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("context files", () => {
	it("lists ancestors from the root down to cwd", () => {
		expect(ancestorsRootFirst("/a/b/c")).toEqual(["/", "/a", "/a/b", "/a/b/c"]);
	});

	it("global first, then root → cwd, one file per dir with AGENTS.md before CLAUDE.md", () => {
		const agent = join(root, "agent");
		const cwd = join(root, "p", "sub", "deep");
		mkdirSync(agent, { recursive: true });
		mkdirSync(cwd, { recursive: true });
		writeFileSync(join(agent, "CLAUDE.md"), "global");
		writeFileSync(join(root, "AGENTS.md"), "top");
		writeFileSync(join(root, "p", "CLAUDE.md"), "p-claude");
		writeFileSync(join(root, "p", "sub", "AGENTS.md"), "sub-agents");
		writeFileSync(join(root, "p", "sub", "CLAUDE.md"), "sub-claude (ignored)");
		writeFileSync(join(cwd, "AGENTS.MD"), "deep-upper");
		mkdirSync(join(root, "p", "sub", "deep", "AGENTS.md"), { recursive: true }); // a directory is not a file
		const files = loadContextFiles({ cwd, agentDir: agent });
		expect(files).toEqual([
			{ path: join(agent, "CLAUDE.md"), content: "global" },
			{ path: join(root, "AGENTS.md"), content: "top" },
			{ path: join(root, "p", "CLAUDE.md"), content: "p-claude" },
			{ path: join(root, "p", "sub", "AGENTS.md"), content: "sub-agents" },
			{ path: join(cwd, "AGENTS.MD"), content: "deep-upper" },
		]);
	});

	it("does not list a file twice when the agent dir is also an ancestor", () => {
		writeFileSync(join(root, "AGENTS.md"), "x");
		const cwd = join(root, "w");
		mkdirSync(cwd);
		expect(loadContextFiles({ cwd, agentDir: root }).map((f) => f.path)).toEqual([join(root, "AGENTS.md")]);
	});
});
