import { promises as fs, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { atomicWriteFile } from "../../src/tools/shared/atomic-write.js";
import { withFileMutationQueue } from "../../src/tools/shared/file-mutation-queue.js";
import { listingResult } from "../../src/tools/shared/listing.js";
import { expandPath, resolveExistingPath, resolveToCwd } from "../../src/tools/shared/paths.js";
import type { TruncationResult } from "../../src/tools/shared/truncate.js";
import { tempDir } from "./helpers.js";

describe("paths", () => {
	it("strips @, expands ~, resolves against cwd, normalises unicode spaces", () => {
		expect(expandPath("@src/a.ts")).toBe("src/a.ts");
		expect(expandPath("~")).toBe(homedir());
		expect(expandPath("~/x")).toBe(join(homedir(), "x"));
		expect(resolveToCwd("a\u00A0b.txt", "/base")).toBe("/base/a b.txt");
		expect(resolveToCwd("/abs/p", "/base")).toBe("/abs/p");
	});

	it("finds macOS look-alike names: narrow NBSP before PM, NFD, curly apostrophe", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "Screenshot 2024 at 1.02.03\u202FPM.png"), "x");
		writeFileSync(join(dir, "Cafe\u0301.txt"), "x");
		writeFileSync(join(dir, "Capture d\u2019e\u0301cran.png"), "x");
		expect(resolveExistingPath("Screenshot 2024 at 1.02.03 PM.png", dir)).toBe(
			join(dir, "Screenshot 2024 at 1.02.03\u202FPM.png"),
		);
		expect(resolveExistingPath("Caf\u00e9.txt", dir)).toBe(join(dir, "Cafe\u0301.txt"));
		expect(resolveExistingPath("Capture d'\u00e9cran.png", dir)).toBe(join(dir, "Capture d\u2019e\u0301cran.png"));
		expect(resolveExistingPath("missing.txt", dir)).toBe(join(dir, "missing.txt"));
	});
});

describe("file mutation queue", () => {
	it("serialises work on one path (also via a symlink) and runs different paths in parallel", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "a.txt"), "");
		symlinkSync(join(dir, "a.txt"), join(dir, "link.txt"));
		const log: string[] = [];
		let active = 0;
		let maxActive = 0;
		const job = (path: string, name: string) =>
			withFileMutationQueue(path, async () => {
				active++;
				maxActive = Math.max(maxActive, active);
				log.push(`start ${name}`);
				await new Promise((r) => setTimeout(r, 20));
				log.push(`end ${name}`);
				active--;
			});
		await Promise.all([job(join(dir, "a.txt"), "1"), job(join(dir, "link.txt"), "2"), job(join(dir, "a.txt"), "3")]);
		expect(log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
		expect(maxActive).toBe(1);

		let parallel = 0;
		let peak = 0;
		const other = (p: string) =>
			withFileMutationQueue(join(dir, p), async () => {
				parallel++;
				peak = Math.max(peak, parallel);
				await new Promise((r) => setTimeout(r, 20));
				parallel--;
			});
		await Promise.all([other("x"), other("y")]);
		expect(peak).toBe(2);
	});

	it("keeps going after a failed job", async () => {
		const p = join(tempDir(), "f");
		await expect(withFileMutationQueue(p, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
		await expect(withFileMutationQueue(p, async () => 7)).resolves.toBe(7);
	});
});

describe("atomic write", () => {
	it("replaces content, preserves the mode, writes through symlinks and leaves no temp files", async () => {
		const dir = tempDir();
		const target = join(dir, "script.sh");
		writeFileSync(target, "old");
		await fs.chmod(target, 0o751);
		symlinkSync(target, join(dir, "link"));
		await atomicWriteFile(join(dir, "link"), "new");
		expect(await fs.readFile(target, "utf8")).toBe("new");
		expect(statSync(target).mode & 0o777).toBe(0o751);
		expect((await fs.lstat(join(dir, "link"))).isSymbolicLink()).toBe(true);
		expect((await fs.readdir(dir)).sort()).toEqual(["link", "script.sh"]);
	});

	it("refuses a directory", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "d"));
		await expect(atomicWriteFile(join(dir, "d"), "x")).rejects.toMatchObject({ code: "EISDIR" });
	});
});

describe("listing result (find, ls, grep)", () => {
	it("an uncut list is its lines, with no details", () => {
		expect(listingResult(["a", "b/"], {})).toEqual({ content: [{ type: "text", text: "a\nb/" }], details: undefined });
	});

	it("notes the count limit, then the byte cap (whole lines kept), then a later cut; details record each", () => {
		const lines = Array.from({ length: 700 }, (_, i) => `${String(i).padStart(3, "0")}:${"x".repeat(96)}`);
		const r = listingResult<{ truncation?: TruncationResult; limitReached?: number; linesTruncated?: boolean }>(lines, {
			countLimit: { notice: "700 results limit reached", details: { limitReached: 700 } },
			after: { notice: "Some lines truncated", details: { linesTruncated: true } },
		});
		const text = (r.content[0] as { text: string }).text;
		const [body, notes] = text.split("\n\n");
		expect(notes).toBe("[700 results limit reached. 50.0KB limit reached. Some lines truncated]");
		expect(body.split("\n")).toEqual(lines.slice(0, 506));
		expect(Object.keys(r.details ?? {})).toEqual(["limitReached", "truncation", "linesTruncated"]);
		expect(r.details).toMatchObject({
			limitReached: 700,
			linesTruncated: true,
			truncation: { truncatedBy: "bytes", outputLines: 506 },
		});
	});
});
