// SessionView.fold: totals over a session's entries (its billed tokens and cost) read the entries
// held on disk once, without keeping them, and later calls fold in only what was added since.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { billedUsage } from "../../src/agent-session/session-stats.js";
import { SessionManager } from "../../src/session/session-manager.js";
import type { EntryFold } from "../../src/session/session-view.js";
import type { SessionTree } from "../../src/session/tree.js";
import type { SessionEntry } from "../../src/session/types.js";
import { assistant, tempDir, user } from "./helpers.js";

const treeOf = (sm: SessionManager) => (sm as unknown as { tree: SessionTree }).tree;

/** A session of `n` turns with long messages (held on disk after a reopen), each reply billed `i + 1` input tokens. */
function writeSession(dir: string, n: number): string {
	// Test data: written without a sync per line.
	const sm = SessionManager.create(dir, join(dir, "sessions"), {}, { durability: "write" });
	for (let i = 0; i < n; i++) {
		sm.appendMessage(user(`question ${i} ${"q".repeat(400)}`));
		const reply = assistant(`answer ${i} ${"a".repeat(400)}`);
		reply.usage = {
			...reply.usage,
			input: i + 1,
			output: 2,
			totalTokens: i + 3,
			cost: { ...reply.usage.cost, total: 0.5 },
		};
		sm.appendMessage(reply);
	}
	const file = sm.getSessionFile() as string;
	sm.close();
	return file;
}

/** Counts what it is given, to see which entries a fold reads. */
function countingFold(): EntryFold<{ seen: string[] }> & { adds: number } {
	const f = {
		adds: 0,
		wanted: (type: string, role: string | undefined) => type === "message" && role === "assistant",
		initial: () => ({ seen: [] as string[] }),
		add(acc: { seen: string[] }, e: SessionEntry) {
			f.adds++;
			if (e.type === "message" && e.message.role === "assistant") acc.seen.push(JSON.stringify(e.message.content));
		},
	};
	return f;
}

describe("SessionView.fold", () => {
	it("sums a reopened session's billed usage as the file records it, keeping none of the entries it read", () => {
		const dir = tempDir();
		const file = writeSession(dir, 300);
		const sm = SessionManager.open(file, join(dir, "sessions"));
		const totals = sm.fold(billedUsage);
		// Straight from the file's lines: 300 replies, inputs 1..300, outputs 2 each, $0.5 each.
		let input = 0;
		let cost = 0;
		for (const line of readFileSync(file, "utf8").trim().split("\n")) {
			const e = JSON.parse(line);
			if (e.type === "message" && e.message.role === "assistant") {
				input += e.message.usage.input;
				cost += e.message.usage.cost.total;
			}
		}
		expect(input).toBe((300 * 301) / 2);
		expect(totals.tokens.input).toBe(input);
		expect(totals.tokens.output).toBe(600);
		expect(totals.cost).toBeCloseTo(cost, 9);
		// The replies were read from disk and dropped: none is held in memory now.
		const tree = treeOf(sm);
		let held = 0;
		for (let i = 0; i < tree.size; i++) if (tree.valueAt(i)?.type === "message") held++;
		expect(held).toBe(0);
		sm.close();
	});

	it("folds in only the entries added since its last call, and starts over for another session", () => {
		const dir = tempDir();
		const file = writeSession(dir, 20);
		const sm = SessionManager.open(file, join(dir, "sessions"));
		const fold = countingFold();
		expect(sm.fold(fold).seen).toHaveLength(20);
		expect(fold.adds).toBe(20);
		sm.appendMessage(user("one more"));
		sm.appendMessage(assistant("the last reply"));
		const acc = sm.fold(fold);
		expect(fold.adds).toBe(21);
		expect(acc.seen.at(-1)).toContain("the last reply");
		expect(acc.seen[0]).toContain("answer 0");
		// Another session in the same manager: counted from its start.
		const other = writeSession(tempDir(), 3);
		sm.setSessionFile(other);
		expect(sm.fold(fold).seen).toHaveLength(3);
		expect(fold.adds).toBe(24);
		sm.close();
	});

	it("a line damaged on disk after the open is read as the stand-in any read makes, with its warning", () => {
		const dir = tempDir();
		const file = writeSession(dir, 5);
		const warnings: string[] = [];
		const sm = SessionManager.open(file, join(dir, "sessions"), undefined, {
			onWarning: (w) => warnings.push(w.message),
		});
		// Overwrite the third reply's bytes in place (same length), as a disk fault would.
		const text = readFileSync(file, "latin1");
		const at = text.indexOf('"answer 2 ');
		writeFileSync(file, `${text.slice(0, at)}${"#".repeat(12)}${text.slice(at + 12)}`, "latin1");
		const fold = countingFold();
		expect(sm.fold(fold).seen).toHaveLength(4);
		expect(fold.adds).toBe(5);
		expect(warnings.some((w) => w.includes("does not parse"))).toBe(true);
		sm.close();
	});
});

