// Tools run their file-system and process work through `operations`, so an
// extension can run them elsewhere (ssh, a container). Here the "elsewhere" is
// an in-memory file map and a fake shell: nothing may touch the real disk.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBashTool } from "../../src/tools/bash.js";
import { createEditTool } from "../../src/tools/edit.js";
import { createFindTool } from "../../src/tools/find.js";
import { createGrepTool } from "../../src/tools/grep.js";
import { createLsTool } from "../../src/tools/ls.js";
import type { FindQuery, GrepQuery } from "../../src/tools/search/types.js";
import { run, runError, tempDir, text } from "./helpers.js";

describe("tool operations", () => {
	it("edit reads, checks and writes through its operations only", async () => {
		const cwd = tempDir();
		const files = new Map<string, string>([[join(cwd, "remote.txt"), "one\ntwo\n"]]);
		const tool = createEditTool(cwd, {
			operations: {
				readFile: async (p) => {
					const c = files.get(p);
					if (c === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
					return Buffer.from(c);
				},
				writeFile: async (p, content) => {
					files.set(p, content);
				},
				access: async (p) => {
					if (!files.has(p)) throw Object.assign(new Error("missing"), { code: "ENOENT" });
				},
			},
		});
		await run(tool, { path: "remote.txt", edits: [{ oldText: "two", newText: "TWO" }] });
		expect(files.get(join(cwd, "remote.txt"))).toBe("one\nTWO\n");
		expect(existsSync(join(cwd, "remote.txt"))).toBe(false);
		expect(await runError(tool, { path: "absent.txt", edits: [{ oldText: "a", newText: "b" }] })).toContain(
			"absent.txt",
		);
	});

	it("bash runs the command through exec, streaming its output and reporting its exit code", async () => {
		const cwd = tempDir();
		const seen: { command: string; cwd: string }[] = [];
		const tool = createBashTool(cwd, {
			operations: {
				exec: async (command, where, { onData }) => {
					seen.push({ command, cwd: where });
					onData(Buffer.from("remote says hi\n"));
					return { exitCode: command.includes("fail") ? 3 : 0 };
				},
			},
		});
		expect(text(await run(tool, { command: "echo hi" }))).toBe("remote says hi");
		expect(await runError(tool, { command: "fail now" })).toContain("exited with code 3");
		expect(seen).toEqual([
			{ command: "echo hi", cwd },
			{ command: "fail now", cwd },
		]);
	});

	it("ls lists what its operations report", async () => {
		const cwd = tempDir();
		const tree: Record<string, string[]> = { [cwd]: ["b.txt", "A", ".hidden"] };
		const tool = createLsTool(cwd, {
			operations: {
				exists: (p) => p in tree || p === join(cwd, "A"),
				stat: (p) => ({ isDirectory: () => p in tree || p === join(cwd, "A") }),
				readdir: (p) => tree[p] ?? [],
			},
		});
		expect(text(await run(tool, {}))).toBe(".hidden\nA/\nb.txt");
	});

	// A root that does not exist here: any local file-system access would fail or find nothing.
	const remote = "/remote-only/project";

	it("grep checks the path, searches and reads context lines through its operations only", async () => {
		const files = new Map<string, string>([[`${remote}/src/a.ts`, "one\nneedle here\nthree\nfour\n"]]);
		const queries: GrepQuery[] = [];
		const tool = createGrepTool(remote, {
			engine: "js",
			operations: {
				isDirectory: (p) => {
					if (p === remote) return true;
					if (files.has(p)) return false;
					throw new Error("missing");
				},
				readFile: (p) => {
					const c = files.get(p);
					if (c === undefined) throw new Error("missing");
					return c;
				},
				search: async (q) => {
					queries.push(q);
					return [{ rel: "src/a.ts", line: 2, text: "needle here" }];
				},
			},
		});
		expect(text(await run(tool, { pattern: "needle", context: 1, glob: "*.ts" }))).toBe(
			"src/a.ts-1- one\nsrc/a.ts:2: needle here\nsrc/a.ts-3- three",
		);
		expect(queries).toHaveLength(1);
		expect(queries[0]).toMatchObject({
			target: remote,
			targetIsFile: false,
			pattern: "needle",
			literal: false,
			ignoreCase: false,
			glob: "*.ts",
			maxMatches: 101,
		});
		expect(await runError(tool, { pattern: "x", path: "absent" })).toBe(`Path not found: ${remote}/absent`);
		expect(queries).toHaveLength(1);
	});

	it("find checks the root and lists what its operations' search returns", async () => {
		const queries: FindQuery[] = [];
		const tool = createFindTool(remote, {
			engine: "js",
			operations: {
				exists: (p) => p === remote || p === `${remote}/src`,
				search: async (q) => {
					queries.push(q);
					return q.root === remote ? ["src/", "src/a.ts", "src/b.ts"] : ["a.ts"];
				},
			},
		});
		expect(text(await run(tool, { pattern: "*.ts" }))).toBe("src/\nsrc/a.ts\nsrc/b.ts");
		expect(text(await run(tool, { pattern: "a*", path: "src" }))).toBe("a.ts");
		expect(queries.map(({ root, pattern }) => ({ root, pattern }))).toEqual([
			{ root: remote, pattern: "*.ts" },
			{ root: `${remote}/src`, pattern: "a*" },
		]);
		expect(await runError(tool, { pattern: "*", path: "absent" })).toBe(`Path not found: ${remote}/absent`);
		expect(queries).toHaveLength(2);
	});
});
