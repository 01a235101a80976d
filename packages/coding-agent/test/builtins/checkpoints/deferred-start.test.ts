// The snapshot before a prompt runs beside the model request: the first
// request goes out while git is still scanning, yet every tool call waits for
// it, it is recorded between the user message and the reply, /tree and
// /rewind back to before the prompt restore the files as they were, and a
// failure of it is a notice as before. A slow `git` first on PATH makes the
// snapshot outlast the request.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkpointAt, checkpointBefore } from "../../../src/builtins/checkpoints/entries.js";
import { CHOICE_RESTORE } from "../../../src/builtins/checkpoints/flow.js";
import { createCheckpointsExtension } from "../../../src/builtins/checkpoints/index.js";
import { SessionManager } from "../../../src/session/session-manager.js";
import { assistant, user } from "../../session/helpers.js";
import { fingerprint, projectPerTest, realGit, sessionIn } from "./support.js";

const env = projectPerTest("pi-cp-defer-");

/** A `git` first on PATH that waits `seconds` before each command, then runs `then` (default: the real git). */
function slowGit(seconds: number, then = `exec ${realGit} "$@"`): void {
	const bin = join(env.root, "bin");
	mkdirSync(bin, { recursive: true });
	const file = join(bin, "git");
	writeFileSync(file, `#!/bin/sh\nsleep ${seconds}\n${then}\n`);
	chmodSync(file, 0o755);
	process.env.PATH = `${bin}:${env.basePath}`;
}

type Entry = { id: string; type: string; customType?: string; data?: { reason?: string }; message?: { role?: string } };
const isCheckpoint = (e: Entry) => e.type === "custom" && e.customType === "checkpoint";
/** Messages (the recorded system prompt left out) and checkpoints, in branch order. */
const kindsOf = (entries: Entry[]) =>
	entries
		.filter((e) => (e.type === "message" && e.message?.role !== "system") || isCheckpoint(e))
		.map((e) => (isCheckpoint(e) ? `checkpoint:${e.data?.reason}` : `message:${e.message?.role}`));

