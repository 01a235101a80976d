import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { forgetTempFile, rememberTempFile, setTempFileJournal } from "../../src/tools/shared/temp-files.js";
import { tempDir } from "./helpers.js";

// The journal of in-flight temp files (temp-files.ts): one entry per write, `<pid>-<hex>`, naming the
// temp file, so the next start can remove what a killed process left behind.
describe("temp-file journal", () => {
	afterEach(() => setTempFileJournal(undefined));

	it("journals each temp file in an entry only the user can read, made again after its directory is removed", () => {
		const journal = join(tempDir(), "pending-writes");
		setTempFileJournal(journal);
		const first = join(tempDir(), ".a.txt.0123456789ab.tmp");
		rememberTempFile(first);
		const entry = join(journal, `${process.pid}-0123456789ab`);
		expect(readFileSync(entry, "utf8")).toBe(first);
		expect(statSync(entry).mode & 0o777).toBe(0o600);
		expect(statSync(journal).mode & 0o777).toBe(0o700);

		// The directory is made once per process; a user (or a clean-up) removing it must not turn
		// journaling off for the rest of the session.
		rmSync(journal, { recursive: true, force: true });
		const second = join(tempDir(), ".b.txt.ba9876543210.tmp");
		rememberTempFile(second);
		expect(readFileSync(join(journal, `${process.pid}-ba9876543210`), "utf8")).toBe(second);

		forgetTempFile(first);
		forgetTempFile(second);
		expect(readdirSync(journal)).toEqual([]);
	});

	it("a journal that cannot be written only skips the entry", () => {
		const blocker = join(tempDir(), "file");
		rmSync(blocker, { force: true });
		// A regular file where the journal directory should be: mkdir and open both fail.
		writeFileSync(blocker, "x");
		setTempFileJournal(join(blocker, "pending-writes"));
		const temp = join(tempDir(), ".c.txt.cccccccccccc.tmp");
		expect(() => rememberTempFile(temp)).not.toThrow();
		forgetTempFile(temp);
		expect(existsSync(join(blocker, "pending-writes"))).toBe(false);
	});
});
