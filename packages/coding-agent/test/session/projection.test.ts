import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "../../src/session/projection.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, tempDir, texts, user } from "./helpers.js";

describe("context projection", () => {
	it("follows the active branch after moving the leaf, and reset starts a new root", () => {
		const sm = SessionManager.inMemory("/p");
		const u1 = sm.appendMessage(user("q1"));
		sm.appendMessage(assistant("a1"));
		sm.appendMessage(user("q2"));
		sm.appendMessage(assistant("a2"));
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:q1", "assistant:a1", "user:q2", "assistant:a2"]);
		sm.branch(u1);
		sm.appendMessage(assistant("a1-retry"));
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:q1", "assistant:a1-retry"]);
		sm.resetLeaf();
		expect(sm.buildSessionContext().messages).toEqual([]);
		const root = sm.appendMessage(user("fresh"));
		expect(sm.getEntry(root)?.parentId).toBeNull();
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:fresh"]);
	});

	it("takes model and thinking level from the latest change or assistant on the path", () => {
		const sm = SessionManager.inMemory();
		expect(sm.buildSessionContext()).toEqual({ messages: [], thinkingLevel: "off", model: null });
		sm.appendModelChange("p0", "m0");
		sm.appendThinkingLevelChange("high");
		const u = sm.appendMessage(user("q"));
		expect(sm.buildSessionContext().model).toEqual({ provider: "p0", modelId: "m0" });
		sm.appendMessage(assistant("a", "m9", "p9"));
		expect(sm.buildSessionContext()).toMatchObject({ model: { provider: "p9", modelId: "m9" }, thinkingLevel: "high" });
		sm.branch(u);
		expect(sm.buildSessionContext().model).toEqual({ provider: "p0", modelId: "m0" });
	});

	it("replaces what a compaction covers with its summary and keeps from firstKeptEntryId", () => {
		const sm = SessionManager.inMemory();
		sm.appendMessage(user("old1"));
		sm.appendMessage(assistant("old2"));
		const keep = sm.appendMessage(user("kept1"));
		sm.appendMessage(assistant("kept2"));
		sm.appendCompaction("S1", keep, 100);
		sm.appendMessage(user("after"));
		expect(texts(sm.buildSessionContext().messages)).toEqual([
			"compactionSummary:S1",
			"user:kept1",
			"assistant:kept2",
			"user:after",
		]);
		// Only the latest compaction counts; a retain-none compaction keeps nothing before it.
		sm.appendCompaction("S2", null, 50);
		sm.appendMessage(user("later"));
		expect(texts(sm.buildSessionContext().messages)).toEqual(["compactionSummary:S2", "user:later"]);
	});

	it("turns branch summaries and custom messages into context; custom entries and labels add nothing", () => {
		const sm = SessionManager.inMemory();
		const u = sm.appendMessage(user("q"));
		sm.appendMessage(assistant("a"));
		sm.appendCustomEntry("state", { x: 1 });
		sm.appendLabelChange(u, "here");
		sm.appendSessionInfo("name");
		sm.branchWithSummary(u, "found things");
		sm.appendCustomMessageEntry("ext", [{ type: "text", text: "note" }], false);
		const ctx = sm.buildSessionContext();
		expect(texts(ctx.messages)).toEqual(["user:q", "branchSummary:found things", "custom:note"]);
		expect(ctx.messages[1]).toMatchObject({ role: "branchSummary", fromId: expect.any(String) });
	});

	it("applies context_edit: omit, replace (latest wins), branch-relative", () => {
		const sm = SessionManager.inMemory();
		sm.appendMessage(user("q"));
		const bad = sm.appendMessage(assistant("wrong"));
		const tool = sm.appendMessage({
			role: "toolResult",
			toolCallId: "c",
			toolName: "bash",
			content: [{ type: "text", text: "huge output" }],
			isError: false,
			timestamp: 1,
		});
		const beforeEdits = sm.getLeafId() as string;
		sm.appendContextEdit(tool, { content: "first replacement" });
		sm.appendContextEdit(tool, { content: "trimmed" });
		sm.appendContextEdit(bad, null);
		const ctx = sm.buildSessionContext();
		expect(texts(ctx.messages)).toEqual(["user:q", "toolResult:trimmed"]);
		expect(ctx.messages[1]).toMatchObject({ role: "toolResult", toolCallId: "c", toolName: "bash" });
		// The raw record is unchanged.
		expect(sm.getEntry(bad)).toMatchObject({ message: { content: [{ type: "text", text: "wrong" }] } });
		sm.branch(beforeEdits);
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:q", "assistant:wrong", "toolResult:huge output"]);
		expect(() => sm.appendContextEdit("nope", null)).toThrow("not found");
	});

	it("rejects edits of entries off the branch or without editable content", () => {
		const sm = SessionManager.inMemory();
		const u = sm.appendMessage(user("q"));
		const a = sm.appendMessage(assistant("a"));
		const setting = sm.appendThinkingLevelChange("low");
		sm.branch(u);
		expect(() => sm.appendContextEdit(a, null)).toThrow("not on the active branch");
		sm.branch(setting);
		expect(() => sm.appendContextEdit(setting, null)).toThrow("does not contribute editable model content");
	});

	it("keeps earlier projections unchanged when later edits arrive", () => {
		const sm = SessionManager.inMemory();
		const u = sm.appendMessage(user("q"));
		const first = sm.buildSessionProjection();
		sm.appendContextEdit(u, { content: "edited" });
		expect(texts(first.messages)).toEqual(["user:q"]);
		expect(texts(first.entries[0].messages)).toEqual(["user:q"]);
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:edited"]);
	});

	it("incremental projection equals a fresh projection of the same file after random operations", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		let seed = 7;
		const rnd = (n: number) => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed % n;
		};
		const ids: string[] = [];
		for (let i = 0; i < 400; i++) {
			const op = rnd(20);
			const branchIds = sm.getBranch().map((e) => e.id);
			const editable = sm
				.getBranch()
				.filter((e) => e.type === "message" && (e.message.role === "user" || e.message.role === "assistant"));
			if (op < 6) ids.push(sm.appendMessage(user(`u${i}`)));
			else if (op < 11) ids.push(sm.appendMessage(assistant(`a${i}`, `m${rnd(3)}`)));
			else if (op === 11 && ids.length > 0) sm.branch(ids[rnd(ids.length)]);
			else if (op === 12 && branchIds.length > 2) sm.appendCompaction(`s${i}`, branchIds[rnd(branchIds.length)], i);
			else if (op === 13 && editable.length > 0) {
				sm.appendContextEdit(editable[rnd(editable.length)].id, rnd(2) ? null : { content: `e${i}` });
			} else if (op === 14 && ids.length > 0) sm.branchWithSummary(ids[rnd(ids.length)], `b${i}`);
			else if (op === 15) sm.appendThinkingLevelChange(["low", "high"][rnd(2)]);
			else if (op === 16) sm.appendCustomMessageEntry("x", `c${i}`, true);
			else if (op === 17 && branchIds.length > 0) sm.appendLabelChange(branchIds[rnd(branchIds.length)], `l${i}`);
			else ids.push(sm.appendMessage(user(`v${i}`)));
			const incremental = sm.buildSessionContext();
			const fresh = buildSessionContext(sm.getEntries(), sm.getLeafId());
			expect(incremental).toEqual(fresh);
			// Branch reads (served from the projector's cached path when it reaches it) equal a parent walk.
			const byId = new Map(sm.getEntries().map((e) => [e.id, e]));
			const walk = (id: string | null) => {
				const out: string[] = [];
				for (let e = id ? byId.get(id) : undefined; e; e = e.parentId ? byId.get(e.parentId) : undefined)
					out.push(e.id);
				return out.reverse();
			};
			expect(sm.getBranch().map((e) => e.id)).toEqual(walk(sm.getLeafId()));
			const some = ids[i % Math.max(ids.length, 1)] ?? null;
			expect(sm.getBranch(some ?? undefined).map((e) => e.id)).toEqual(walk(some ?? sm.getLeafId()));
			expect(sm.getBranchEntries("custom_message").map((e) => e.id)).toEqual(
				walk(sm.getLeafId()).filter((id) => byId.get(id)?.type === "custom_message"),
			);
		}
		// And after reopening from disk (lazy entries, leaf = last entry in the file).
		const leaf = sm.getEntries().at(-1)?.id as string;
		sm.branch(leaf);
		const before = sm.buildSessionContext();
		const file = sm.getSessionFile() as string;
		sm.close();
		const again = SessionManager.open(file);
		expect(again.buildSessionContext()).toEqual(before);
		again.close();
	});
});

