// A session open adds rows for runs of plain lines at once (tree-columns.ts `appendIndexedRun`,
// IdIndex `appendNewRun`), straight from the line scanner's records. Held here to what adding the
// same lines one by one (load.ts `ingestIndexed`) makes of them: the same columns, ids, leaf,
// warnings and entry count, for sessions full of the cases that end a run (branch points, reused
// ids, a root in the middle, an unknown parent, a role without a code, long ids, short lines that
// are parsed, provider and model changes, damage).
import { closeSync, openSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	breakParentCycles,
	ingestIndexed,
	ingestObject,
	type LoadState,
	loadFromFd,
	newLoadState,
} from "../../src/session/load.js";
import { scanFd } from "../../src/session/scan.js";
import { SessionTree } from "../../src/session/tree.js";
import { CURRENT_SESSION_VERSION } from "../../src/session/types.js";
import { assistant, rng, tempDir } from "./helpers.js";

const TS = "2026-01-01T00:00:00.000Z";

/** A session of `count` entries, mostly chains, with every case that ends a run somewhere. */
function sessionText(seed: number, count: number, shortShare = 0.2, plain = false): string {
	const next = rng(seed);
	const ids: string[] = [];
	const lines = [JSON.stringify({ type: "session", version: 3, id: `s${seed}`, timestamp: TS, cwd: "/w" })];
	const filler = (n: number) => "lorem ipsum dolor é ü 字 ".repeat(Math.ceil(n / 24)).slice(0, n);
	for (let i = 0; i < count; i++) {
		const pick = next();
		let id = (i + 1).toString(16).padStart(8, "0");
		if (!plain && pick < 0.02) id = `long-${"x".repeat(66)}-${i}`; // past the run's 64-byte ids
		let parentId: string | null = ids.length > 0 ? ids[ids.length - 1] : null;
		const branch = plain ? 1 : next();
		if (branch < 0.05 && ids.length > 3)
			parentId = ids[Math.floor(next() * ids.length)]; // a branch point
		else if (branch < 0.07)
			parentId = null; // a root in the middle
		else if (branch < 0.08) parentId = "no-such-entry";
		if (!plain && next() < 0.02 && ids.length > 0) id = ids[Math.floor(next() * ids.length)]; // a reused id
		const size = next() < shortShare ? 40 : 300 + Math.floor(next() * 1500);
		const kind = plain ? next() * 0.75 : next();
		const text = filler(size);
		let body: Record<string, unknown>;
		if (kind < 0.3) body = { message: { role: "user", content: text, timestamp: 1 } };
		else if (kind < 0.6)
			body = {
				message: assistant(text, next() < 0.6 ? "claude-sonnet-4-5" : "gpt-5", next() < 0.7 ? "anthropic" : "openai"),
			};
		else if (kind < 0.75)
			body = {
				message: {
					role: "toolResult",
					toolCallId: "c1",
					toolName: "read",
					content: [{ type: "text", text }],
					isError: false,
					timestamp: 3,
				},
			};
		else if (kind < 0.8)
			body = { message: { role: "bashExecution", command: "ls", output: text, exitCode: 0, timestamp: 4 } };
		else if (kind < 0.9) body = { customType: "x", data: { text } };
		else if (kind < 0.95) body = { summary: text, firstKeptEntryId: ids[0] ?? id, tokensBefore: 10 };
		else body = { targetId: ids[0] ?? id, label: "l" };
		const type = kind < 0.8 ? "message" : kind < 0.9 ? "custom" : kind < 0.95 ? "compaction" : "label";
		const entry = { type, id, parentId, timestamp: TS, ...body };
		const line = JSON.stringify(entry);
		lines.push(line);
		if (!ids.includes(id)) ids.push(id);
	}
	return `${lines.join("\n")}\n`;
}

/** The file loaded line by line: loadFromFd without its run sink. */
function loadLineByLine(file: string): { state: LoadState; tree: SessionTree } {
	const state = newLoadState(file);
	const tree = new SessionTree();
	const fd = openSync(file, "r");
	try {
		let first = true;
		state.readRange = (offset, length) => {
			const buf = Buffer.allocUnsafe(length);
			return buf.toString("utf8", 0, readSync(fd, buf, 0, length, offset));
		};
		scanFd(
			fd,
			file,
			(obj) => {
				ingestObject(state, tree, obj, first);
				if (!obj.torn) first = false;
			},
			(w) => state.warnings.push(w),
			0,
			1,
			() => state.header !== undefined && state.version >= CURRENT_SESSION_VERSION && !state.headerProblem,
			(env, buf, line, offset, length) => {
				ingestIndexed(state, tree, env, buf, line, offset, length);
				first = false;
			},
		);
		breakParentCycles(state, tree);
	} finally {
		closeSync(fd);
	}
	return { state, tree };
}

function loadWithRuns(file: string): { state: LoadState; tree: SessionTree } {
	const state = newLoadState(file);
	const tree = new SessionTree();
	const fd = openSync(file, "r");
	try {
		loadFromFd(fd, state, tree);
	} finally {
		closeSync(fd);
	}
	return { state, tree };
}

function picture(load: { state: LoadState; tree: SessionTree }) {
	const { state, tree } = load;
	return {
		columns: tree.columns(),
		leaf: tree.leafId,
		objectCount: state.objectCount,
		warnings: state.warnings.map((w) => `${w.line}@${w.byteOffset}: ${w.message}`),
		types: Array.from({ length: tree.size }, (_, i) => [
			tree.typeAt(i),
			tree.roleAt(i),
			tree.providerAt(i),
			tree.modelAt(i),
		]),
	};
}

describe("runs of plain lines added at once", () => {
	it("make the same tree as the lines added one by one", () => {
		const dir = tempDir();
		let runs = 0;
		for (let seed = 1; seed <= 12; seed++) {
			const file = join(dir, `s${seed}.jsonl`);
			writeFileSync(file, sessionText(seed, 400));
			const one = picture(loadLineByLine(file));
			const all = picture(loadWithRuns(file));
			expect(all, `seed ${seed}`).toEqual(one);
			runs += one.columns.count;
		}
		expect(runs).toBeGreaterThan(4000);
	});

	it("make the same tree with long runs across 1 MB reads and the scanner's 512-record batches", () => {
		const dir = tempDir();
		for (let seed = 40; seed < 43; seed++) {
			const file = join(dir, `l${seed}.jsonl`);
			writeFileSync(file, sessionText(seed, 3000, 0, true));
			const one = picture(loadLineByLine(file));
			expect(one.columns.count).toBeGreaterThan(2800);
			expect(picture(loadWithRuns(file)), `seed ${seed}`).toEqual(one);
		}
	});

	it("make the same tree when damage stops the runs part way", () => {
		const dir = tempDir();
		for (let seed = 20; seed < 26; seed++) {
			const file = join(dir, `d${seed}.jsonl`);
			const lines = sessionText(seed, 300).split("\n");
			lines[100] = lines[100].slice(0, Math.floor(lines[100].length / 2)); // torn
			lines[200] = `${lines[200]}${lines[201]}`; // glued
			writeFileSync(file, lines.join("\n"));
			const one = picture(loadLineByLine(file));
			expect(one.warnings.length).toBeGreaterThan(0);
			expect(picture(loadWithRuns(file)), `seed ${seed}`).toEqual(one);
		}
	});
});
