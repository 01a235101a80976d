// The WebAssembly line scanner (wasm/line-scan.ts) against the JavaScript
// rules it replaced (line-scan-oracle.ts): for every line of generated
// sessions and of damaged copies of them, the same decision (index from the
// envelope, or parse) and the same envelope fields.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { idBytesHash } from "../../src/session/id-index.js";
import {
	acquireLineScanner,
	IDLE_SCANNER_MAX_BYTES,
	type LineScanner,
	R_CODE,
	R_END,
	R_ROLE_CODE,
	R_START,
	ROLE_NAMES,
	releaseLineScanner,
	SCAN_READ_BYTES,
} from "../../src/session/line-scan.js";
import { envelopeOf } from "../../src/session/scan.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { rng, tempDir } from "./helpers.js";
import { type OracleEnvelope, oracleLine } from "./line-scan-oracle.js";

const repoRoot = join(import.meta.dirname, "../../../..");

const WORDS = [
	"the",
	"quick",
	"brown",
	"fox",
	'say "hi"',
	"back\\slash",
	"tab\t",
	"☃ snow",
	"é",
	"𝄞",
	"\u0001",
	"}{",
	",",
];

function text(next: () => number, length: number): string {
	let s = "";
	while (s.length < length) s += `${WORDS[Math.floor(next() * WORDS.length)]} `;
	return s.slice(0, length);
}

/** One entry line as pi writes it, of roughly `size` bytes: its UTF-8 bytes, one char per byte (latin1). */
function entryLine(next: () => number, n: number, size: number): string {
	return Buffer.from(entryJson(next, n, size)).toString("latin1");
}

function entryJson(next: () => number, n: number, size: number): string {
	const id = n.toString(16).padStart(8, "0");
	const parentId = n === 1 ? null : (n - 1).toString(16).padStart(8, "0");
	const timestamp = "2026-01-01T00:00:00.000Z";
	const pick = next();
	const body = text(next, Math.max(0, size - 200));
	if (pick < 0.3)
		return JSON.stringify({
			type: "message",
			id,
			parentId,
			timestamp,
			message: { role: "user", content: [{ type: "text", text: body }], timestamp: 1 },
		});
	if (pick < 0.6)
		return JSON.stringify({
			type: "message",
			id,
			parentId,
			timestamp,
			message: {
				role: "assistant",
				content: [{ type: "text", text: body }],
				api: "anthropic-messages",
				provider: next() < 0.5 ? "anthropic" : "fake",
				model: next() < 0.5 ? "claude-sonnet-4-5" : "m",
				usage: { input: 10, output: 20, cost: { total: 0.001 } },
				stopReason: "stop",
				timestamp: 2,
			},
		});
	if (pick < 0.75)
		return JSON.stringify({
			type: "message",
			id,
			parentId,
			timestamp,
			message: { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: body }] },
		});
	if (pick < 0.85) return JSON.stringify({ type: "custom", id, parentId, timestamp, customType: "x", data: { body } });
	if (pick < 0.9) return JSON.stringify({ type: "compaction", id, parentId, timestamp, summary: body });
	if (pick < 0.95)
		return JSON.stringify({ type: "model_change", id, parentId, timestamp, provider: "p", modelId: body });
	// A nested object holding the parentId key: a false alarm for the glue check.
	return JSON.stringify({ type: "custom", id, parentId, timestamp, data: { parentId: "x", body } });
}

const SIZES = [100, 256, 257, 258, 300, 511, 512, 513, 600, 2000, 2100, 5000, 40000];

const FLIP_BYTES = [0x22, 0x5c, 0x7d, 0x7b, 0x2c, 0x3a, 0x00, 0xff, 0x49, 0x20, 0x0d, 0x30, 0x65];

/** A damaged copy of a line: cut, a byte replaced, another line glued on, or padding. */
function damage(next: () => number, line: string, other: string): string {
	const b = Buffer.from(line);
	const at = Math.floor(next() * b.length);
	const kind = next();
	if (kind < 0.25) return b.subarray(0, at).toString("latin1");
	if (kind < 0.55) {
		const copy = Buffer.from(b);
		copy[at] = FLIP_BYTES[Math.floor(next() * FLIP_BYTES.length)];
		return copy.toString("latin1");
	}
	if (kind < 0.75) return `${line}${other}`;
	if (kind < 0.85) return `${b.subarray(0, at).toString("latin1")}${other}`;
	if (kind < 0.95) return `${line}${next() < 0.5 ? "   " : "\r"}`;
	return ` ${line}`;
}