describe("builtin:checkpoints: the start snapshot off the request path", () => {
	it("the first request goes out before the snapshot ends; a write waits for it; /tree and /rewind restore the pre-prompt files", async () => {
		slowGit(0.4);
		const before = fingerprint(env.cwd);
		let pick: (options: string[]) => string | undefined = () => undefined;
		const s = await sessionIn(
			env.cwd,
			{ "builtin:checkpoints": createCheckpointsExtension() },
			(method, _t, options) =>
				method === "select" ? (options.includes(CHOICE_RESTORE) ? CHOICE_RESTORE : pick(options)) : undefined,
		);
		// What the session held when each request went out.
		const atRequest: { checkpoints: number }[] = [];
		const streamFn = s.fake.streamFn;
		s.session.agent.streamFn = (model, context, options) => {
			atRequest.push({ checkpoints: (s.sessionManager.getEntries() as Entry[]).filter(isCheckpoint).length });
			return streamFn(model, context, options);
		};
		s.fake.enqueue({ toolCalls: [{ name: "write", args: { path: "a.txt", content: "written\n" } }] }, { text: "done" });
		const started = Date.now();
		await s.session.prompt("write a.txt");
		expect(Date.now() - started).toBeGreaterThan(400); // the slow git really ran
		expect(readFileSync(join(env.cwd, "a.txt"), "utf8")).toBe("written\n");
		// No checkpoint was recorded when the first request went out: the snapshot was still running.
		expect(atRequest[0]).toEqual({ checkpoints: 0 });
		expect(s.notices.filter((n) => /Checkpoint/.test(n.message))).toEqual([]);

		// On the branch: user message, the start checkpoint, then the reply; the write's checkpoint after it.
		const branch = s.sessionManager.getBranch() as Entry[];
		expect(kindsOf(branch).slice(0, 5)).toEqual([
			"message:user",
			"checkpoint:start",
			"message:assistant",
			"checkpoint:tool",
			"message:toolResult",
		]);

		// /tree back to the user message: the files before the prompt come back (the write waited).
		const firstUser = branch.find((e) => e.type === "message" && e.message?.role === "user");
		const moved = await s.session.navigateTree(firstUser?.id ?? "", {});
		expect(moved.cancelled).toBe(false);
		expect(fingerprint(env.cwd)).toEqual(before);

		// Forward again, then /rewind to "before the prompt".
		const leaf = branch.filter((e) => e.type === "message").at(-1)?.id ?? "";
		await s.session.navigateTree(leaf, {});
		expect(readFileSync(join(env.cwd, "a.txt"), "utf8")).toBe("written\n");
		pick = (options) => options.find((o) => o.includes("before the prompt"));
		await s.session.prompt("/rewind");
		expect(fingerprint(env.cwd)).toEqual(before);
		expect(s.errors).toEqual([]);
	}, 30_000);

	it("an extension's own tool waits for the snapshot too, and a reply without tools is appended after it", async () => {
		slowGit(0.3);
		const s = await sessionIn(env.cwd, {
			"builtin:checkpoints": createCheckpointsExtension(),
			touch: (pi) => {
				pi.registerTool({
					name: "touch_file",
					label: "touch",
					description: "writes b.txt",
					parameters: { type: "object", properties: {} } as never,
					execute: async () => {
						writeFileSync(join(env.cwd, "b.txt"), "touched\n");
						return { content: [{ type: "text", text: "ok" }], details: undefined };
					},
				});
			},
		});
		s.session.setActiveToolsByName([...s.session.getActiveToolNames(), "touch_file"]);
		s.fake.enqueue({ toolCalls: [{ name: "touch_file", args: {} }] }, { text: "done" });
		await s.session.prompt("touch");
		expect(readFileSync(join(env.cwd, "b.txt"), "utf8")).toBe("touched\n");
		const start = (s.sessionManager.getEntries() as Entry[]).find((e) => isCheckpoint(e) && e.data?.reason === "start");
		const commit = (start?.data as { commit?: string } | undefined)?.commit ?? "";
		// The start snapshot holds b.txt as it was before the tool ran.
		const store = join(env.root, "agent", "checkpoints");
		const dir = execFileSync("sh", ["-c", `ls -d ${store}/*/`], { encoding: "utf8" }).trim();
		expect(execFileSync(realGit, ["--git-dir", dir, "show", `${commit}:b.txt`], { encoding: "utf8" })).toBe("bee\n");

		// A second prompt after a change outside pi: the reply alone still comes after its start checkpoint.
		writeFileSync(join(env.cwd, "a.txt"), "outside\n");
		s.fake.enqueue({ text: "just text" });
		await s.session.prompt("say something");
		const branch = s.sessionManager.getBranch() as Entry[];
		const tail = kindsOf(branch.slice(branch.findLastIndex((e) => e.type === "message" && e.message?.role === "user")));
		expect(tail).toEqual(["message:user", "checkpoint:start", "message:assistant"]);
		expect(s.errors).toEqual([]);
	}, 30_000);

	it("a failure of the deferred snapshot is a notice, once, and the tools still run", async () => {
		slowGit(0.2, "echo 'fatal: simulated' >&2; exit 1");
		const s = await sessionIn(env.cwd, { "builtin:checkpoints": createCheckpointsExtension() });
		s.fake.enqueue({ toolCalls: [{ name: "write", args: { path: "a.txt", content: "w\n" } }] }, { text: "done" });
		await s.session.prompt("write");
		expect(readFileSync(join(env.cwd, "a.txt"), "utf8")).toBe("w\n");
		const failures = s.notices.filter((n) => n.message.startsWith("Checkpoint failed"));
		expect(failures).toHaveLength(1);
		expect(failures[0]?.type).toBe("warning");
		expect((s.sessionManager.getEntries() as Entry[]).filter(isCheckpoint)).toEqual([]);
		expect(s.errors).toEqual([]);
	}, 30_000);

	it("/tree from another branch to a prompt's user message restores the files before that prompt", async () => {
		slowGit(0.1);
		const before = fingerprint(env.cwd);
		const s = await sessionIn(
			env.cwd,
			{ "builtin:checkpoints": createCheckpointsExtension() },
			(method, _t, options) => (method === "select" && options.includes(CHOICE_RESTORE) ? CHOICE_RESTORE : undefined),
		);
		s.fake.enqueue({ toolCalls: [{ name: "write", args: { path: "a.txt", content: "A\n" } }] }, { text: "A" });
		await s.session.prompt("make A");
		const userA = (s.sessionManager.getBranch() as Entry[]).find((e) => e.message?.role === "user")?.id ?? "";
		// A second branch from the root (keeping A's files), which changes more.
		s.sessionManager.resetLeaf();
		s.fake.enqueue({ toolCalls: [{ name: "bash", args: { command: "echo B > b.txt" } }] }, { text: "B" });
		await s.session.prompt("make B");
		expect(readFileSync(join(env.cwd, "b.txt"), "utf8")).toBe("B\n");
		// A's start checkpoint lies below A's user message, on a branch the leaf is not on.
		await s.session.navigateTree(userA, {});
		expect(fingerprint(env.cwd)).toEqual(before);
		expect(s.errors).toEqual([]);
	}, 30_000);
});

describe("checkpointAt / checkpointBefore: a start checkpoint recorded below its user message", () => {
	const cp = (reason: string, n: number) => ({ commit: String(n).repeat(40), reason });
	it("counts as the state at (and before) that message, found among its children (getChildren, part of ReadonlySessionManager)", () => {
		const sm = SessionManager.inMemory("/p");
		const first = sm.appendCustomEntry("checkpoint", cp("turn", 1));
		const u = sm.appendMessage(user("prompt"));
		const other = sm.appendCustomEntry("other-extension", {});
		const start = sm.appendCustomEntry("checkpoint", cp("start", 2));
		const reply = sm.appendMessage(assistant("reply"));
		const later = sm.appendMessage(user("next"));
		expect(checkpointAt(sm, u)?.entryId).toBe(start);
		expect(checkpointBefore(sm, u)?.entryId).toBe(start);
		expect(checkpointAt(sm, reply)?.entryId).toBe(start);
		// A user message without its own start checkpoint: the last one above it.
		expect(checkpointAt(sm, later)?.entryId).toBe(start);
		// Before another entry: the state at its parent (at the user message: its start checkpoint).
		expect(checkpointBefore(sm, u)?.entryId).toBe(start);
		expect(checkpointBefore(sm, other)?.entryId).toBe(start);
		expect(checkpointAt(sm, first)?.entryId).toBe(first);
	});
});
