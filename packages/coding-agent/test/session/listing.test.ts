import { appendFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	clearSessionListingCache,
	findMostRecentSession,
	findSessionsByIdPrefix,
	listAllSessions,
	listingIndexPath,
	listSessions,
	readSessionInfo,
} from "../../src/session/listing.js";
import { encodeCwd, getDefaultSessionDir, sessionIdFromFileName } from "../../src/session/paths.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, tempDir, user } from "./helpers.js";

function session(dir: string, cwd: string, first: string, extra = 0, name?: string): string {
	const sm = SessionManager.create(cwd, dir, {}, { durability: "write" });
	sm.appendModelChange("p", "m");
	sm.appendMessage(user(first));
	sm.appendMessage(assistant("answer"));
	for (let i = 0; i < extra; i++) sm.appendMessage(user(`more ${i}`));
	if (name) sm.appendSessionInfo(name);
	const file = sm.getSessionFile() as string;
	sm.close();
	return file;
}

describe("session paths", () => {
	it("encodes the cwd like the reference", () => {
		expect(encodeCwd("/home/u/my proj")).toBe("--home-u-my proj--");
		expect(getDefaultSessionDir("/work", "/agent")).toBe("/agent/sessions/--work--");
		expect(sessionIdFromFileName("2026-11-29T19-55-48-624Z_01a228e0-c40f.jsonl")).toBe("01a228e0-c40f");
		expect(sessionIdFromFileName("notes.txt")).toBeUndefined();
	});
});

describe("listing sessions", () => {
	it("summarises each file: first user message, name, counts, cwd; newest first", () => {
		const root = tempDir();
		const dir = join(root, encodeCwd("/proj"));
		const a = session(dir, "/proj", "first question", 2, "Named one");
		const b = session(dir, "/proj", "other question");
		utimesSync(a, new Date(2020, 0, 1), new Date(2020, 0, 1));
		writeFileSync(join(dir, "junk.jsonl"), "not a session\n");
		const list = listSessions(dir);
		expect(list.map((s) => s.path)).toEqual([b, a]);
		expect(list[1]).toMatchObject({
			cwd: "/proj",
			name: "Named one",
			firstMessage: "first question",
			messageCount: 4,
			entryCount: 6,
		});
		expect(list[1].modified.getFullYear()).toBe(2020);
		expect(findMostRecentSession(dir)).toBe(b);
		expect(findMostRecentSession(dir, "/elsewhere")).toBeUndefined();
	});

	it("updates a cached summary when the file grows (reading only the new bytes)", () => {
		const dir = tempDir();
		const file = session(dir, "/p", "q", 0);
		expect(readSessionInfo(file)?.messageCount).toBe(2);
		appendFileSync(
			file,
			`${JSON.stringify({ type: "session_info", id: "abcdef01", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", name: "later" })}\n`,
		);
		const info = readSessionInfo(file);
		expect(info).toMatchObject({ name: "later", messageCount: 2, entryCount: 4 });
		clearSessionListingCache();
		expect(readSessionInfo(file)).toMatchObject({ name: "later", messageCount: 2, entryCount: 4 });
	});

	it("lists across projects and finds sessions by id prefix, local project first", () => {
		const root = tempDir();
		const local = session(join(root, encodeCwd("/here")), "/here", "local q");
		const remote = session(join(root, encodeCwd("/there")), "/there", "remote q");
		mkdirSync(join(root, "empty"));
		const all = listAllSessions(root);
		expect(all.map((s) => s.path).sort()).toEqual([local, remote].sort());
		const localId = SessionManager.open(local, undefined, undefined, { readOnly: true });
		const remoteInfo = readSessionInfo(remote);
		expect(findSessionsByIdPrefix(localId.getSessionId().slice(0, 13), "/here", root)).toEqual([
			{ path: local, id: localId.getSessionId(), local: true },
		]);
		localId.close();
		const remoteId = remoteInfo?.id as string;
		expect(findSessionsByIdPrefix(remoteId, "/here", root)).toEqual([{ path: remote, id: remoteId, local: false }]);
		expect(findSessionsByIdPrefix("zzz", "/here", root)).toEqual([]);
		expect(SessionManager.findById("/here", remoteId, root)).toBe(remote);
		expect(SessionManager.findById("/here", remoteId.slice(0, 8), root)).toBeUndefined();
	});

	it("offers the reference's async list/listAll on SessionManager", async () => {
		const root = tempDir();
		const a = session(join(root, encodeCwd("/a")), "/a", "qa");
		const b = session(join(root, encodeCwd("/b")), "/b", "qb");
		const progress: string[] = [];
		const all = await SessionManager.listAll(root, (n: number, total: number) => progress.push(`${n}/${total}`));
		expect(all.map((s) => s.path).sort()).toEqual([a, b].sort());
		expect(progress).toEqual(["1/2", "2/2"]);
		expect((await SessionManager.list("/a", join(root, encodeCwd("/a")))).map((s) => s.path)).toEqual([a]);
	});

	it("continueRecent opens the newest session of the project, or starts a new one", () => {
		const dir = tempDir();
		const fresh = SessionManager.continueRecent("/p", dir, { durability: "write" });
		expect(fresh.getEntryCount()).toBe(0);
		fresh.close();
		const file = session(dir, "/p", "resume me");
		const resumed = SessionManager.continueRecent("/p", dir, { durability: "write" });
		expect(resumed.getSessionFile()).toBe(file);
		expect(resumed.getEntryCount()).toBe(3);
		resumed.close();
	});
});

describe("listing index", () => {
	it("writes a per-directory index that a fresh process uses instead of reading bodies", () => {
		const dir = join(tempDir(), "proj");
		const file = session(dir, "/p", "indexed question", 1, "idx");
		expect(listSessions(dir)).toHaveLength(1);
		const indexFile = listingIndexPath(dir);
		expect(indexFile).toBe(join(dir, "..", ".pi-index", "proj.json"));
		const index = JSON.parse(readFileSync(indexFile, "utf8"));
		const name = file.slice(dir.length + 1);
		expect(index.files[name]).toMatchObject({
			valid: true,
			firstMessage: "indexed question",
			name: "idx",
			messageCount: 3,
		});
		// Simulate a fresh process: drop memory, keep the index; a forged index entry proves it is used.
		index.files[name].firstMessage = "from the index";
		writeFileSync(indexFile, JSON.stringify(index));
		clearSessionListingCache();
		expect(listSessions(dir)[0].firstMessage).toBe("from the index");
		// A changed file is re-read (here: grown), whatever the index says.
		appendFileSync(
			file,
			`${JSON.stringify({ type: "custom", id: "cafe0001", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", customType: "x" })}\n`,
		);
		clearSessionListingCache();
		const info = listSessions(dir)[0];
		expect(info.entryCount).toBe(6);
		// A new file changes the directory's mtime, so the index's name list is not trusted.
		session(dir, "/p", "a second session");
		clearSessionListingCache();
		expect(listSessions(dir).map((s) => s.firstMessage)).toContain("a second session");
	});

	it("re-reads a file rewritten in place instead of resuming the old scan", () => {
		const dir = join(tempDir(), "proj");
		const file = session(dir, "/p", "original", 0);
		expect(listSessions(dir)[0].firstMessage).toBe("original");
		const other = session(join(dir, "..", "other"), "/p", "replacement text", 3);
		writeFileSync(file, readFileSync(other)); // same inode, larger, different bytes
		expect(listSessions(dir)[0]).toMatchObject({ firstMessage: "replacement text", messageCount: 5 });
	});
});
