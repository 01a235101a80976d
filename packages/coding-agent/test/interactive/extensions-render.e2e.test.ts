// Extensions drawing in the BUILT interactive app (tmux, fake provider), with
// upstream's examples unmodified: message and entry renderers, a custom
// header, a modal editor (CustomEditor), a tool with renderCall/renderResult
// that asks through ctx.ui.custom (question), an overlay (overlay-test), and
// renderers that throw (fallback with a one-line notice).
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, body, createSandbox, type Sandbox, textReply, toolReply } from "../cli/support.js";
import { hasTmux, startPi, type TmuxPi } from "./tmux.js";

const UPSTREAM = resolve(__dirname, "../fixtures/extensions/upstream");
const READY = /fake-model\s*$/m;

let sb: Sandbox;
let pi: TmuxPi | undefined;

beforeAll(() => {
	if (!hasTmux) console.warn("tmux not found: skipping interactive extension tests (CI installs it)");
	else assertBuilt();
});
beforeEach(async () => {
	sb = await createSandbox();
});
afterEach(async () => {
	pi?.kill();
	pi = undefined;
	await sb.close();
});

function start(extensions: string[], size?: { columns: number; rows: number }, extraArgs: string[] = []): TmuxPi {
	const args = [...extensions.flatMap((e) => ["-e", e.includes("/") ? e : join(UPSTREAM, e)]), ...extraArgs];
	pi = startPi({ cwd: sb.cwd, env: sb.env, args, ...size });
	return pi;
}

describe.skipIf(!hasTmux)("extension rendering in the interactive app (tmux)", () => {
	it("message-renderer: /status draws the custom message with its renderer; ctrl+o expands it", async () => {
		const p = start(["message-renderer.ts"]);
		await p.waitFor(READY);
		p.type("/status warn disk almost full");
		p.keys("Enter");
		await p.waitFor("[WARN] disk almost full");
		expect(p.screen()).not.toContain("at ");
		p.keys("C-o");
		await p.waitFor(/^\s+at \d/m);
		// The message is in the context: the next request carries it.
		sb.fake.enqueue(textReply("noted"));
		p.type("go");
		p.keys("Enter");
		await p.waitFor("noted");
		expect(JSON.stringify(body(sb.fake, 0))).toContain("disk almost full");
	});

	it("entry-renderer: /status-card draws a durable entry that never reaches the model", async () => {
		const p = start(["entry-renderer.ts"]);
		await p.waitFor(READY);
		p.type("/status-card deploy finished");
		p.keys("Enter");
		await p.waitFor("[status] deploy finished");
		sb.fake.enqueue(textReply("ok"));
		p.type("next");
		p.keys("Enter");
		await p.waitFor(/^\s*ok$/m);
		expect(JSON.stringify(body(sb.fake, 0))).not.toContain("deploy finished");
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
		p.type("/builtin-header");
		p.keys("Enter");
		await p.waitFor("Built-in header restored");
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
		await new Promise((r) => setTimeout(r, 200));
		expect(p.screen()).not.toContain("zzz");
		// Ctrl+C (an app key) clears the editor through the custom editor.
		p.keys("C-c");
		await p.waitFor((s) => !s.includes("hello"));
		sb.fake.enqueue(textReply("typed through the modal editor"));
		p.type("i");
		p.type("ask");
		p.keys("Enter");
		await p.waitFor("typed through the modal editor");
	});

	it("question: renderCall/renderResult draw the tool; ctx.ui.custom takes the keyboard until answered", async () => {
		sb.fake.enqueue(
			toolReply("question", { question: "Which colour?", options: [{ label: "Red" }, { label: "Blue" }] }),
			textReply("Blue it is"),
		);
		const p = start(["question.ts"]);
		await p.waitFor(READY);
		p.type("pick");
		p.keys("Enter");
		const asking = await p.waitFor("Type something.");
		expect(asking).toContain("question Which colour?");
		expect(asking).toContain("Options: 1. Red, 2. Blue, 3. Type something.");
		p.keys("Down");
		p.keys("Enter");
		await p.waitFor("Blue it is");
		expect(p.screen()).toMatch(/✓ 2\. Blue/);
		const toolResult = JSON.stringify(body(sb.fake, 1));
		expect(toolResult).toContain("User selected: 2. Blue");
	});

	it("overlay-test: an overlay takes the keyboard over the app and returns its result", async () => {
		const p = start(["overlay-test.ts"]);
		await p.waitFor(READY);
		p.type("/overlay-test");
		p.keys("Enter");
		const shown = await p.waitFor("Edge Cases");
		expect(shown).toMatch(/╭─+╮/);
		p.type("abc");
		await p.waitFor("Search: abc");
		p.keys("Enter");
		await p.waitFor('Search: "abc"');
		expect(p.screen()).not.toContain("Edge Cases");
	});

	it("a renderer that throws falls back to the default rendering with a one-line notice", async () => {
		const ext = join(sb.root, "broken-renderers.ts");
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
		sb.fake.enqueue(toolReply("shout", { text: "hey" }), textReply("shouted"));
		const p = start([ext]);
		await p.waitFor(READY);
		p.type("/note hello");
		p.keys("Enter");
		await p.waitFor(/Message renderer for "note" failed: renderer bug \(default rendering shown\)/);
		expect(p.screen()).toContain("plain hello");
		p.type("go");
		p.keys("Enter");
		await p.waitFor("shouted");
		const screen = p.screen();
		expect(screen).toContain("renderCall of shout failed: call bug");
		expect(screen).toContain("renderResult of shout failed: draw bug");
		expect(screen).toContain("HEY");
		expect(p.exited()).toBe(false);
	});

	it("markdown transformers: display-only rewrites per surface, in load order; a throwing one is skipped", async () => {
		const first = join(sb.cwd, "arrows.ts");
		writeFileSync(
			first,
			[
				"export default function (pi) {",
				"  pi.registerMarkdownTransformer((md, { messageType, isStreaming, availableWidth }) =>",
				'    isStreaming ? md : md.replaceAll("-->", "→").replace("WIDTH", messageType + "@" + availableWidth));',
				"}",
			].join("\n"),
		);
		const broken = join(sb.cwd, "broken.ts");
		writeFileSync(
			broken,
			[
				"export default function (pi) {",
				'  pi.registerMarkdownTransformer(() => { throw new Error("transformer bug"); });',
				"}",
			].join("\n"),
		);
		const shout = join(sb.cwd, "shout.ts");
		writeFileSync(
			shout,
			[
				"export default function (pi) {",
				'  pi.registerMarkdownTransformer((md) => md.replaceAll("quiet", "LOUD"), { messageTypes: ["user"] });',
				"}",
			].join("\n"),
		);
		sb.fake.enqueue(textReply("plan: read --> edit WIDTH quiet"));
		const p = start([first, broken, shout], { columns: 100, rows: 30 });
		await p.waitFor(READY);
		p.type("keep quiet --> please");
		p.keys("Enter");
		const screen = await p.waitFor("plan: read → edit assistant@98 quiet");
		// User text: both the arrow chain and the user-only transformer; the assistant keeps "quiet".
		expect(screen).toContain("keep LOUD → please");
		// Display only: the request and the session keep the original text.
		expect(JSON.stringify(body(sb.fake, 0))).toContain("keep quiet --> please");
		expect(p.exited()).toBe(false);
	});
});
