// builtin:checkpoints in-process, with real git and real files: checkpoints
// land on the branch as custom entries, /tree restores each branch to its own
// state, a file edited outside pi is reported and left alone, and /rewind
// restores (and undoes a restore).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isOnCurrentBranch } from "../../../src/builtins/checkpoints/entries.js";
import { CHOICE_KEEP, CHOICE_OVERWRITE, CHOICE_RESTORE } from "../../../src/builtins/checkpoints/flow.js";
import { createCheckpointsExtension } from "../../../src/builtins/checkpoints/index.js";
import { SessionManager } from "../../../src/session/session-manager.js";
import { user } from "../../session/helpers.js";
import { fingerprint, makeProject, sessionIn } from "./support.js";

let root: string;
let cwd: string;
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-cp-"));
	cwd = makeProject(root);
	process.env.PI_CODING_AGENT_DIR = join(root, "agent");
});
afterEach(() => {
	if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
	else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
	rmSync(root, { recursive: true, force: true });
});

const checkpointEntries = (entries: { type: string; customType?: string }[]) =>
	entries.filter((e) => e.type === "custom" && e.customType === "checkpoint");

const CHANGES =
	"rm b.txt && mkdir -p d/e && printf 'x\\000y' > d/e/new.bin && chmod -x run.sh && mv img.bin img2.bin && echo made";

