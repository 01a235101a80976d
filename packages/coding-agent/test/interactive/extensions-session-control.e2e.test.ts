// A command's ctx.fork / ctx.newSession in the BUILT app (tmux, fake
// provider): the transcript is drawn afresh for the session the command moved
// to, a "before" fork puts the forked-off prompt back into the editor (as
// /fork does), and withSession runs in the new session.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply } from "../cli/support.js";
import { hasTmux, submit, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("interactive session control tests");

const EXTENSION = `
export default function (pi) {
	const userEntries = (ctx) => ctx.sessionManager.getBranch().filter((e) => e.type === "message" && e.message.role === "user");
	pi.registerCommand("redo-second", {
		handler: async (_a, ctx) => {
			await ctx.fork(userEntries(ctx)[1].id, { withSession: async (c) => c.ui.notify("forked: " + userEntries(c).length + " prompt(s) kept") });
		},
	});
	pi.registerCommand("fresh", {
		handler: async (_a, ctx) => {
			await ctx.newSession({ withSession: async (c) => c.ui.notify("fresh: " + userEntries(c).length + " prompt(s)") });
		},
	});
}
`;

describe.skipIf(!hasTmux)("ctx.fork / ctx.newSession from a command in the app (tmux)", () => {
	it("the transcript follows the session; a fork puts the prompt back in the editor", async () => {
		const file = join(app.sb.cwd, "control.js");
		writeFileSync(file, EXTENSION);
		app.sb.fake.enqueue(textReply("answer one"), textReply("answer two"));
		const p = await app.ready({ args: ["-e", file] });
		await submit(p, "question one", "answer one");
		await submit(p, "question two", "answer two");

		const forked = await submit(p, "/redo-second", "forked: 1 prompt(s) kept");
		// The second exchange is gone from the transcript; its prompt waits in the editor.
		expect(forked).toContain("answer one");
		expect(forked).not.toContain("answer two");
		expect(forked.split("question two").length - 1).toBe(1);
		expect(forked.indexOf("question two")).toBeGreaterThan(forked.indexOf("answer one"));
		// Ctrl+C clears the editor: that one "question two" was the editor's text.
		p.keys("C-c");
		await p.waitFor((s) => !s.includes("question two"));
		const fresh = await submit(p, "/fresh", "fresh: 0 prompt(s)");
		expect(fresh).not.toContain("answer one");
		expect(fresh).not.toContain("question one");
	});
});
