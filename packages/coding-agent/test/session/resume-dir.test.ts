// A session resumed from another folder's list takes later new sessions into
// that folder's session directory (as opening it with --session does), so a
// `/new` after `/resume` does not file the new session under the folder pi
// started in.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, tempDir, user } from "./helpers.js";

describe("setSessionFile (resume)", () => {
	it("new sessions after a resume go beside the resumed file, with its folder as cwd", () => {
		const root = tempDir();
		const [cwdA, cwdB] = [join(root, "a"), join(root, "b")];
		const [dirA, dirB] = [join(root, "sessions-a"), join(root, "sessions-b")];

		const other = SessionManager.create(cwdB, dirB);
		other.appendMessage(user("in b"));
		other.appendMessage(assistant("ok"));
		const fileB = other.getSessionFile();
		other.close();
		if (!fileB) throw new Error("no session file");

		const sm = SessionManager.create(cwdA, dirA);
		sm.setSessionFile(fileB);
		expect(sm.getCwd()).toBe(cwdB);
		expect(sm.getSessionDir()).toBe(dirB);

		const next = sm.newSession();
		expect(next && dirname(next)).toBe(dirB);
		sm.appendMessage(user("new in b"));
		sm.appendMessage(assistant("ok"));
		sm.close();
		expect(readdirSync(dirB)).toHaveLength(2);
		expect(SessionManager.open(next ?? "").getCwd()).toBe(cwdB);
	});
});