describe("builtin:checkpoints (in-process)", () => {
	it("edit → bash that deletes and creates files → /tree back → restore: byte-identical, modes included", async () => {
		const before = fingerprint(cwd);
		let answered = "";
		const s = await sessionIn(
			cwd,
			{ "builtin:checkpoints": createCheckpointsExtension() },
			(method, title, options) => {
				answered = title;
				if (method === "select" && options.includes(CHOICE_RESTORE)) return CHOICE_RESTORE;
				return undefined;
			},
		);
		s.fake.enqueue(
			{ toolCalls: [{ name: "edit", args: { path: "a.txt", edits: [{ oldText: "one", newText: "two" }] } }] },
			{ toolCalls: [{ name: "bash", args: { command: CHANGES } }] },
			{ text: "done" },
		);
		await s.session.prompt("change things");
		const changed = fingerprint(cwd);
		expect(changed).not.toEqual(before);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("two\n");

		const cps = checkpointEntries(s.sessionManager.getEntries());
		expect(cps.length).toBeGreaterThanOrEqual(3); // start, before bash, after the turn(s)
		// The store lives under the agent dir, never in the project.
		expect(existsSync(join(root, "agent", "checkpoints"))).toBe(true);
		expect(existsSync(join(cwd, ".git"))).toBe(false);

		const firstUser = s.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
		const result = await s.session.navigateTree(firstUser?.id ?? "", {});
		expect(result.cancelled).toBe(false);
		expect(answered).toMatch(/would change/);
		expect(answered).toMatch(/delete +d\/e\/new\.bin/);
		expect(fingerprint(cwd)).toEqual(before);
		expect(s.errors).toEqual([]);
		// The restore is recorded on the new branch with its undo.
		const last = checkpointEntries(s.sessionManager.getBranch()).at(-1) as {
			data?: { reason?: string; undo?: string };
		};
		expect(last.data?.reason).toBe("restore");
		expect(last.data?.undo).toMatch(/^[0-9a-f]{40}$/);
	});

	it("branches A and B each restore to their own state", async () => {
		let choice = CHOICE_RESTORE;
		const s = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension() }, (method, _t, options) =>
			method === "select" && options.includes(choice) ? choice : undefined,
		);
		s.fake.enqueue({ toolCalls: [{ name: "write", args: { path: "a.txt", content: "branch A\n" } }] }, { text: "A" });
		await s.session.prompt("make A");
		const stateA = fingerprint(cwd);
		const leafA = s.sessionManager.getLeafId() ?? "";
		const firstUser = s.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");

		await s.session.navigateTree(firstUser?.id ?? "", {});
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
		s.fake.enqueue(
			{ toolCalls: [{ name: "bash", args: { command: "echo 'branch B' > a.txt && echo extra > c.txt" } }] },
			{ text: "B" },
		);
		await s.session.prompt("make B");
		const stateB = fingerprint(cwd);
		const leafB = s.sessionManager.getLeafId() ?? "";
		expect(stateB).not.toEqual(stateA);

		await s.session.navigateTree(leafA, {});
		expect(fingerprint(cwd)).toEqual(stateA);
		await s.session.navigateTree(leafB, {});
		expect(fingerprint(cwd)).toEqual(stateB);
		// Keeping the files moves the conversation only.
		choice = CHOICE_KEEP;
		await s.session.navigateTree(leafA, {});
		expect(fingerprint(cwd)).toEqual(stateB);
	});

	it("a file edited outside pi meanwhile is named and left alone, unless the user overwrites", async () => {
		let choice = CHOICE_RESTORE;
		const s = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension() }, (method, _t, options) =>
			method === "select" && options.includes(CHOICE_RESTORE) ? choice : undefined,
		);
		s.fake.enqueue(
			{
				toolCalls: [
					{ name: "write", args: { path: "a.txt", content: "agent\n" } },
					{ name: "write", args: { path: "b.txt", content: "agent b\n" } },
				],
			},
			{ text: "ok" },
		);
		await s.session.prompt("write");
		// The user edits b.txt by hand after the run.
		writeFileSync(join(cwd, "b.txt"), "user edit\n");
		const firstUser = s.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
		await s.session.navigateTree(firstUser?.id ?? "", {});
		const dialog = s.dialogs.at(-1);
		expect(dialog?.options).toEqual([CHOICE_KEEP, CHOICE_RESTORE, CHOICE_OVERWRITE]);
		expect(dialog?.title).toMatch(/Changed outside pi[^\n]*\n {2}b\.txt/);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\n");
		expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("user edit\n");
		expect(s.notices.at(-1)?.message).toMatch(/left alone \(changed outside pi\): b\.txt/);

		// Back to the agent's branch, then back again choosing to overwrite.
		choice = CHOICE_OVERWRITE;
		const leaf =
			s.sessionManager
				.getEntries()
				.filter((e) => e.type === "message")
				.at(-1)?.id ?? "";
		await s.session.navigateTree(leaf, {});
		expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("agent b\n");
		await s.session.navigateTree(firstUser?.id ?? "", {});
		expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("bee\n");
	});

	it("/rewind lists the branch's checkpoints, restores one, and undoes the restore", async () => {
		const before = fingerprint(cwd);
		let pick: (options: string[]) => string | undefined = () => undefined;
		const s = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension() }, (method, _t, options) =>
			method === "select" ? (options.includes(CHOICE_RESTORE) ? CHOICE_RESTORE : pick(options)) : undefined,
		);
		s.fake.enqueue({ toolCalls: [{ name: "bash", args: { command: CHANGES } }] }, { text: "done" });
		await s.session.prompt("change");
		const after = fingerprint(cwd);
		pick = (options) => options.find((o) => o.includes("before the prompt"));
		await s.session.prompt("/rewind");
		expect(fingerprint(cwd)).toEqual(before);
		const listed = s.dialogs.find((d) => d.title.startsWith("Restore files to which"));
		expect(listed?.options.some((o) => /before bash: rm b\.txt/.test(o))).toBe(true);
		// Undo: the state just before the restore comes back.
		pick = (options) => options.find((o) => o.startsWith("Undo the last restore"));
		await s.session.prompt("/rewind");
		expect(fingerprint(cwd)).toEqual(after);
	});

	it("works inside a git repository without touching its .git", async () => {
		const gitEnv = {
			...process.env,
			GIT_AUTHOR_NAME: "t",
			GIT_AUTHOR_EMAIL: "t@t",
			GIT_COMMITTER_NAME: "t",
			GIT_COMMITTER_EMAIL: "t@t",
		};
		const g = (...args: string[]) => execFileSync("git", args, { cwd, env: gitEnv }).toString();
		g("init", "-q");
		writeFileSync(join(cwd, ".gitignore"), "ignored/\n");
		g("add", "-A");
		g("commit", "-q", "-m", "init");
		const headBefore = g("rev-parse", "HEAD");
		const statusBefore = g("status", "--porcelain");
		const refsBefore = g("for-each-ref");
		const s = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension() }, (m, _t, o) =>
			m === "select" && o.includes(CHOICE_RESTORE) ? CHOICE_RESTORE : undefined,
		);
		s.fake.enqueue(
			{
				toolCalls: [
					{ name: "bash", args: { command: "mkdir -p ignored && echo big > ignored/x && echo n > new.txt" } },
				],
			},
			{ text: "ok" },
		);
		await s.session.prompt("go");
		const firstUser = s.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
		await s.session.navigateTree(firstUser?.id ?? "", {});
		expect(existsSync(join(cwd, "new.txt"))).toBe(false);
		// Ignored files are not the checkpoints' business: left in place.
		expect(readFileSync(join(cwd, "ignored", "x"), "utf8")).toBe("big\n");
		expect(g("rev-parse", "HEAD")).toBe(headBefore);
		expect(g("for-each-ref")).toBe(refsBefore);
		expect(g("status", "--porcelain")).toBe(statusBefore);
		expect(dirname(join(cwd, ".git"))).toBe(cwd);
	});
});

describe("isOnCurrentBranch (the /tree restore's check that the leaf really moved)", () => {
	it("finds entries near the leaf and far above it, and not entries of another branch", () => {
		const sm = SessionManager.inMemory("/p");
		const ids: string[] = [];
		for (let i = 0; i < 40; i++) ids.push(sm.appendMessage(user(`m${i}`)));
		sm.branch(ids[29]);
		const other = sm.appendMessage(user("other branch"));
		sm.branch(ids[39]);
		expect(isOnCurrentBranch(sm, ids[39])).toBe(true);
		expect(isOnCurrentBranch(sm, ids[37])).toBe(true);
		// Beyond the first few steps: the whole branch is read.
		expect(isOnCurrentBranch(sm, ids[0])).toBe(true);
		expect(isOnCurrentBranch(sm, other)).toBe(false);
		expect(isOnCurrentBranch(sm, "no-such-id")).toBe(false);
		sm.resetLeaf();
		expect(isOnCurrentBranch(sm, ids[0])).toBe(false);
	});
});
