// What the session picker's actions do to real files: rename another session
// (a session_info line appended to its file; the listing shows the name) and
// delete one (gone from disk and from the listing).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deleteSessionFile, renameSession } from "../../src/modes/interactive/commands/resume.js";
import type { InteractiveContext } from "../../src/modes/interactive/context.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, user } from "../session/helpers.js";

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sessionFile(dir: string, text: string): string {
	const sm = SessionManager.create("/proj", dir);
	sm.appendMessage(user(text));
	sm.appendMessage(assistant(`re: ${text}`));
	const file = sm.getSessionFile()!;
	sm.close();
	return file;
}

describe("session picker actions", () => {
	it("renames a session that is not open by appending to its file", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-resume-"));
		dirs.push(dir);
		const other = sessionFile(dir, "other work");
		const before = readFileSync(other, "utf8");
		const [info] = await SessionManager.list("/proj", dir);
		// Not the open session: the context's session is never touched.
		const ctx = { session: { sessionFile: join(dir, "open.jsonl") } } as unknown as InteractiveContext;
		await renameSession(ctx, info, "Renamed work");
		const after = readFileSync(other, "utf8");
		expect(after.startsWith(before)).toBe(true);
		const added = JSON.parse(after.slice(before.length).trim());
		expect(added).toMatchObject({ type: "session_info", name: "Renamed work" });
		const [listed] = await SessionManager.list("/proj", dir);
		expect(listed.name).toBe("Renamed work");
	});

	it("deletes a session file; the listing no longer shows it", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-resume-"));
		dirs.push(dir);
		const a = sessionFile(dir, "keep me");
		const b = sessionFile(dir, "delete me");
		expect((await SessionManager.list("/proj", dir)).map((s) => s.firstMessage).sort()).toEqual([
			"delete me",
			"keep me",
		]);
		deleteSessionFile(b);
		expect(existsSync(b)).toBe(false);
		expect(existsSync(a)).toBe(true);
		expect((await SessionManager.list("/proj", dir)).map((s) => s.firstMessage)).toEqual(["keep me"]);
	});
});