describe("very large sessions", () => {
	/** `entries` user messages after the header: one chain, or (flat) all children of the first. */
	function writeSession(file: string, entries: number, flat: boolean): void {
		const ts = "2026-01-01T00:00:00.000Z";
		const out = [JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: ts, cwd: "/p" })];
		for (let i = 1; i <= entries; i++) {
			const id = i.toString(16).padStart(8, "0");
			const parentId = i === 1 ? null : flat ? "00000001" : (i - 1).toString(16).padStart(8, "0");
			const message = { role: "user", content: [{ type: "text", text: `m${i}` }], timestamp: 1 };
			out.push(JSON.stringify({ type: "message", id, parentId, timestamp: ts, message }));
		}
		writeFileSync(file, `${out.join("\n")}\n`);
	}

	it("a 150k-entry branch without a compaction projects whole, and /tree's data for 150k children of one entry builds (no spread of the branch onto the stack)", () => {
		const dir = tempDir();
		const chain = join(dir, "chain.jsonl");
		writeSession(chain, 150_000, false);
		const sm = SessionManager.open(chain, undefined, undefined, { durability: "write" });
		const messages = sm.buildSessionContext().messages;
		expect(messages).toHaveLength(150_000);
		expect(texts([messages[0], messages[149_999]])).toEqual(["user:m1", "user:m150000"]);
		sm.close();
		const flat = join(dir, "flat.jsonl");
		writeSession(flat, 150_000, true);
		const wide = SessionManager.open(flat, undefined, undefined, { durability: "write" });
		const roots = wide.getTree();
		expect(roots).toHaveLength(1);
		expect(roots[0].children).toHaveLength(149_999);
		wide.close();
	});
});
