// Issue 25: the persisted index of a session file's verified prefix
// (session/index-cache.ts). An open that restores the tree from the index must
// show exactly what a full scan shows (tree, context, labels, name, warnings),
// and the index must never be trusted when the file's bytes may have changed.
import {
	appendFileSync,
	closeSync,
	copyFileSync,
	existsSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	statSync,
	truncateSync,
	utimesSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { INDEX_FORMAT, MAX_INDEXES, RACY_MS, setSessionIndexDir } from "../../src/session/index-cache.js";
import { type IndexUse, loadSessionFile } from "../../src/session/load.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { SessionTree } from "../../src/session/tree.js";
import { assistant, tempDir, user } from "./helpers.js";

afterEach(() => {
	setSessionIndexDir(undefined);
	vi.restoreAllMocks();
});

/** A rich session in a new folder, and an index folder beside it (nothing indexed yet). */
function richSessionAndCache(): { file: string; cache: string } {
	const dir = tempDir();
	return { file: richSession(dir), cache: join(dir, "cache") };
}

/** Overwrites one byte of `file`, `skip` bytes after the first `marker` in it (same size: a damaged line). */
function overwriteByte(file: string, marker: string, skip: number, byte: string): void {
	const text = readFileSync(file, "utf8");
	const at = Buffer.byteLength(text.slice(0, text.indexOf(marker) + skip));
	const fd = openSync(file, "r+");
	writeSync(fd, Buffer.from(byte), 0, 1, at);
	closeSync(fd);
}

/** A session with branches, labels, a compaction, a name, short, medium and large lines. */
function richSession(dir: string): string {
	const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
	const a = sm.appendMessage(user("one"));
	sm.appendMessage(assistant(`two ${"x".repeat(700)}`));
	const b = sm.appendMessage(user(`three ${"m".repeat(300)}`));
	sm.appendMessage(assistant("four", "m2", "p2"));
	sm.appendLabelChange(a, "start");
	sm.appendCustomEntry("ext.state", { n: 1, pad: "p".repeat(400) });
	sm.appendModelChange("p2", "m2");
	sm.appendThinkingLevelChange("high");
	const c = sm.appendMessage(user("five"));
	sm.appendCompaction("summary of it all", c, 1234);
	sm.appendMessage(assistant(`six ${"y".repeat(1500)}`));
	sm.appendSessionInfo("  my session  ");
	sm.branch(b);
	sm.appendMessage(user("other branch"));
	sm.appendMessage(assistant(`other answer ${"z".repeat(900)}`));
	sm.appendLabelChange(b, "fork point");
	sm.appendLabelChange(a, undefined);
	sm.appendCustomMessageEntry("ext.note", "a note", true, { k: "v" });
	const file = sm.getSessionFile() as string;
	sm.close();
	return file;
}

/** Everything a user can see of an opened session. */
function snapshot(sm: SessionManager) {
	const entries = sm.getEntries();
	return {
		header: sm.getHeader(),
		leaf: sm.getLeafId(),
		count: sm.getEntryCount(),
		entries,
		tree: sm.getTree(),
		context: sm.buildSessionContext(),
		branch: sm.getBranch(),
		labels: entries.map((e) => sm.getLabel(e.id)),
		name: sm.getSessionName(),
		warnings: sm.getLoadWarnings(),
		readOnly: sm.getReadOnlyReason(),
	};
}

function openSnapshot(file: string, indexDir: string | undefined) {
	setSessionIndexDir(indexDir);
	const sm = SessionManager.open(file, undefined, undefined, { durability: "write", readOnly: true });
	try {
		return snapshot(sm);
	} finally {
		sm.close();
		setSessionIndexDir(undefined);
	}
}

/** Loads with the index of `dir` and writes the new one; returns how the index was used. */
function load(file: string, dir: string): { use: IndexUse; tree: SessionTree; wrote: boolean; warnings: string[] } {
	const tree = new SessionTree();
	const r = loadSessionFile(file, tree, dir);
	r.saveIndex?.();
	return { use: r.index, tree, wrote: r.saveIndex !== undefined, warnings: r.state.warnings.map((w) => w.message) };
}

/** As if the file's last change were long past, so its stamp is trusted without the CRC. */
function pastRacyWindow(): void {
	const now = Date.now();
	vi.spyOn(Date, "now").mockReturnValue(now + RACY_MS + 1000);
}

function onlyIndexFile(dir: string): string {
	const names = readdirSync(dir).filter((n) => n.endsWith(".idx"));
	expect(names).toHaveLength(1);
	return join(dir, names[0]);
}

describe("session index", () => {
	it("an index hit shows the same tree, context, labels, name and warnings as a full scan", () => {
		const { file, cache } = richSessionAndCache();
		const full = openSnapshot(file, undefined);
		pastRacyWindow();
		expect(load(file, cache)).toMatchObject({ use: "scanned", wrote: true });
		expect(load(file, cache)).toMatchObject({ use: "unchanged", wrote: false });
		expect(openSnapshot(file, cache)).toEqual(full);
		expect(full.name).toBe("my session");
		expect(full.labels.filter(Boolean)).toEqual(["fork point"]);
	});

	it("an index written right after the file changed is verified by its checksum, then trusted once written again", () => {
		const { file, cache } = richSessionAndCache();
		expect(load(file, cache).use).toBe("scanned");
		const body = readFileSync(onlyIndexFile(cache)).subarray(64);
		// Written within RACY_MS of the file's last change: the stamp alone is not trusted.
		expect(load(file, cache)).toMatchObject({ use: "verified", wrote: true });
		pastRacyWindow();
		expect(load(file, cache)).toMatchObject({ use: "verified", wrote: true });
		expect(load(file, cache)).toMatchObject({ use: "unchanged", wrote: false });
		// Nothing but the stamp changed: only the 64-byte header was rewritten.
		expect(readFileSync(onlyIndexFile(cache)).subarray(64).equals(body)).toBe(true);
	});

	it("the SessionManager writes the index (at close at the latest) and appends after an index hit", () => {
		const { file, cache } = richSessionAndCache();
		pastRacyWindow();
		setSessionIndexDir(cache);
		SessionManager.open(file, undefined, undefined, { durability: "write" }).close();
		expect(load(file, cache).use).toBe("unchanged");
		setSessionIndexDir(cache);
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		const leaf = sm.getLeafId();
		const id = sm.appendMessage(user("after the hit"));
		expect(sm.getEntry(id)?.parentId).toBe(leaf);
		sm.close();
		const after = openSnapshot(file, undefined);
		expect(after.leaf).toBe(id);
		expect(after.warnings).toEqual([]);
		expect(openSnapshot(file, cache)).toEqual(after);
	});

	it("the SessionManager writes the index a second after the open, not during it", () => {
		const { file, cache } = richSessionAndCache();
		vi.useFakeTimers({ toFake: ["setTimeout"] });
		try {
			setSessionIndexDir(cache);
			const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
			expect(existsSync(cache)).toBe(false);
			vi.advanceTimersByTime(999);
			expect(existsSync(cache)).toBe(false);
			vi.advanceTimersByTime(1);
			expect(readdirSync(cache).filter((n) => n.endsWith(".idx"))).toHaveLength(1);
			sm.close();
		} finally {
			vi.useRealTimers();
		}
	});

	it("a byte changed in the indexed prefix (same size, mtime put back) is found and warned about", () => {
		const { file, cache } = richSessionAndCache();
		pastRacyWindow();
		load(file, cache);
		expect(load(file, cache).use).toBe("unchanged");
		const before = statSync(file);
		overwriteByte(file, '"five"', 1, "\x01");
		utimesSync(file, before.atime, before.mtime);
		expect(statSync(file).size).toBe(before.size);
		const r = load(file, cache);
		expect(r.use).toBe("scanned");
		// The damaged line's warning, then its child's (its parent was on that line).
		expect(r.warnings).toEqual([
			expect.stringMatching(/unparsable line/),
			expect.stringMatching(/lost in a damaged line/),
		]);
		const withIndex = openSnapshot(file, cache);
		expect(withIndex.warnings[0]).toEqual(expect.objectContaining({ message: expect.stringMatching(/unparsable/) }));
		expect(withIndex).toEqual(openSnapshot(file, undefined));
		// A file with warnings gets no index: every open scans it and warns again.
		expect(load(file, cache)).toMatchObject({ use: "scanned", wrote: false });
	});

	it("lines appended after indexing are scanned, damage among them included", () => {
		const { file, cache } = richSessionAndCache();
		pastRacyWindow();
		load(file, cache);
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		sm.appendMessage(user("appended"));
		sm.appendMessage(assistant(`appended answer ${"q".repeat(800)}`));
		sm.close();
		expect(load(file, cache)).toMatchObject({ use: "verified", wrote: true });
		expect(load(file, cache).use).toBe("unchanged");
		expect(openSnapshot(file, cache)).toEqual(openSnapshot(file, undefined));
		appendFileSync(file, '{"type":"message","id":"bad\n');
		const r = load(file, cache);
		expect(r).toMatchObject({ use: "verified", wrote: false });
		expect(r.warnings).toEqual([expect.stringMatching(/unparsable line/)]);
		const withIndex = openSnapshot(file, cache);
		expect(withIndex.warnings).toHaveLength(1);
		expect(withIndex).toEqual(openSnapshot(file, undefined));
	});

	it("a large line damaged in the file is still warned about on use after an index hit", () => {
		const { file, cache } = richSessionAndCache();
		// Damage a large line that the scan indexes without parsing: found on use, as without an index.
		overwriteByte(file, "yyyy", 0, '"');
		pastRacyWindow();
		expect(load(file, cache)).toMatchObject({ use: "scanned", wrote: true, warnings: [] });
		expect(load(file, cache).use).toBe("unchanged");
		const full = openSnapshot(file, undefined);
		expect(full.warnings).toEqual([expect.objectContaining({ message: expect.stringMatching(/does not parse/) })]);
		expect(openSnapshot(file, cache)).toEqual(full);
	});

	it("a garbage, truncated, other-version or other file's index is ignored and replaced", () => {
		const dir = tempDir();
		const cache = join(dir, "cache");
		const file = richSession(dir);
		const full = openSnapshot(file, undefined);
		pastRacyWindow();
		load(file, cache);
		const idx = onlyIndexFile(cache);
		const good = readFileSync(idx);
		const bad: [string, Buffer][] = [
			["garbage", Buffer.from("not an index at all, just some bytes".repeat(10))],
			["empty", Buffer.alloc(0)],
			["truncated", good.subarray(0, Math.floor(good.length / 2))],
			["one byte flipped", Buffer.from(good.map((b, i) => (i === good.length >> 1 ? b ^ 1 : b)))],
		];
		// Another format version, its checksums made right: rejected by the version alone.
		const other = Buffer.from(good);
		other.writeUInt32LE(INDEX_FORMAT + 1, 8);
		other.writeUInt32LE(crc32(other.subarray(0, 60)), 60);
		bad.push(["other version", other]);
		for (const [what, bytes] of bad) {
			writeFileSync(idx, bytes);
			expect({ what, use: load(file, cache).use }).toEqual({ what, use: "scanned" });
			expect(load(file, cache).use).toBe("unchanged");
		}
		// Another session's index under this session's name.
		const file2 = richSession(join(dir, "second"));
		const cache2 = join(dir, "cache2");
		load(file2, cache2);
		copyFileSync(onlyIndexFile(cache2), idx);
		expect(load(file, cache).use).toBe("scanned");
		expect(openSnapshot(file, cache)).toEqual(full);
	});

	it("a session file replaced by another (new inode) or cut shorter is scanned", () => {
		const { file, cache } = richSessionAndCache();
		pastRacyWindow();
		load(file, cache);
		const copy = `${file}.new`;
		copyFileSync(file, copy);
		appendFileSync(
			copy,
			`${JSON.stringify({ type: "custom", id: "cafe0001", parentId: null, timestamp: new Date(0).toISOString(), customType: "x" })}\n`,
		);
		renameSync(copy, file);
		expect(load(file, cache).use).toBe("scanned");
		expect(openSnapshot(file, cache)).toEqual(openSnapshot(file, undefined));
		const size = statSync(file).size;
		truncateSync(file, size - 10);
		expect(load(file, cache).use).toBe("scanned");
		expect(openSnapshot(file, cache)).toEqual(openSnapshot(file, undefined));
	});

	it("an index directory that cannot be created or written is no index, silently", () => {
		const dir = tempDir();
		const file = richSession(dir);
		const blocker = join(dir, "not-a-dir");
		writeFileSync(blocker, "");
		const cache = join(blocker, "session-index");
		expect(load(file, cache)).toMatchObject({ use: "scanned", wrote: true });
		expect(load(file, cache).use).toBe("scanned");
		expect(openSnapshot(file, cache)).toEqual(openSnapshot(file, undefined));
	});

	it("keeps at most MAX_INDEXES index files", () => {
		const dir = tempDir();
		const cache = join(dir, "cache");
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		sm.appendMessage(user("one"));
		const file = sm.getSessionFile() as string;
		sm.close();
		for (let i = 0; i < MAX_INDEXES + 3; i++) {
			const f = join(dir, `copy-${i}.jsonl`);
			copyFileSync(file, f);
			load(f, cache);
		}
		expect(readdirSync(cache).length).toBe(MAX_INDEXES);
	});
});
