import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireSessionLock, SessionLockedError } from "../../src/session/lock.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, tempDir, user } from "./helpers.js";

function sessionFile(): string {
	const sm = SessionManager.create("/p", tempDir(), {}, { durability: "write" });
	sm.appendMessage(user("q"));
	sm.appendMessage(assistant("a"));
	const file = sm.getSessionFile() as string;
	sm.close();
	return file;
}

function deadPid(): number {
	const r = spawnSync(process.execPath, ["-e", ""]);
	return r.pid as number;
}

describe("session writer lock", () => {
	it("holds <file>.lock while open and removes it on close", () => {
		const file = sessionFile();
		const sm = SessionManager.open(file);
		const info = JSON.parse(readFileSync(`${file}.lock`, "utf8"));
		expect(info).toMatchObject({ pid: process.pid, hostname: hostname(), token: expect.any(String) });
		sm.close();
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	it("takes over a lock left by a dead process", () => {
		const file = sessionFile();
		writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(), hostname: hostname(), token: "old" }));
		const sm = SessionManager.open(file);
		expect(JSON.parse(readFileSync(`${file}.lock`, "utf8")).pid).toBe(process.pid);
		sm.close();
	});

	it("takes over a lock with this pid from an earlier process (pid reuse in containers)", () => {
		const file = sessionFile();
		writeFileSync(
			`${file}.lock`,
			JSON.stringify({ pid: process.pid, hostname: hostname(), token: "earlier", startTime: "1" }),
		);
		const lock = acquireSessionLock(file);
		expect(lock.isHeld()).toBe(true);
		lock.release();
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	it("never breaks a lock held on another host, and names the file to remove", () => {
		const file = sessionFile();
		writeFileSync(`${file}.lock`, JSON.stringify({ pid: 1, hostname: "elsewhere", token: "t" }));
		let error: unknown;
		try {
			SessionManager.open(file);
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(SessionLockedError);
		expect((error as Error).message).toContain("on host elsewhere");
		expect((error as Error).message).toContain(`remove ${file}.lock`);
		expect(readFileSync(`${file}.lock`, "utf8")).toContain("elsewhere");
	});

	it("refuses to guess about an unreadable lock file", () => {
		const file = sessionFile();
		writeFileSync(`${file}.lock`, "garbage");
		expect(() => SessionManager.open(file)).toThrow(/lock file is unreadable/);
		// Read-only access still works.
		const ro = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(ro.getEntryCount()).toBe(2);
		ro.close();
	});

	it("locks a new file from its creation on", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		sm.appendMessage(user("q"));
		const file = sm.getSessionFile() as string;
		expect(existsSync(`${file}.lock`)).toBe(true);
		expect(() => SessionManager.open(join(file))).toThrow(SessionLockedError);
		sm.close();
	});
});
