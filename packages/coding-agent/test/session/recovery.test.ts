// Damaged files: whatever is complete loads, every skipped span is reported
// with file, line and byte offset, and the bytes on disk are never changed
// except by appending after them.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, tempDir, texts, user } from "./helpers.js";

function baseSession(): { file: string; ids: string[]; text: string } {
	const dir = tempDir();
	const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
	const ids = [sm.appendMessage(user("one")), sm.appendMessage(assistant("two")), sm.appendMessage(user("three"))];
	const file = sm.getSessionFile() as string;
	sm.close();
	return { file, ids, text: readFileSync(file, "utf8") };
}

function open(file: string): SessionManager {
	return SessionManager.open(file, undefined, undefined, { durability: "write" });
}

describe("loading damaged session files", () => {
	it("skips a truncated last line with a warning, keeps its bytes, appends on a fresh line", () => {
		const { file, ids, text } = baseSession();
		const partial = '{"type":"message","id":"deadbeef","parentId":"x","timestamp":"2026-01-01T00:00:00.000Z","mess';
		appendFileSync(file, partial);
		const sm = open(file);
		expect(sm.getEntries().map((e) => e.id)).toEqual(ids);
		expect(sm.getLeafId()).toBe(ids[2]);
		const warnings = sm.getLoadWarnings();
		expect(warnings).toEqual([
			{
				file,
				line: 5,
				byteOffset: Buffer.byteLength(text),
				message: expect.stringContaining("incomplete last line"),
			},
		]);
		const id = sm.appendMessage(user("four"));
		sm.close();
		const after = readFileSync(file, "utf8");
		expect(after.startsWith(text + partial)).toBe(true);
		expect(after.slice((text + partial).length)).toMatch(/^\n\{"type":"message","id":"[0-9a-f]{8}"/);
		const again = open(file);
		expect(again.getEntry(id)?.parentId).toBe(ids[2]);
		expect(again.getLoadWarnings()).toHaveLength(1);
		expect(again.getLoadWarnings()[0]).toMatchObject({ line: 5, message: expect.stringContaining("unparsable") });
		again.close();
	});

	it("skips garbage lines in the middle and reports each", () => {
		const { file, ids, text } = baseSession();
		const [header, ...rest] = text.split("\n");
		const damaged = [header, rest[0], "garbage here", rest[1], "\u0000\u0000{", rest[2], ""].join("\n");
		writeFileSync(file, damaged);
		const sm = open(file);
		expect(sm.getEntries().map((e) => e.id)).toEqual(ids);
		expect(sm.getLoadWarnings().map((w) => [w.line, w.byteOffset])).toEqual([
			[3, Buffer.byteLength(`${header}\n${rest[0]}\n`)],
			[5, Buffer.byteLength(`${header}\n${rest[0]}\ngarbage here\n${rest[1]}\n`)],
		]);
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:one", "assistant:two", "user:three"]);
		sm.close();
		expect(readFileSync(file, "utf8")).toBe(damaged);
	});

	it("recovers two objects glued on one line, keeping the parent chain", () => {
		const { file, ids, text } = baseSession();
		const [header, l1, l2, l3] = text.split("\n");
		writeFileSync(file, [header, `${l1}${l2}`, l3, ""].join("\n"));
		const sm = open(file);
		expect(sm.getEntries().map((e) => e.id)).toEqual(ids);
		expect(sm.getBranch().map((e) => e.id)).toEqual(ids);
		expect(sm.getLoadWarnings()).toEqual([
			expect.objectContaining({ line: 2, message: expect.stringContaining("recovered 2 object(s)") }),
		]);
		sm.close();
	});

	it("recovers the complete object after a truncated one on the same line", () => {
		const { file, ids, text } = baseSession();
		const [header, l1, l2, l3] = text.split("\n");
		writeFileSync(file, [header, l1, `${l2.slice(0, 60)}${l3}`, ""].join("\n"));
		const sm = open(file);
		expect(sm.getEntries().map((e) => e.id)).toEqual([ids[0], ids[2]]);
		expect(sm.getLoadWarnings()[0]).toMatchObject({ line: 3, message: expect.stringContaining("60 bytes skipped") });
		sm.close();
	});

	it("skips an exact duplicate line and keeps a different entry with a reused id under a new id", () => {
		const { file, ids, text } = baseSession();
		const [header, l1, l2, l3] = text.split("\n");
		const clash = l3.replace('"three"', '"other"');
		writeFileSync(file, [header, l1, l2, l2, l3, clash, ""].join("\n"));
		const sm = open(file);
		const entries = sm.getEntries();
		expect(entries.map((e) => e.id)).toEqual([...ids, `${ids[2]}~1`]);
		expect(entries[3].parentId).toBe(ids[1]);
		expect(sm.getLoadWarnings().map((w) => w.line)).toEqual([4, 6]);
		// Deterministic: a reload gives the same ids, so appends stay attached.
		const id = sm.appendMessage(user("next"));
		sm.close();
		const again = open(file);
		expect(again.getEntry(id)?.parentId).toBe(`${ids[2]}~1`);
		again.close();
	});

	it("keeps a file with a corrupt header untouched and its body readable, but refuses appends", () => {
		const { file, ids, text } = baseSession();
		const lines = text.split("\n");
		lines[0] = '{"type":"sess';
		const damaged = lines.join("\n");
		writeFileSync(file, damaged);
		const sm = open(file);
		expect(sm.isReadOnly()).toBe(true);
		expect(sm.getEntries().map((e) => e.id)).toEqual(ids);
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:one", "assistant:two", "user:three"]);
		expect(() => sm.appendMessage(user("x"))).toThrow(/read-only.*fork it/);
		sm.close();
		expect(readFileSync(file, "utf8")).toBe(damaged);
		// The way out: fork the body into a new, healthy session.
		const forked = SessionManager.forkFrom(file, "/p", join(file, "..", "forks"), {}, { durability: "write" });
		expect(forked.getEntries().map((e) => e.id)).toEqual(ids);
		expect(forked.getHeader()?.parentSession).toBe(file);
		forked.close();
	});

	it("loads a last line that is complete JSON without its newline, and appends after a newline", () => {
		const { file, ids, text } = baseSession();
		writeFileSync(file, text.slice(0, -1));
		const sm = open(file);
		expect(sm.getEntries().map((e) => e.id)).toEqual(ids);
		expect(sm.getLoadWarnings()).toEqual([]);
		sm.appendMessage(user("four"));
		sm.close();
		const after = readFileSync(file, "utf8");
		expect(after.startsWith(text)).toBe(true);
		expect(after.split("\n").filter(Boolean)).toHaveLength(5);
	});

	it("large lines indexed without parsing: damage found on use is a warning, the entry is skipped, the tree holds", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		const ids = [
			sm.appendMessage(user("small")),
			sm.appendMessage(user(`big ${"y".repeat(2000)}`)),
			sm.appendMessage(user("after")),
		];
		const file = sm.getSessionFile() as string;
		sm.close();
		const text = readFileSync(file, "utf8");
		// Break the JSON inside the big line but keep its envelope and closing brace.
		writeFileSync(file, text.replace("yyyyyyyyyy", 'yyyy"yyyyy'));
		const warnings: string[] = [];
		const again = SessionManager.open(file, undefined, undefined, {
			durability: "write",
			onWarning: (w) => warnings.push(`${w.line}@${w.byteOffset}: ${w.message}`),
		});
		expect(warnings).toEqual([]); // not parsed at load
		expect(texts(again.buildSessionContext().messages)).toEqual(["user:small", "user:after"]);
		expect(again.getBranch().map((e) => e.id)).toEqual(ids);
		expect(again.getEntry(ids[1])).toMatchObject({ type: "custom", customType: "pi.unreadable-entry" });
		const offset = Buffer.byteLength(text.split("\n").slice(0, 2).join("\n")) + 1;
		expect(warnings).toEqual([
			`3@${offset}: entry ${ids[1]} (${Buffer.byteLength(text.split("\n")[2])} bytes at offset ${offset}) does not parse; ignored`,
		]);
		again.close();
	});

	it("a resumed branch read in bulk (one read for neighbouring lines): multi-byte text, a gap, a damaged line", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		const big = (tag: string) => `${tag} ${"é☃😀".repeat(200)} ${"y".repeat(600)}`;
		const a = sm.appendMessage(user(big("a")));
		const b = sm.appendMessage(assistant(big("b")));
		// An abandoned branch between them in the file: a gap the bulk read skips or spans.
		sm.appendMessage(user(big("abandoned")));
		sm.branch(b);
		const c = sm.appendMessage(user(big("c")));
		const d = sm.appendMessage(assistant(big("d")));
		const e = sm.appendMessage(user(big("e")));
		const file = sm.getSessionFile() as string;
		const expected = sm.getBranch();
		sm.close();
		const text = readFileSync(file, "utf8");
		const warnings: string[] = [];
		const openIt = () =>
			SessionManager.open(file, undefined, undefined, {
				durability: "write",
				onWarning: (w) => warnings.push(w.message),
			});
		const again = openIt();
		expect(again.getBranch()).toEqual(expected);
		expect(texts(again.buildSessionContext().messages).map((t) => t.slice(0, 7))).toEqual([
			"user:a ",
			"assista",
			"user:c ",
			"assista",
			"user:e ",
		]);
		again.close();
		// Damage the middle entry of the branch inside its content (envelope and closing brace intact).
		const dLine = text.split("\n").find((l) => l.includes(`"id":"${d}"`)) as string;
		writeFileSync(file, text.replace(dLine, dLine.replace("yyyyyyyyyy", 'yyyy"yyyyy')));
		const damaged = openIt();
		expect(warnings).toEqual([]);
		const context = texts(damaged.buildSessionContext().messages).map((t) => t.slice(0, 7));
		expect(context).toEqual(["user:a ", "assista", "user:c ", "user:e "]);
		expect(warnings).toEqual([expect.stringContaining(`entry ${d} (`)]);
		expect(damaged.getBranch().map((x) => x.id)).toEqual([a, b, c, d, e]);
		expect(damaged.getEntry(d)).toMatchObject({ type: "custom", customType: "pi.unreadable-entry" });
		expect(damaged.getEntry(e)).toEqual(expected[4]);
		damaged.close();
	});

	it("short lines indexed without parsing: a damaged one is still found and warned about at open, before any append", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		// A line of ~400 bytes: below the large-line threshold, above the kept-in-memory size.
		const ids = [
			sm.appendMessage(user("small")),
			sm.appendMessage(user(`mid ${"y".repeat(200)}`)),
			sm.appendMessage(user("after")),
		];
		const file = sm.getSessionFile() as string;
		sm.close();
		const text = readFileSync(file, "utf8");
		const lines = text.split("\n");
		expect(Buffer.byteLength(lines[2])).toBeGreaterThan(256);
		expect(Buffer.byteLength(lines[2])).toBeLessThan(512);
		// Break the JSON inside the line but keep its envelope and closing brace.
		const damaged = text.replace("yyyyyyyyyy", 'yyyy"yyyyy');
		writeFileSync(file, damaged);
		const warnings: string[] = [];
		const again = SessionManager.open(file, undefined, undefined, {
			durability: "write",
			onWarning: (w) => warnings.push(`${w.line}@${w.byteOffset}: ${w.message}`),
		});
		const offset = Buffer.byteLength(lines.slice(0, 2).join("\n")) + 1;
		// Reported by the open itself, before anything reads the entry or appends.
		expect(warnings[0]).toMatch(new RegExp(`^3@${offset}: unparsable line`));
		// The next entry's parent was on that line: attached to the one before it.
		expect(warnings.slice(1)).toEqual([expect.stringMatching(new RegExp(`^4@\\d+: parent ${ids[1]} was lost`))]);
		const id = again.appendMessage(user("four"));
		expect(texts(again.buildSessionContext().messages)).toEqual(["user:small", "user:after", "user:four"]);
		expect(again.getBranch().map((e) => e.id)).toEqual([ids[0], ids[2], id]);
		again.close();
		expect(readFileSync(file, "utf8").startsWith(damaged)).toBe(true);
	});

	it("short well-formed lines indexed without parsing read back the same entries, tree and context", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		const ids = [
			sm.appendMessage(user(`one ${"a".repeat(300)}`)),
			sm.appendMessage(assistant(`two ${"é".repeat(150)}`)),
			sm.appendMessage(user('three "quoted" \\ \u0001 ☃')),
		];
		sm.appendLabelChange(ids[1], "checkpoint");
		const before = { entries: sm.getEntries(), tree: sm.getTree(), context: sm.buildSessionContext() };
		const file = sm.getSessionFile() as string;
		sm.close();
		const again = open(file);
		expect(again.getLoadWarnings()).toEqual([]);
		expect(again.getEntries()).toEqual(before.entries);
		expect(again.getTree()).toEqual(before.tree);
		expect(again.buildSessionContext()).toEqual(before.context);
		expect(again.getLabel(ids[1])).toBe("checkpoint");
		again.close();
	});

	it("lines longer than a read (1 MB) and lines across read boundaries load and read back unchanged", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		// Small lines between big ones put the read boundaries at varying places inside lines.
		for (let i = 0; i < 3; i++) {
			for (let k = 0; k < 50; k++) sm.appendMessage(user(`small ${i}.${k} ${"s".repeat(300 + k * 37)}`));
			sm.appendMessage(assistant(`big ${i} ${"é☃".repeat(400_000 + i * 300_000)}`));
		}
		sm.appendMessage(user("last"));
		const file = sm.getSessionFile() as string;
		const expected = sm.getBranch();
		const expectedContext = sm.buildSessionContext().messages;
		sm.close();
		const warnings: string[] = [];
		const again = SessionManager.open(file, undefined, undefined, {
			durability: "write",
			onWarning: (w) => warnings.push(w.message),
		});
		expect(again.buildSessionContext().messages).toEqual(expectedContext);
		expect(again.getBranch()).toEqual(expected);
		expect(warnings).toEqual([]);
		again.close();
	});

	it("recovers large glued lines too (they never take the unparsed path)", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		const ids = [sm.appendMessage(user(`a ${"a".repeat(1000)}`)), sm.appendMessage(user(`b ${"b".repeat(1000)}`))];
		const file = sm.getSessionFile() as string;
		sm.close();
		const [header, l1, l2] = readFileSync(file, "utf8").split("\n");
		writeFileSync(file, `${header}\n${l1}${l2}\n`);
		const again = open(file);
		expect(again.getBranch().map((e) => e.id)).toEqual(ids);
		expect(texts(again.buildSessionContext().messages)).toEqual([
			`user:a ${"a".repeat(1000)}`,
			`user:b ${"b".repeat(1000)}`,
		]);
		again.close();
	});
});