describe("billedUsage", () => {
	it("skips tool results whose line has no usage without parsing them, and counts the ones that have one", () => {
		const dir = tempDir();
		const sm = SessionManager.create(dir, join(dir, "sessions"));
		sm.appendMessage(user(`run it ${"q".repeat(400)}`));
		const call = assistant(`calling ${"a".repeat(400)}`);
		sm.appendMessage(call);
		const result = (text: string, usage?: object) =>
			({
				role: "toolResult",
				toolCallId: "t1",
				toolName: "bash",
				content: [{ type: "text", text }],
				isError: false,
				timestamp: 1,
				...(usage ? { usage } : {}),
			}) as never;
		sm.appendMessage(result(`plain output ${"o".repeat(600)}`));
		const nested = {
			input: 7,
			output: 3,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 10,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.25 },
		};
		sm.appendMessage(result(`a sub-agent's output ${"o".repeat(600)}`, nested));
		const file = sm.getSessionFile() as string;
		sm.close();
		const reopened = SessionManager.open(file, join(dir, "sessions"));
		const totals = reopened.fold(billedUsage);
		// The reply (1 in, 1 out) and the tool result's nested usage (7 in, 3 out, $0.25).
		expect(totals.tokens).toMatchObject({ input: 8, output: 4, total: 12 });
		expect(totals.cost).toBeCloseTo(0.25, 9);
		const lines = readFileSync(file, "utf8").trim().split("\n");
		expect(billedUsage.lineMatters?.(Buffer.from(lines[3]), 0, lines[3].length)).toBe(false);
		expect(billedUsage.lineMatters?.(Buffer.from(lines[4]), 0, lines[4].length)).toBe(true);
		reopened.close();
	});
});

describe("SessionView.forEachEntry", () => {
	it("gives each wanted entry with the id the session knows it by, keeping none read from disk", () => {
		const dir = tempDir();
		const file = writeSession(dir, 30);
		// A second line with an id already used (a copy-paste of the first user message): renamed at load.
		const lines = readFileSync(file, "utf8").trimEnd().split("\n");
		const firstUser = lines.find((l) => l.includes('"role":"user"')) as string;
		writeFileSync(file, `${lines.join("\n")}\n${firstUser.replace("question 0", "question 0 again")}\n`);
		const expected = SessionManager.open(file, join(dir, "sessions"), undefined, { readOnly: true })
			.getEntries()
			.filter((e) => e.type === "message" && e.message.role === "user")
			.map((e) => e.id);
		const sm = SessionManager.open(file, join(dir, "sessions"), undefined, { readOnly: true });
		const tree = treeOf(sm);
		const held = () => {
			let n = 0;
			for (let i = 0; i < tree.size; i++) if (tree.valueAt(i)?.type === "message") n++;
			return n;
		};
		// The load keeps the renamed duplicate (it parsed it to tell a repeat from a clash); nothing else.
		const heldAtOpen = held();
		expect(heldAtOpen).toBeLessThanOrEqual(1);
		const seen: string[] = [];
		sm.forEachEntry(
			(type, role) => type === "message" && role === "user",
			(_entry, id) => seen.push(id),
		);
		expect(seen).toEqual(expected);
		expect(new Set(seen).size).toBe(31);
		expect(held()).toBe(heldAtOpen);
	});
});

describe("SessionView.fold after a failed read", () => {
	it("starts over on the next call instead of adding the entries read before the failure twice", () => {
		const dir = tempDir();
		const file = writeSession(dir, 3000);
		const sm = SessionManager.open(file, join(dir, "sessions"));
		const tree = treeOf(sm) as unknown as { reader: (offset: number, length: number) => Buffer };
		const reader = tree.reader;
		let reads = 0;
		tree.reader = (offset, length) => {
			if (++reads === 2) throw new Error("EIO");
			return reader(offset, length);
		};
		expect(() => sm.fold(billedUsage)).toThrow("EIO");
		tree.reader = reader;
		const totals = sm.fold(billedUsage);
		expect(totals.tokens.input).toBe((3000 * 3001) / 2);
		expect(totals.tokens.output).toBe(6000);
		sm.close();
	});
});

describe("SessionView.foldSome", () => {
	it("reads about the bytes it is given per call and reaches the totals a whole fold gives", () => {
		const dir = tempDir();
		const file = writeSession(dir, 3000);
		const whole = SessionManager.open(file, join(dir, "sessions"), undefined, { readOnly: true }).fold(billedUsage);
		const sm = SessionManager.open(file, join(dir, "sessions"), undefined, { readOnly: true });
		let calls = 0;
		let step = sm.foldSome(billedUsage, 256 * 1024);
		while (!step.done) {
			calls++;
			expect(step.acc.tokens.input).toBeLessThan(whole.tokens.input);
			step = sm.foldSome(billedUsage, 256 * 1024);
		}
		// 3,000 replies of ~0.6 KB: a few steps of 512 rows each.
		expect(calls).toBeGreaterThanOrEqual(3);
		expect(step.acc).toEqual(whole);
		// Done: a whole fold now reads nothing more and gives the same.
		expect(sm.fold(billedUsage)).toEqual(whole);
	});
});

describe("SessionView.getEntriesAfter", () => {
	it("gives the entries after an id as getEntries would, reading only those", () => {
		const dir = tempDir();
		const file = writeSession(dir, 200);
		const all = SessionManager.open(file, join(dir, "sessions"), undefined, { readOnly: true }).getEntries();
		const sm = SessionManager.open(file, join(dir, "sessions"), undefined, { readOnly: true });
		const since = all[all.length - 5].id;
		expect(sm.getEntriesAfter(since)).toEqual(all.slice(-4));
		expect(sm.getEntriesAfter("no-such-id")).toBeUndefined();
		// Only the last four were read: the messages before them are still on disk.
		const tree = treeOf(sm);
		let held = 0;
		for (let i = 0; i < tree.size; i++) if (tree.valueAt(i)?.type === "message") held++;
		expect(held).toBe(4);
	});
});
