// The compaction and tree hooks (`session_before_compact`, `session_compact`,
// `session_before_tree`, `session_tree`) reach the compactor and navigateTree
// once installed on the session with setLifecycleHooks, and are gone after
// the returned function ran.
import { afterEach, describe, expect, it } from "vitest";
import type { BeforeCompactEvent, TreeChangedEvent, TreePreparation } from "../../src/extensions/session-hooks.js";
import type { CompactionEntry } from "../../src/session/types.js";
import { tokens } from "./messages.js";
import { type HttpSession, kind, makeHttpSession, text } from "./support.js";

let s: HttpSession | undefined;
afterEach(async () => {
	await s?.close();
	s = undefined;
});

const settings = { compaction: { enabled: false, reserveTokens: 2000, keepRecentTokens: 100 } };
const model = { contextWindow: 10_000 };

describe("session lifecycle hooks", () => {
	it("a before-compact hook supplies the summary (no summary request); the after hook sees the stored entry", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one"), text("two"));
		await s.session.prompt(`first ${tokens(300)}`);
		await s.session.prompt(`second ${tokens(300)}`);
		const seen: { before?: BeforeCompactEvent; after?: { entry: CompactionEntry; fromExtension: boolean } } = {};
		const remove = s.session.setLifecycleHooks({
			beforeCompact: (event) => {
				seen.before = event;
				const { firstKeptEntryId, tokensBefore } = event.preparation;
				return { compaction: { summary: "EXTENSION SUMMARY", firstKeptEntryId, tokensBefore } };
			},
			afterCompact: (entry, fromExtension) => {
				seen.after = { entry, fromExtension };
			},
		});
		const result = await s.session.compact("keep names");
		expect(s.fake.requests).toHaveLength(2);
		expect(result.summary).toBe("EXTENSION SUMMARY");
		expect(seen.before).toMatchObject({ reason: "manual", customInstructions: "keep names", willRetry: false });
		expect(seen.after?.fromExtension).toBe(true);
		expect(seen.after?.entry).toMatchObject({ type: "compaction", summary: "EXTENSION SUMMARY", fromHook: true });

		remove();
		s.fake.enqueue(text("three"), text("## Goal\nMODEL SUMMARY"));
		await s.session.prompt(`third ${tokens(300)}`);
		expect((await s.session.compact()).summary).toContain("MODEL SUMMARY");
	});

	it("a before-compact hook can cancel; nothing is stored", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one"), text("two"));
		await s.session.prompt(`first ${tokens(300)}`);
		await s.session.prompt(`second ${tokens(300)}`);
		s.session.setLifecycleHooks({ beforeCompact: () => ({ cancel: true }) });
		await expect(s.session.compact()).rejects.toThrow("Compaction aborted");
		expect(s.fileEntries().map(kind)).not.toContain("compaction");
	});

	it("tree hooks can cancel a move, and hear where the leaf went", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one"), text("two"));
		await s.session.prompt("first");
		const afterFirst = s.sessionManager.getLeafId() ?? "";
		await s.session.prompt("second");
		const leaf = s.sessionManager.getLeafId();

		const before: TreePreparation[] = [];
		const after: TreeChangedEvent[] = [];
		s.session.setLifecycleHooks({
			beforeTree: (p) => {
				before.push(p);
				return before.length === 1 ? { cancel: true } : { label: "from-hook" };
			},
			afterTree: (e) => {
				after.push(e);
			},
		});
		expect(await s.session.navigateTree(afterFirst)).toEqual({ cancelled: true });
		expect(s.sessionManager.getLeafId()).toBe(leaf);
		expect(after).toEqual([]);

		await s.session.navigateTree(afterFirst);
		expect(before[1]).toMatchObject({ targetId: afterFirst, oldLeafId: leaf, userWantsSummary: false });
		// The label the hook chose is recorded (a label entry, now the leaf, on top of the target).
		expect(s.sessionManager.getLabel(afterFirst)).toBe("from-hook");
		expect(after).toEqual([{ newLeafId: s.sessionManager.getLeafId(), oldLeafId: leaf }]);
		expect(s.sessionManager.getLeafEntry()?.parentId).toBe(afterFirst);
	});
});
