// Several writers, files changing under a running session, unwritable places.
import { appendFileSync, chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionConflictError, SessionWriteError } from "../../src/session/file.js";
import { SessionLockedError } from "../../src/session/lock.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { startWriter } from "./crash-harness.js";
import { assistant, jsonLines, tempDir, user } from "./helpers.js";

function started(dir: string): SessionManager {
	const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
	sm.appendMessage(user("one"));
	sm.appendMessage(assistant("two"));
	return sm;
}

describe("concurrent writers", () => {
	it("a second process gets a clear error while the first appends; no line is torn or interleaved", {
		timeout: 30_000,
	}, async () => {
		const file = join(tempDir(), "shared.jsonl");
		const a = startWriter(file);
		await a.ready;
		await a.waitAcks(5);
		const b = startWriter(file);
		const bExit = await b.exited;
		expect(bExit.code).not.toBe(0);
		expect(bExit.stderr).toContain(`in use by another pi process (pid ${a.child.pid})`);
		// This process is refused as well, with the holder named.
		expect(() => SessionManager.open(file)).toThrow(SessionLockedError);
		await a.waitAcks(20);
		a.child.kill("SIGTERM");
		await a.exited;
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		const ids = new Set(sm.getEntries().map((e) => e.id));
		for (const id of a.acked) expect(ids.has(id)).toBe(true);
		// SIGTERM may land inside a write: at most that last line is damaged.
		expect(sm.getLoadWarnings().length).toBeLessThanOrEqual(1);
		sm.close();
	});

	it("refuses a second writer in the same process until the first closes", () => {
		const sm = started(tempDir());
		const file = sm.getSessionFile() as string;
		expect(() => SessionManager.open(file)).toThrow(/in use by another pi process \(pid \d+\).*--fork/);
		sm.close();
		const again = SessionManager.open(file);
		expect(again.getEntryCount()).toBe(2);
		// Reading without the lock is always allowed.
		const reader = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(reader.getEntryCount()).toBe(2);
		expect(() => reader.appendMessage(user("x"))).toThrow(/read-only/);
		reader.close();
		const missing = SessionManager.open(join(file, "..", "missing.jsonl"), undefined, undefined, { readOnly: true });
		expect(() => missing.appendMessage(user("x"))).toThrow(/read-only/);
		expect(existsSync(join(file, "..", "missing.jsonl"))).toBe(false);
		again.close();
	});

	it("never appends on a stale view: an outside append is a conflict, and nothing is written", () => {
		const sm = started(tempDir());
		const file = sm.getSessionFile() as string;
		// A writer that ignores the lock (e.g. an older pi) appends an entry.
		const foreign = `{"type":"message","id":"f0f0f0f0","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"x","timestamp":1}}\n`;
		appendFileSync(file, foreign);
		const before = readFileSync(file, "utf8");
		expect(() => sm.appendMessage(user("three"))).toThrow(SessionConflictError);
		expect(readFileSync(file, "utf8")).toBe(before);
		expect(sm.getEntryCount()).toBe(2);
		// The way on: reload, see the outside entry, continue from the end of the file.
		sm.reload();
		expect(sm.getEntryCount()).toBe(3);
		expect(sm.getLeafId()).toBe("f0f0f0f0");
		const id = sm.appendMessage(user("three"));
		expect(sm.getEntry(id)?.parentId).toBe("f0f0f0f0");
		sm.close();
	});

	it("treats a file replaced under it as a conflict", () => {
		const dir = tempDir();
		const sm = started(dir);
		const file = sm.getSessionFile() as string;
		const other = join(dir, "other.jsonl");
		writeFileSync(other, readFileSync(file));
		renameSync(other, file);
		expect(() => sm.appendMessage(user("x"))).toThrow(/replaced/);
		sm.close();
	});
});

describe("files disappearing and unwritable places", () => {
	it("re-creates a deleted session file with its header and every entry, then continues", () => {
		const dir = tempDir();
		const warnings: string[] = [];
		const sm = SessionManager.create(
			"/p",
			dir,
			{},
			{ durability: "write", onWarning: (w) => warnings.push(w.message) },
		);
		const ids = [sm.appendMessage(user("one")), sm.appendMessage(assistant("two"))];
		const file = sm.getSessionFile() as string;
		rmSync(dir, { recursive: true, force: true });
		ids.push(sm.appendMessage(user("three")));
		expect(warnings).toEqual(["session file was deleted while in use; re-created from memory"]);
		const objs = jsonLines(file);
		expect(objs[0]).toMatchObject({ type: "session", id: sm.getSessionId() });
		expect(objs.slice(1).map((o) => o.id)).toEqual(ids);
		ids.push(sm.appendMessage(assistant("four")));
		sm.close();
		const again = SessionManager.open(file);
		expect(again.getEntries().map((e) => e.id)).toEqual(ids);
		again.close();
	});

	it("reports an unusable session directory clearly and leaves memory consistent", () => {
		const dir = tempDir();
		const blocker = join(dir, "not-a-dir");
		writeFileSync(blocker, "x");
		const sm = SessionManager.create("/p", blocker, {}, { durability: "write" });
		sm.appendModelChange("p", "m");
		expect(() => sm.appendMessage(user("hi"))).toThrow(SessionWriteError);
		expect(() => sm.appendMessage(user("hi"))).toThrow(/Cannot write session .*not-a-dir/);
		// The failed entry did not become part of the tree.
		expect(sm.getEntries().map((e) => e.type)).toEqual(["model_change"]);
		expect(readFileSync(blocker, "utf8")).toBe("x");
	});

	it.skipIf(process.getuid?.() === 0)("reports a read-only session directory without touching existing files", () => {
		const dir = tempDir();
		const sm = started(dir);
		const file = sm.getSessionFile() as string;
		sm.close();
		const before = readFileSync(file, "utf8");
		chmodSync(file, 0o444);
		chmodSync(dir, 0o555);
		try {
			expect(() => SessionManager.open(file)).toThrow();
			const fresh = SessionManager.create("/p", dir, {}, { durability: "write" });
			expect(() => fresh.appendMessage(user("x"))).toThrow(/Cannot write session|EACCES/);
		} finally {
			chmodSync(dir, 0o755);
			chmodSync(file, 0o644);
		}
		expect(readFileSync(file, "utf8")).toBe(before);
	});

	it("a full disk (file-size limit) is a visible error; what was acknowledged loads, the rest of the file is untouched", {
		timeout: 20_000,
	}, async () => {
		const dir = tempDir();
		const file = join(dir, "full.jsonl");
		const w = startWriter(file, "fill", 64); // 32 KiB
		const exit = await w.exited;
		expect(exit.code).toBe(0);
		expect(w.other).toEqual([
			expect.stringMatching(/^error SessionWriteError: Cannot write session .*full\.jsonl: EFBIG/),
		]);
		expect(w.acked.length).toBeGreaterThan(5);
		const size = readFileSync(file).length;
		expect(size).toBeLessThanOrEqual(32 * 1024);
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		expect(sm.getEntries().map((e) => e.id)).toEqual(w.acked);
		// The partial line the limit cut off is reported and kept; the next append starts a fresh line.
		expect(sm.getLoadWarnings().length).toBeLessThanOrEqual(1);
		const id = sm.appendMessage(user("after the disk was freed"));
		sm.close();
		const again = SessionManager.open(file);
		expect(again.getEntries().map((e) => e.id)).toEqual([...w.acked, id]);
		again.close();
	});
});
