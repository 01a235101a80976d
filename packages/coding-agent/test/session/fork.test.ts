import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, jsonLines, tempDir, texts, user } from "./helpers.js";

describe("tree, fork and clone", () => {
	it("getTree: roots, children sorted by time, labels per node", () => {
		const sm = SessionManager.inMemory();
		const u1 = sm.appendMessage(user("q1"));
		const a1 = sm.appendMessage(assistant("a1"));
		sm.branch(u1);
		const a2 = sm.appendMessage(assistant("a1-again"));
		sm.appendLabelChange(a2, "better");
		sm.resetLeaf();
		const r2 = sm.appendMessage(user("second root"));
		const roots = sm.getTree();
		expect(roots.map((n) => n.entry.id)).toEqual([u1, r2]);
		expect(roots[0].children.map((n) => n.entry.id)).toEqual([a1, a2]);
		expect(roots[0].children[1]).toMatchObject({ label: "better", labelTimestamp: expect.any(String) });
		expect(sm.getChildren(u1).map((e) => e.id)).toEqual([a1, a2]);
	});

	it("createBranchedSession copies the active path into a new file recording its parent, with labels re-created", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		const u1 = sm.appendMessage(user("q1"));
		sm.appendMessage(assistant("a1"));
		sm.appendLabelChange(u1, "start");
		const u2 = sm.appendMessage(user("q2"));
		sm.appendMessage(assistant("a2"));
		sm.branch(u1);
		sm.appendMessage(assistant("other branch"));
		sm.branch(u2);
		const oldFile = sm.getSessionFile() as string;
		const oldId = sm.getSessionId();
		const newFile = sm.createBranchedSession(u2) as string;
		expect(newFile).not.toBe(oldFile);
		expect(sm.getSessionId()).not.toBe(oldId);
		const objs = jsonLines(newFile);
		expect(objs[0]).toMatchObject({ type: "session", version: 3, parentSession: oldFile, cwd: "/p" });
		expect(objs.slice(1).map((o) => o.type)).toEqual(["message", "message", "message", "label"]);
		// The label entry is gone from the chain: q2 now hangs off a1 directly.
		expect(objs[3].parentId).toBe(objs[2].id);
		expect(sm.getLabel(u1)).toBe("start");
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:q1", "assistant:a1", "user:q2"]);
		// Appends continue in the new file; the old one is unlocked and unchanged.
		sm.appendMessage(assistant("a2'"));
		expect(jsonLines(newFile)).toHaveLength(6);
		const old = SessionManager.open(oldFile);
		expect(old.getEntryCount()).toBe(6);
		old.close();
		sm.close();
	});

	it("forking before the first message leaves a new empty session (no file until it has a conversation)", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		sm.appendMessage(user("q1"));
		const oldFile = sm.getSessionFile();
		const newFile = sm.createBranchedSession(null) as string;
		expect(existsSync(newFile)).toBe(false);
		expect(sm.getHeader()?.parentSession).toBe(oldFile);
		sm.appendMessage(user("again"));
		expect(jsonLines(newFile)[0]).toMatchObject({ parentSession: oldFile });
		sm.close();
	});

	it("forkFrom copies a whole session into another project's directory", () => {
		const root = tempDir();
		const src = SessionManager.create("/a", join(root, "a"), {}, { durability: "write" });
		const u = src.appendMessage(user("q"));
		src.appendMessage(assistant("x"));
		src.branch(u);
		src.appendMessage(assistant("y"));
		const srcFile = src.getSessionFile() as string;
		const srcEntries = src.getEntries();
		src.close();
		const fork = SessionManager.forkFrom(srcFile, "/b", join(root, "b"), {}, { durability: "write" });
		const file = fork.getSessionFile() as string;
		expect(file.startsWith(join(root, "b"))).toBe(true);
		expect(jsonLines(file)[0]).toMatchObject({ cwd: "/b", parentSession: srcFile });
		expect(fork.getEntries()).toEqual(srcEntries);
		expect(fork.getCwd()).toBe("/b");
		fork.close();
		expect(() => SessionManager.forkFrom(join(root, "missing.jsonl"), "/b", join(root, "b"))).toThrow(
			/no such session/,
		);
	});

	it("in-memory sessions fork in memory", () => {
		const sm = SessionManager.inMemory("/p");
		const u = sm.appendMessage(user("q"));
		sm.appendMessage(assistant("a"));
		expect(sm.createBranchedSession(u)).toBeUndefined();
		expect(sm.getEntryCount()).toBe(1);
		expect(sm.getHeader()?.parentSession).toBeUndefined();
	});
});
