// The built `pi` in tmux against the fake provider: /model switches the model
// the next request uses, /tree moves to an earlier point and the next request
// carries the new branch, /resume and `pi -r` reopen a session with its
// history rendered. Build first: `npm run build`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DARK_THEME } from "../../src/modes/interactive/themes/builtin-themes.js";
import { body, textReply } from "../cli/support.js";
import { hasTmux, READY, submit, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the selector end-to-end tests");

function start(args: string[] = []): TmuxPi {
	return app.start({ args, columns: 110, rows: 40 });
}

/** Role and text of each user/assistant message of a recorded chat request. */
function conversation(index: number): string[] {
	return body(app.sb.fake, index)
		.messages.filter((m) => m.role === "user" || m.role === "assistant")
		.map((m) => {
			const c = m.content;
			const text =
				typeof c === "string" ? c : Array.isArray(c) ? c.map((p: { text?: string }) => p.text ?? "").join("") : "";
			return `${m.role}: ${text}`;
		});
}

describe.skipIf(!hasTmux)("selectors in the built app (tmux)", () => {
	it("/model opens the selector; the chosen model serves the next request", async () => {
		app.sb.writeModels({
			models: [
				{ id: "fake-model", contextWindow: 100000 },
				{ id: "other-model", contextWindow: 50000 },
			],
		});
		app.sb.fake.enqueue(textReply("from the other model"));
		const p = start();
		await p.waitFor(READY);
		let screen = await submit(p, "/model", "Select model");
		expect(screen).toMatch(/→ fake\/fake-model ✓/);
		expect(screen).toContain("fake/other-model");
		p.type("other");
		await p.waitFor(/→ fake\/other-model/);
		p.keys("Enter");
		screen = await p.waitFor("Model: fake/other-model");
		expect(screen).toMatch(/other-model\s*$/m);
		await submit(p, "hello", "from the other model");
		expect(body(app.sb.fake, 0).model).toBe("other-model");
	});

	it("/tree on an earlier user message puts its text in the editor; the next request carries the new branch", async () => {
		app.sb.fake.enqueue(textReply("answer one"), textReply("answer two"), textReply("answer three"));
		const p = start();
		await p.waitFor(READY);
		await submit(p, "first question", "answer one");
		await submit(p, "second question", "answer two");
		let screen = await submit(p, "/tree", "Session tree");
		expect(screen).toMatch(/→ +• assistant: answer two ← active/);
		p.keys("Up");
		await p.waitFor(/→ +• user: second question/);
		p.keys("Enter");
		await p.waitFor("Summarize the branch you are leaving?");
		p.keys("Enter");
		screen = await p.waitFor("edit it and send to branch");
		expect(screen).not.toContain("answer two");
		// The chosen message is in the editor: replace it and send.
		p.keys("C-u");
		await submit(p, "changed question", "answer three");
		expect(conversation(2)).toEqual(["user: first question", "assistant: answer one", "user: changed question"]);
	});

	it("/resume lists this folder's sessions, searches, and reopens one with its history", async () => {
		app.sb.fake.enqueue(textReply("alpha answer"));
		expect((await app.sb.run(["-p", "alpha topic"])).code).toBe(0);
		app.sb.fake.enqueue(textReply("beta answer"));
		expect((await app.sb.run(["-p", "beta topic"])).code).toBe(0);
		app.sb.fake.enqueue(textReply("continued"));
		const p = start();
		await p.waitFor(READY);
		p.type("/resume");
		p.keys("Enter");
		// The picker's frame comes first; the list fills in once the sessions are read.
		let screen = await p.waitFor(/→ beta topic +\d msg · now/);
		expect(screen).toContain("Resume session");
		expect(screen).toMatch(/ {2}alpha topic +\d msg · now/);
		p.type("alpha");
		await p.waitFor(/→ alpha topic/);
		p.keys("Enter");
		screen = await p.waitFor("alpha answer");
		expect(screen).toContain("alpha topic");
		expect(screen).toContain("Resumed session");
		await submit(p, "and more", "continued");
		expect(conversation(2)).toEqual(["user: alpha topic", "assistant: alpha answer", "user: and more"]);
	});

	it("pi -r opens the picker at start-up", async () => {
		app.sb.fake.enqueue(textReply("old answer"));
		expect((await app.sb.run(["-p", "old question"])).code).toBe(0);
		const p = start(["-r"]);
		await p.waitFor("Resume session");
		await p.waitFor(/→ old question/);
		p.keys("Enter");
		const screen = await p.waitFor("old answer");
		expect(screen).toContain("old question");
	});

	it("pi -r: Esc in the start-up picker quits", async () => {
		app.sb.fake.enqueue(textReply("old answer"));
		expect((await app.sb.run(["-p", "old question"])).code).toBe(0);
		const p = start(["-r"]);
		await p.waitFor(/→ old question/);
		p.keys("Escape");
		await p.waitFor("[pi exited 0]");
		expect(app.sb.fake.requests).toHaveLength(1);
	});

	it("--theme loads a theme file, --use-theme picks it; a broken theme file is reported at start-up", async () => {
		const themes = join(app.sb.agentDir, "themes");
		mkdirSync(themes, { recursive: true });
		writeFileSync(join(themes, "broken.json"), JSON.stringify({ name: "broken", colors: { accent: "#ffffff" } }));
		const mine = join(app.sb.root, "mine.json");
		writeFileSync(mine, JSON.stringify({ ...DARK_THEME, name: "mine" }));
		const p = start(["--theme", mine, "--use-theme", "mine"]);
		let screen = await p.waitFor(READY);
		// The message names the file with line:column, then the missing tokens.
		expect(screen).toContain(`Invalid theme ${join(themes, "broken.json")}:1:18: missing colour tokens (50)`);
		await submit(p, "/settings", "Thinking level");
		p.type("theme");
		screen = await p.waitFor(/→ Theme +mine/);
		p.keys("Escape");
		await p.waitFor((s) => !s.includes("Thinking level"));
	});
});
