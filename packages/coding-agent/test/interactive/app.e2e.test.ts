// The built `pi` app in tmux against the fake provider: start-up, the first-run
// message, a tool loop, slash commands, `!cmd`, resize.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, toolReply } from "../cli/support.js";
import { hasTmux, READY, submit, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("interactive end-to-end tests");

function start(args: string[] = [], size?: { columns: number; rows: number }): TmuxPi {
	return app.start({ args, ...size });
}

describe.skipIf(!hasTmux)("pi interactive (tmux)", () => {
	it("starts to a prompt with banner, editor and footer, and exits on ctrl+d", async () => {
		const p = start();
		const screen = await p.waitFor(READY);
		expect(screen).toContain("pi v");
		expect(screen).toContain("Model: fake/fake-model • thinking off");
		expect(screen).toContain(app.sb.cwd.replace(app.sb.home, "~"));
		expect(screen).toMatch(/0\.0%\/100k \(auto\)/);
		p.keys("C-d");
		await p.waitFor("[pi exited 0]");
	});

	it("explains how to configure a model when there is none, without crashing", async () => {
		rmSync(join(app.sb.agentDir, "models.json"));
		const p = start();
		// The notice and the footer may arrive in separate frames.
		const screen = await p.waitFor((s) => s.includes("No models available") && s.includes("no model"));
		expect(screen).toContain("models.json");
		await submit(p, "hello", "No model available: set a provider API key");
		expect(p.exited()).toBe(false);
		expect(app.sb.fake.requests).toHaveLength(0);
	});

	it("renders a tool loop: write, read, then the answer", async () => {
		app.sb.fake.enqueue(
			toolReply("write", { path: "notes.txt", content: "alpha\nbeta\n" }),
			toolReply("read", { path: "notes.txt", offset: 2, limit: 1 }),
			textReply("All **done** here."),
		);
		const p = start();
		await p.waitFor(READY);
		const screen = await submit(p, "make notes", "All done here.");
		expect(screen).toContain("make notes");
		expect(screen).toContain("write notes.txt (2 lines)");
		expect(screen).toContain("read notes.txt:2-2");
		expect(screen).toMatch(/^\s+beta$/m);
		expect(readFileSync(join(app.sb.cwd, "notes.txt"), "utf8")).toBe("alpha\nbeta\n");
		expect(app.sb.fake.requests).toHaveLength(3);
		expect(screen).toMatch(/↑\d+ ↓\d+/);
	});

	it("edit shows a coloured diff; ctrl+o expands long output", async () => {
		writeFileSync(join(app.sb.cwd, "f.txt"), "one\ntwo\nthree\n");
		app.sb.fake.enqueue(
			toolReply("edit", { path: "f.txt", edits: [{ oldText: "two", newText: "TWO" }] }),
			toolReply("bash", { command: "seq 1 30 | sed 's/^/line /'" }),
			textReply("ok"),
		);
		const p = start([], { columns: 100, rows: 60 });
		await p.waitFor(READY);
		let screen = await submit(p, "go", /^\s+ok$/m);
		expect(screen).toContain("edit f.txt");
		expect(screen).toMatch(/^\s+-two$/m);
		expect(screen).toMatch(/^\s+\+TWO$/m);
		expect(screen).toContain("line 30");
		expect(screen).not.toMatch(/^\s+line 5$/m);
		expect(screen).toContain("more lines (ctrl+o to expand)");
		p.keys("C-o");
		screen = await p.waitFor(/^\s+line 5$/m);
		expect(screen).not.toContain("more lines (ctrl+o to expand)");
	});

	it("/name names the session (footer), /new starts an empty one", async () => {
		app.sb.fake.enqueue(textReply("first answer"));
		const p = start();
		await p.waitFor(READY);
		await submit(p, "/name My Work", /• My Work\s*$/m);
		await submit(p, "hi", "first answer");
		const screen = await submit(p, "/new", "New session started");
		expect(screen).not.toContain("first answer");
		expect(screen).not.toContain("My Work");
	});

	it("!cmd runs a shell command and its output reaches the model with the next prompt; !!cmd does not", async () => {
		app.sb.fake.enqueue(textReply("seen"));
		const p = start();
		await p.waitFor(READY);
		await submit(p, "!echo visible-output; exit 3", "(exit 3)");
		await submit(p, "!!echo hidden-output", "(not sent to the model)");
		await submit(p, "what happened?", "seen");
		const sent = JSON.stringify(body(app.sb.fake, 0).messages);
		expect(sent).toContain("visible-output");
		expect(sent).toContain("Command exited with code 3");
		expect(sent).not.toContain("hidden-output");
	});

	it("/compact summarizes and shows the summary on ctrl+o", async () => {
		writeFileSync(join(app.sb.agentDir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 1 } }));
		app.sb.fake.enqueue(textReply("answer one"), textReply("answer two"));
		// A summary of the older messages (and one of a split turn's prefix, when the cut splits one).
		app.sb.fake.enqueue(textReply("THE SUMMARY TEXT"), textReply("THE SUMMARY TEXT"));
		const p = start();
		await p.waitFor(READY);
		await submit(p, "question one", "answer one");
		await submit(p, "question two", "answer two");
		await submit(p, "/compact keep it short", /compaction: [\d,]+ tokens summarized/);
		expect(JSON.stringify(body(app.sb.fake, 2).messages)).toContain("keep it short");
		p.keys("C-o");
		await p.waitFor("THE SUMMARY TEXT");
	});

	it("keeps the layout intact when the terminal is resized", async () => {
		app.sb.fake.enqueue(
			textReply("A reply long enough to wrap when the terminal becomes narrow, word after word after word."),
		);
		const p = start();
		await p.waitFor(READY);
		await submit(p, "hello", "word after word");
		p.resize(50, 30);
		const screen = await p.waitFor((s) => READY.test(s) && s.split("\n").every((l) => l.length <= 50));
		const borders = screen.split("\n").filter((l) => /^─+$/.test(l));
		expect(borders.length).toBeGreaterThanOrEqual(2);
		for (const b of borders) expect(b.length).toBe(50);
		expect(screen).toContain("after word");
		p.type("still typing");
		await p.waitFor("still typing");
	});

	it("-c continues the most recent session with its history rendered", async () => {
		app.sb.fake.enqueue(textReply("remembered answer"));
		const first = await app.sb.run(["-p", "remember this"]);
		expect(first.code).toBe(0);
		const sessions = join(app.sb.agentDir, "sessions");
		expect(existsSync(sessions)).toBe(true);
		const p = start(["-c"]);
		const screen = await p.waitFor("remembered answer");
		expect(screen).toContain("remember this");
	});
});