interface Found {
	env: OracleEnvelope | undefined;
	start: number;
	end: number;
}

const latin1 = (buf: Buffer, at: number, end: number) => buf.toString("latin1", at, end);

/** Every line of `bytes` (each ending in "\n") as the scanner records them, `cap` records per call. */
function scanAll(scanner: LineScanner, bytes: Buffer, cap: number): Found[] {
	const buf = scanner.buffer(bytes.length);
	bytes.copy(buf);
	const found: Found[] = [];
	let from = 0;
	for (;;) {
		const n = scanner.scan(from, bytes.length, cap, true);
		if (n === 0) break;
		const r = scanner.records;
		for (let k = 0; k < n; k++) {
			const o = k * scanner.recordInts;
			const at = (f: number) => r[o + f] - scanner.base;
			const code = r[o + R_CODE];
			let env: OracleEnvelope | undefined;
			if (code !== 0) {
				// Decoded as the open decodes it (scan.ts), its positions made strings.
				const e = envelopeOf(r, o, scanner.base, buf);
				env = {
					type: e.type,
					id: latin1(buf, e.idStart, e.idEnd),
					parentId: e.parentStart < 0 ? null : latin1(buf, e.parentStart, e.parentEnd),
				};
				if (e.role !== undefined) env.role = e.role;
				if (e.provider !== undefined) env.provider = e.provider;
				if (e.model !== undefined) env.model = e.model;
				// The hashes are id-index.ts's (the tree's table takes them as they are); a known role has its code.
				const parentHash = e.parentStart < 0 ? 0 : idBytesHash(buf, e.parentStart, e.parentEnd);
				const coded = r[o + R_ROLE_CODE] !== 0;
				if (
					e.idHash !== idBytesHash(buf, e.idStart, e.idEnd) ||
					e.parentHash !== parentHash ||
					coded !== (e.role !== undefined && ROLE_NAMES.includes(e.role))
				) {
					throw new Error(`record ${k}: hashes or role code do not match the line's envelope`);
				}
			}
			found.push({ env, start: at(R_START), end: at(R_END) });
		}
		from = scanner.consumed;
	}
	expect(scanner.consumed).toBe(bytes.length);
	return found;
}

function expected(bytes: Buffer): Found[] {
	const out: Found[] = [];
	let start = 0;
	for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, start)) {
		out.push({ env: oracleLine(bytes, start, nl), start, end: nl });
		start = nl + 1;
	}
	return out;
}

function withScanner<T>(use: (scanner: LineScanner) => T): T {
	const scanner = acquireLineScanner();
	if (!scanner) throw new Error("no WebAssembly in this Node");
	try {
		return use(scanner);
	} finally {
		releaseLineScanner(scanner);
	}
}

