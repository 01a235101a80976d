// builtin:checkpoints in the interactive app (built pi in tmux): after the
// agent changed a file, /tree back to the first message shows the diff
// summary and the three choices; "Restore files to this point" puts the file
// back.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../../cli/support.js";
import { hasTmux, settle, submit, useTmuxApp } from "../../support/tmux-app.js";

const app = useTmuxApp("the checkpoint restore dialog test");

describe.skipIf(!hasTmux)("builtin:checkpoints in the app (tmux)", () => {
	it("/tree back offers to restore the files, with the summary, and restores them", async () => {
		const { sb } = app;
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ branchSummary: { skipPrompt: true } }));
		writeFileSync(join(sb.cwd, "a.txt"), "original\n");
		writeFileSync(join(sb.cwd, "b.txt"), "gone soon\n");
		sb.fake.enqueue(
			toolReply("bash", { command: "echo changed > a.txt && rm b.txt && echo new > c.txt" }),
			textReply("made the changes"),
		);
		const pi = await app.ready({ args: ["--no-mcp"] });
		await submit(pi, "change the files", "made the changes");
		expect(readFileSync(join(sb.cwd, "a.txt"), "utf8")).toBe("changed\n");
		await submit(pi, "/tree", "Session tree");
		for (let i = 0; i < 8; i++) pi.keys("Up");
		await settle(300);
		pi.keys("Enter");
		const dialog = await pi.waitFor("Restore files to this point", 15_000);
		expect(dialog).toContain("Files differ from that point of the session.");
		expect(dialog).toMatch(/3 files would change:/);
		expect(dialog).toMatch(/revert\s+a\.txt/);
		expect(dialog).toMatch(/restore\s+b\.txt/);
		expect(dialog).toMatch(/delete\s+c\.txt/);
		expect(dialog).toContain("Keep the files as they are");
		pi.keys("Down");
		await settle();
		pi.keys("Enter");
		// The restore runs once the leaf has moved; the app then says where it moved to.
		await pi.waitFor("edit it and send to branch", 15_000);
		const deadline = Date.now() + 10_000;
		while (readFileSync(join(sb.cwd, "a.txt"), "utf8") !== "original\n" && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 100));
		expect(readFileSync(join(sb.cwd, "a.txt"), "utf8")).toBe("original\n");
		expect(readFileSync(join(sb.cwd, "b.txt"), "utf8")).toBe("gone soon\n");
	});
});
