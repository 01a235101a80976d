// Extensions drawing in the BUILT interactive app (tmux, fake provider), with
// upstream's examples unmodified: message and entry renderers, a custom
// header, a modal editor (CustomEditor), a tool with renderCall/renderResult
// that asks through ctx.ui.custom (question), an overlay (overlay-test), and
// renderers that throw (fallback with a one-line notice).
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { SseScript } from "../../../ai/test/support/fake-provider/server.js";
import { body, textReply, toolReply } from "../cli/support.js";
import { hasTmux, READY, settle, submit, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const UPSTREAM = resolve(__dirname, "../fixtures/extensions/upstream");

const app = useTmuxApp("interactive extension tests");

function start(extensions: string[], size?: { columns: number; rows: number }, extraArgs: string[] = []): TmuxPi {
	const args = [...extensions.flatMap((e) => ["-e", e.includes("/") ? e : join(UPSTREAM, e)]), ...extraArgs];
	return app.start({ args, ...size });
}

describe.skipIf(!hasTmux)("extension rendering in the interactive app (tmux)", () => {
	it("message-renderer: /status draws the custom message with its renderer; ctrl+o expands it", async () => {
		const p = start(["message-renderer.ts"]);
		await p.waitFor(READY);
		await submit(p, "/status warn disk almost full", "[WARN] disk almost full");
		expect(p.screen()).not.toContain("at ");
		p.keys("C-o");
		await p.waitFor(/^\s+at \d/m);
		// The message is in the context: the next request carries it.
		app.sb.fake.enqueue(textReply("noted"));
		await submit(p, "go", "noted");
		expect(JSON.stringify(body(app.sb.fake, 0))).toContain("disk almost full");
	});

	it("entry-renderer: /status-card draws a durable entry that never reaches the model", async () => {
		const p = start(["entry-renderer.ts"]);
		await p.waitFor(READY);
		await submit(p, "/status-card deploy finished", "[status] deploy finished");
		app.sb.fake.enqueue(textReply("ok"));
		await submit(p, "next", /^\s*ok$/m);
		expect(JSON.stringify(body(app.sb.fake, 0))).not.toContain("deploy finished");
		p.kill();

		// Resumed, the entry is drawn again in its place: after the first exchange's prompt, before "next".
		const q = start(["entry-renderer.ts"], undefined, ["-c"]);
		const screen = await q.waitFor("[status] deploy finished");
		expect(screen.indexOf("[status] deploy finished")).toBeLessThan(screen.indexOf("next"));
	});

	it("custom-header: replaces the banner at start-up; /builtin-header restores it", async () => {
		const p = start(["custom-header.ts"]);
		const screen = await p.waitFor("shitty coding agent");
		expect(screen).not.toContain("escape interrupt");
		await submit(p, "/builtin-header", "Built-in header restored");
		await p.waitFor("escape interrupt");
		expect(p.screen()).not.toContain("shitty coding agent");
	});

	it("modal-editor: Esc switches to NORMAL, hjkl move, i inserts; app keys still work", async () => {
		const p = start(["modal-editor.ts"]);
		await p.waitFor(/ INSERT$/m);
		p.type("helo");
		await p.waitFor("helo");
		p.keys("Escape");
		await p.waitFor(/ NORMAL$/m);
		// In normal mode letters are commands: h moves left, x deletes, typed text is ignored.
		p.type("h");
		p.type("i");
		await p.waitFor(/ INSERT$/m);
		p.type("l");
		await p.waitFor("hello");
		p.keys("Escape");
		await p.waitFor(/ NORMAL$/m);
		p.type("zzz");
		await settle();
		expect(p.screen()).not.toContain("zzz");
		// Ctrl+C (an app key) clears the editor through the custom editor.
		p.keys("C-c");
		await p.waitFor((s) => !s.includes("hello"));
		app.sb.fake.enqueue(textReply("typed through the modal editor"));
		p.type("i");
		await submit(p, "ask", "typed through the modal editor");
	});

	it("a CustomEditor made with embedWorkingStatus shows the working status in its top border, not in a row of its own", async () => {
		const file = join(app.sb.cwd, "embed.ts");
		writeFileSync(
			file,
			[
				'import { CustomEditor } from "@earendil-works/pi-coding-agent";',
				"export default function (pi) {",
				'  pi.on("session_start", (_e, ctx) => ctx.ui.setEditorComponent((tui, theme, kb) => new CustomEditor(tui, theme, kb, { embedWorkingStatus: true })));',
				"}",
			].join("\n"),
		);
		// A reply that never comes: the run stays working until Esc.
		app.sb.fake.enqueue({ ...(textReply("never") as SseScript), hangAfterBytes: 0 });
		const p = start([file]);
		await p.waitFor(READY, 30_000);
		await submit(p, "wait", /^── \S Working\.\.\. \(esc to interrupt\) ─+$/m, 30_000);
		expect(p.screen().split("Working...").length - 1).toBe(1);
		p.keys("Escape");
		await p.waitFor((s) => s.includes("Operation aborted") && !s.includes("Working..."), 30_000);
		expect(p.exited()).toBe(false);
	});

	it("question: renderCall/renderResult draw the tool; ctx.ui.custom takes the keyboard until answered", async () => {
		app.sb.fake.enqueue(
			toolReply("question", { question: "Which colour?", options: [{ label: "Red" }, { label: "Blue" }] }),
			textReply("Blue it is"),
		);
		const p = start(["question.ts"]);
		await p.waitFor(READY);
		const asking = await submit(p, "pick", "Type something.");
		expect(asking).toContain("question Which colour?");
		expect(asking).toContain("Options: 1. Red, 2. Blue, 3. Type something.");
		p.keys("Down");
		p.keys("Enter");
		await p.waitFor("Blue it is");
		expect(p.screen()).toMatch(/✓ 2\. Blue/);
		const toolResult = JSON.stringify(body(app.sb.fake, 1));
		expect(toolResult).toContain("User selected: 2. Blue");
	});

	it("overlay-test: an overlay takes the keyboard over the app and returns its result", async () => {
		const p = start(["overlay-test.ts"]);
		await p.waitFor(READY);
		const shown = await submit(p, "/overlay-test", "Edge Cases");
		expect(shown).toMatch(/╭─+╮/);
		p.type("abc");
		await p.waitFor("Search: abc");
		p.keys("Enter");
		await p.waitFor('Search: "abc"');
		expect(p.screen()).not.toContain("Edge Cases");
	});

	it("a renderer that throws falls back to the default rendering with a one-line notice", async () => {
		const ext = join(app.sb.root, "broken-renderers.ts");
		writeFileSync(
			ext,
			[
				'import { Type } from "typebox";',
				"export default function (pi) {",
				'  pi.registerMessageRenderer("note", () => { throw new Error("renderer bug"); });',
				'  pi.registerCommand("note", { description: "note", handler: async (args) => pi.sendMessage({ customType: "note", content: "plain " + args, display: true }) });',
				"  pi.registerTool({",
				'    name: "shout", label: "shout", description: "shout", parameters: Type.Object({ text: Type.String() }),',
				'    async execute(_id, p) { return { content: [{ type: "text", text: p.text.toUpperCase() }], details: {} }; },',
				'    renderCall() { throw new Error("call bug"); },',
				'    renderResult() { return { render() { throw new Error("draw bug"); }, invalidate() {} }; },',
				"  });",
				"}",
			].join("\n"),
		);
		app.sb.fake.enqueue(toolReply("shout", { text: "hey" }), textReply("shouted"));
		const p = start([ext]);
		await p.waitFor(READY);
		await submit(p, "/note hello", /Message renderer for "note" failed: renderer bug \(default rendering shown\)/);
		expect(p.screen()).toContain("plain hello");
		await submit(p, "go", "shouted");
		const screen = p.screen();
		expect(screen).toContain("renderCall of shout failed: call bug");
		expect(screen).toContain("renderResult of shout failed: draw bug");
		expect(screen).toContain("HEY");
		expect(p.exited()).toBe(false);
	});

	it("markdown transformers: display-only rewrites per surface, in load order; a throwing one is skipped", async () => {
		const first = join(app.sb.cwd, "arrows.ts");
		writeFileSync(
			first,
			[
				"export default function (pi) {",
				"  pi.registerMarkdownTransformer((md, { messageType, isStreaming, availableWidth }) =>",
				'    isStreaming ? md : md.replaceAll("-->", "→").replace("WIDTH", messageType + "@" + availableWidth));',
				"}",
			].join("\n"),
		);
		const broken = join(app.sb.cwd, "broken.ts");
		writeFileSync(
			broken,
			[
				"export default function (pi) {",
				'  pi.registerMarkdownTransformer(() => { throw new Error("transformer bug"); });',
				"}",
			].join("\n"),
		);
		const shout = join(app.sb.cwd, "shout.ts");
		writeFileSync(
			shout,
			[
				"export default function (pi) {",
				'  pi.registerMarkdownTransformer((md) => md.replaceAll("quiet", "LOUD"), { messageTypes: ["user"] });',
				"}",
			].join("\n"),
		);
		app.sb.fake.enqueue(textReply("plan: read --> edit WIDTH quiet"));
		const p = start([first, broken, shout], { columns: 100, rows: 30 });
		await p.waitFor(READY);
		const screen = await submit(p, "keep quiet --> please", "plan: read → edit assistant@98 quiet");
		// User text: both the arrow chain and the user-only transformer; the assistant keeps "quiet".
		expect(screen).toContain("keep LOUD → please");
		// Display only: the request and the session keep the original text.
		expect(JSON.stringify(body(app.sb.fake, 0))).toContain("keep quiet --> please");
		expect(p.exited()).toBe(false);
	});
});
