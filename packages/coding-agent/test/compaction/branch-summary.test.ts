// Tree navigation with branch summaries, over real HTTP; the file is checked.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_PREAMBLE } from "../../src/agent-session/compaction/prompts.js";
import { BRANCH_SUMMARY_PREFIX } from "../../src/messages.js";
import type { BranchSummaryEntry } from "../../src/session/types.js";
import { type HttpSession, kind, makeHttpSession, requestTexts, text, toolCall } from "./support.js";

let s: HttpSession | undefined;
afterEach(async () => {
	await s?.close();
	s = undefined;
});

/**
 * Two prompts, then a move back to the first with a branch summary whose request hangs: the session,
 * the leaf before the move and the pending navigation, once the summary's request is out.
 */
async function hangingBranchSummary() {
	const hs = await makeHttpSession();
	s = hs;
	hs.fake.enqueue(text("one"), text("two"));
	await hs.session.prompt("first");
	const first = hs.sessionManager.getLeafId();
	await hs.session.prompt("second");
	const leaf = hs.sessionManager.getLeafId();
	hs.fake.enqueue({ kind: "sse", bytes: Buffer.from(""), hangAfterBytes: 0 });
	const pending = hs.session.navigateTree(first ?? "", { summarize: true });
	while (hs.fake.requests.length < 3) await new Promise((r) => setTimeout(r, 5));
	return { hs, leaf, pending };
}

describe("navigateTree", () => {
	it("summarizes the abandoned path into a branch_summary at the target, which the next request carries", async () => {
		s = await makeHttpSession();
		writeFileSync(join(s.cwd, "plan.md"), "the plan");
		s.fake.enqueue(text("base answer"));
		await s.session.prompt("base question");
		const base = s.sessionManager.getLeafId();
		s.fake.enqueue(toolCall("read", { path: "plan.md" }), text("approach A failed: TypeError x is undefined"));
		await s.session.prompt("try approach A");
		const oldLeaf = s.sessionManager.getLeafId();
		s.fake.enqueue(text("## Goal\nApproach A explored; it failed."));
		const result = await s.session.navigateTree(base ?? "", { summarize: true, customInstructions: "the error" });

		const summaryReq = requestTexts(s.fake.requests[3])[1].text;
		expect(summaryReq).toContain("[User]: try approach A");
		expect(summaryReq).toContain("TypeError x is undefined");
		expect(summaryReq).not.toContain("base question");
		expect(summaryReq).toContain("Give particular attention to: the error");

		const entry = result.summaryEntry as BranchSummaryEntry;
		expect(entry).toMatchObject({ type: "branch_summary", parentId: base, fromId: oldLeaf, fromHook: false });
		expect(entry.summary).toBe(
			`${BRANCH_SUMMARY_PREAMBLE}## Goal\nApproach A explored; it failed.\n\n<read-files>\nplan.md\n</read-files>`,
		);
		expect(entry.details).toEqual({ readFiles: ["plan.md"], modifiedFiles: [] });
		const onDisk = s.fileEntries();
		expect(onDisk.at(-1)).toEqual(entry);
		// The abandoned path is still in the file.
		expect(onDisk.filter((e) => kind(e) === "message:assistant")).toHaveLength(3);

		s.fake.enqueue(text("approach B"));
		await s.session.prompt("try approach B");
		const next = requestTexts(s.fake.requests[4]);
		expect(next.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "user"]);
		expect(next[3].text).toBe(`${BRANCH_SUMMARY_PREFIX}${entry.summary}</summary>`);
		expect(next[4].text).toBe("try approach B");
	});

	it("replaceInstructions: the custom text replaces the default instructions", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(text("one"), text("two"));
		await s.session.prompt("first");
		const first = s.sessionManager.getLeafId();
		await s.session.prompt("second");
		s.fake.enqueue(text("only files"));
		await s.session.navigateTree(first ?? "", {
			summarize: true,
			customInstructions: "List the files only.",
			replaceInstructions: true,
		});
		const req = requestTexts(s.fake.requests[2])[1].text;
		expect(req.endsWith("</conversation>\n\nList the files only.")).toBe(true);
		expect(req).toContain("[User]: second");
	});

	it("choosing a user message puts the leaf on its parent and returns its text; without summary nothing is written", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(text("one"), text("two"));
		await s.session.prompt("first");
		await s.session.prompt("second");
		const entries = s.fileEntries();
		const second = entries.find((e) => e.type === "message" && JSON.stringify(e).includes('"second"'));
		const before = entries.length;
		const result = await s.session.navigateTree(second?.id ?? "");
		expect(result).toEqual({ cancelled: false, editorText: "second" });
		expect(s.sessionManager.getLeafId()).toBe(second?.parentId);
		expect(s.fileEntries()).toHaveLength(before);
		expect(s.fake.requests).toHaveLength(2);
		expect(s.session.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ text: "one" }] });
	});

	it("a branch summary can be aborted; the leaf does not move", async () => {
		const { hs, leaf, pending } = await hangingBranchSummary();
		hs.session.abortBranchSummary();
		expect(await pending).toEqual({ cancelled: true, aborted: true });
		expect(hs.sessionManager.getLeafId()).toBe(leaf);
		expect(hs.fileEntries().some((e) => e.type === "branch_summary")).toBe(false);
	});

	it("abortCompaction (Esc) also stops a branch summary being generated", async () => {
		const { hs, leaf, pending } = await hangingBranchSummary();
		expect(hs.session.isCompacting).toBe(true);
		hs.session.abortCompaction();
		expect(await pending).toEqual({ cancelled: true, aborted: true });
		expect(hs.session.isCompacting).toBe(false);
		expect(hs.sessionManager.getLeafId()).toBe(leaf);
		expect(hs.fileEntries().some((e) => e.type === "branch_summary")).toBe(false);
	});
});