describe("the WebAssembly line scanner", () => {
	it("indexes well-formed lines of every size as the JavaScript rules do (decision and fields)", () => {
		for (let seed = 1; seed <= 20; seed++) {
			const next = rng(seed);
			const lines = Array.from({ length: 120 }, (_, i) =>
				entryLine(next, i + 1, SIZES[Math.floor(next() * SIZES.length)]),
			);
			const bytes = Buffer.from(`${lines.join("\n")}\n`, "latin1");
			const want = expected(bytes);
			// Most well-formed lines from 257 bytes are indexed, so the comparison is not vacuous.
			expect(want.filter((f) => f.env).length).toBeGreaterThan(40);
			withScanner((s) => {
				expect(scanAll(s, bytes, 0x7fffffff), `seed ${seed}`).toEqual(want);
				expect(scanAll(s, bytes, 7), `seed ${seed}, 7 records per call`).toEqual(want);
			});
		}
	});

	it("sends a damaged line to the parser exactly when the JavaScript rules do", () => {
		let parsed = 0;
		for (let seed = 100; seed < 160; seed++) {
			const next = rng(seed);
			const lines = Array.from({ length: 80 }, (_, i) => {
				const line = entryLine(next, i + 1, SIZES[Math.floor(next() * SIZES.length)]);
				return next() < 0.5 ? damage(next, line, entryLine(next, i + 1000, 300 + Math.floor(next() * 600))) : line;
			}).map((l) => l.replaceAll("\n", " "));
			const bytes = Buffer.from(`${lines.join("\n")}\n`, "latin1");
			const want = expected(bytes);
			parsed += want.filter((f) => f.end - f.start >= 257 && !f.env).length;
			withScanner((s) => expect(scanAll(s, bytes, 0x7fffffff), `seed ${seed}`).toEqual(want));
		}
		// The mutations do reach the parser: damaged lines long enough to be indexed were refused.
		expect(parsed).toBeGreaterThan(300);
	});

	it("reads envelope strings 16 bytes at a time as the JavaScript rules do: every length, a bad byte anywhere", () => {
		// Ids of 0..40 bytes (empty is refused), each with a backslash, a control byte, DEL or a
		// non-ASCII byte at every position in and just after it: the quote may fall before, inside or
		// after the bad byte's 16-byte block.
		const BAD = [0x5c, 0x1f, 0x7f, 0x80];
		const lines: string[] = [];
		for (let length = 0; length <= 40; length++) {
			const id = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".slice(0, length);
			const line = (idText: string) =>
				`{"type":"message","id":"${idText}","parentId":"p1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"${"x".repeat(600)}"}}`;
			lines.push(line(id));
			for (let at = 0; at <= length + 17; at++) {
				for (const bad of BAD) {
					const full = line(id);
					const pos = full.indexOf('"id":"') + 6 + at;
					lines.push(full.slice(0, pos) + String.fromCharCode(bad) + full.slice(pos + 1));
				}
			}
		}
		const bytes = Buffer.from(`${lines.join("\n")}\n`, "latin1");
		const want = expected(bytes);
		// Lines of 600+ bytes: no JSON check, the envelope reader alone refuses the bad ids.
		expect(want.filter((f) => f.env).length).toBe(40);
		expect(want.filter((f) => !f.env).length).toBeGreaterThan(1000);
		withScanner((s) => expect(scanAll(s, bytes, 0x7fffffff)).toEqual(want));
	});

	it("refuses a line with a second object glued on, found by its parentId key at any alignment", () => {
		const next = rng(7);
		withScanner((s) => {
			for (let pad = 0; pad < 40; pad++) {
				const a = JSON.stringify({
					type: "message",
					id: "0000000a",
					parentId: null,
					timestamp: "2026-01-01T00:00:00.000Z",
					message: { role: "user", content: "u".repeat(600 + pad) },
				});
				const alone = Buffer.from(`${a}\n`);
				expect(scanAll(s, alone, 10)[0].env?.id).toBe("0000000a");
				const glued = Buffer.from(`${a}${entryLine(next, 2, 300)}\n`, "latin1");
				expect(scanAll(s, glued, 10)).toEqual(expected(glued));
				expect(scanAll(s, glued, 10)[0].env, `pad ${pad}`).toBeUndefined();
			}
		});
	});

	it("keeps a line's bytes when its buffer grows, and records a 3 MB line", () => {
		const next = rng(3);
		const big = entryLine(next, 5, 3_000_000);
		const bytes = Buffer.from(`${entryLine(next, 4, 700)}\n${big}\n`, "latin1");
		withScanner((s) => {
			const small = s.buffer(1024);
			small.write("keep me", 0, "latin1");
			expect(s.buffer(8 * 1024 * 1024).toString("latin1", 0, 7)).toBe("keep me");
			const found = scanAll(s, bytes, 100);
			expect(found).toEqual(expected(bytes));
			expect(found[1].end - found[1].start).toBeGreaterThan(2_900_000);
		});
	});

	it("keeps one idle scanner for the next scan, but not one grown by a multi-MB line (its memory cannot shrink)", () => {
		const small = acquireLineScanner() as LineScanner;
		small.buffer(1024 * 1024);
		releaseLineScanner(small);
		expect(acquireLineScanner()).toBe(small);
		small.buffer(IDLE_SCANNER_MAX_BYTES + 1);
		expect(small.memoryBytes).toBeGreaterThan(IDLE_SCANNER_MAX_BYTES);
		releaseLineScanner(small);
		const next = acquireLineScanner() as LineScanner;
		expect(next).not.toBe(small);
		expect(next.memoryBytes).toBeLessThanOrEqual(IDLE_SCANNER_MAX_BYTES);
		releaseLineScanner(next);
	});

	it("holds a whole read without growing its memory (a grow detaches an ArrayBuffer, slowing every typed array after)", () => {
		// The idle scanner (maybe grown by an earlier test) goes to `held`: `fresh` is a new one.
		const held = acquireLineScanner() as LineScanner;
		const fresh = acquireLineScanner() as LineScanner;
		releaseLineScanner(held);
		try {
			const before = fresh.memoryBytes;
			const buf = fresh.buffer(SCAN_READ_BYTES);
			expect(fresh.memoryBytes).toBe(before);
			expect(buf.byteOffset + buf.length).toBeLessThanOrEqual(before);
			// A longer line still grows it.
			fresh.buffer(SCAN_READ_BYTES * 2);
			expect(fresh.memoryBytes).toBeGreaterThan(before);
		} finally {
			releaseLineScanner(fresh);
		}
	});

	it("records no line without its newline, and `consumed` points at the unfinished one", () => {
		withScanner((s) => {
			const line = entryLine(rng(1), 1, 700);
			const bytes = Buffer.from(`${line}\n${line.slice(0, 100)}`, "latin1");
			s.buffer(bytes.length).set(bytes);
			expect(s.scan(0, bytes.length, 100, true)).toBe(1);
			expect(s.consumed).toBe(Buffer.byteLength(line, "latin1") + 1);
			expect(s.scan(s.consumed, bytes.length, 100, true)).toBe(0);
		});
	});

	it("the generated module is the compiled source (scripts/generate-line-scan.ts --check)", () => {
		const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/generate-line-scan.ts", "--check"], {
			cwd: repoRoot,
			encoding: "utf8",
		});
		expect(run.stderr + run.stdout).not.toMatch(/stale|error/i);
		expect(run.status).toBe(0);
	}, 60_000);

	it("without WebAssembly (node --jitless) a session opens to the same entries and warnings, every line parsed", () => {
		const dir = tempDir();
		const file = join(dir, "s.jsonl");
		const next = rng(11);
		const header = JSON.stringify({
			type: "session",
			version: 3,
			id: "s1",
			timestamp: "2026-01-01T00:00:00.000Z",
			cwd: dir,
		});
		// Damage the parse finds at open in both ways of reading: a second object glued on, a torn line.
		const lines = Array.from({ length: 300 }, (_, i) => {
			const line = entryLine(next, i + 1, SIZES[Math.floor(next() * SIZES.length)]);
			if (i % 13 === 5) return `${line}${entryLine(next, i + 1000, 400)}`;
			if (i % 13 === 9) return line.slice(0, line.length - 1 - Math.floor(next() * 50));
			return line;
		});
		writeFileSync(file, `${header}\n${lines.join("\n")}\n`, "latin1");
		const summary = (sm: SessionManager) => ({
			ids: sm.getEntries().map((e) => e.id),
			leaf: sm.getLeafId(),
			warnings: sm.getLoadWarnings().map((w) => `${w.line}: ${w.message}`),
		});
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		const here = summary(sm);
		sm.close();
		expect(here.warnings.length).toBeGreaterThan(3);
		const script = join(dir, "open.ts");
		writeFileSync(
			script,
			[
				`import { SessionManager } from ${JSON.stringify(join(repoRoot, "packages/coding-agent/src/session/session-manager.ts"))};`,
				"if (typeof WebAssembly !== 'undefined') throw new Error('WebAssembly is still there');",
				"const sm = SessionManager.open(process.argv[2], undefined, undefined, { durability: 'write' });",
				"const out = { ids: sm.getEntries().map((e) => e.id), leaf: sm.getLeafId(), warnings: sm.getLoadWarnings().map((w) => String(w.line) + ': ' + w.message) };",
				"process.stdout.write(JSON.stringify(out));",
			].join("\n"),
		);
		const run = spawnSync(process.execPath, ["--jitless", "--import", "tsx", script, file], {
			cwd: repoRoot,
			encoding: "utf8",
		});
		expect(run.status, run.stderr).toBe(0);
		expect(JSON.parse(run.stdout)).toEqual(here);
	}, 60_000);
});
