// The built app in tmux: start-up warnings (malformed settings, a damaged
// session line) are shown inside the app, wrapped at word boundaries, not as
// raw stderr above it; on exit, the command that resumes the session.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply } from "../cli/support.js";
import { hasTmux, READY, submit, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the start-up notes tests");

const MODEL = ["--model", "fake/fake-model"];

function start(args: string[], columns = 100): TmuxPi {
	return app.start({ args, columns, rows: 40 });
}

/** Screen lines from the app's banner ("pi v…") down. */
function appLines(screen: string): string[] {
	const lines = screen.split("\n");
	const banner = lines.findIndex((l) => /^ pi v\d/.test(l));
	expect(banner).toBeGreaterThanOrEqual(0);
	return lines.slice(banner);
}

describe.skipIf(!hasTmux)("start-up notes and the resume hint (tmux)", () => {
	it("a malformed settings.json is reported inside the app, wrapped at word boundaries", async () => {
		writeFileSync(join(app.sb.agentDir, "settings.json"), '{ "theme": "dark",\n  "quietStartup": fals }');
		const p = start(MODEL, 60);
		const screen = await p.waitFor(READY);
		const lines = screen.split("\n");
		const banner = lines.findIndex((l) => /^ pi v\d/.test(l));
		const warningAt = lines.findIndex((l) => l.includes("settings.json"));
		// Below the banner (drawn by the app), not printed on stderr before it.
		expect(warningAt).toBeGreaterThan(banner);
		const text = appLines(screen).join("\n");
		expect(text).toMatch(/line 2/);
		for (const l of lines) expect(l.length).toBeLessThanOrEqual(60);
		// Word wrapping: every word of the message appears whole on some line.
		const warning = lines.slice(warningAt, warningAt + 6).join(" ");
		for (const word of ["settings.json", "defaults"]) if (text.includes(word)) expect(warning).toContain(word);
	});

	it("a damaged line in the middle of a session names file and line inside the app, and says what the context keeps", async () => {
		const file = join(app.sb.root, "s.jsonl");
		for (const q of ["one", "two", "three"]) {
			app.sb.fake.enqueue(textReply(`answer ${q}`));
			expect((await app.sb.run(["--session", file, "-p", ...MODEL, q])).code).toBe(0);
		}
		const lines = readFileSync(file, "utf8").split("\n");
		const at = lines.findIndex((l) => l.includes('"two"'));
		lines[at] = lines[at].slice(0, 70);
		writeFileSync(file, lines.join("\n"));
		const p = start(["--session", file, ...MODEL], 200);
		const screen = await p.waitFor(READY);
		const shown = appLines(screen).join("\n");
		expect(shown).toContain(`session ${file}, line ${at + 1}`);
		expect(shown).toMatch(/left out of the context; the entries before and after it are kept/);
		// The history around the damaged line is still shown.
		expect(shown).toContain("answer one");
		expect(shown).toContain("answer three");
	});

	it("a damaged session opened later with /resume is reported inside the app too", async () => {
		for (const [i, q] of ["one", "two", "three"].entries()) {
			app.sb.fake.enqueue(textReply(`answer ${q}`));
			expect((await app.sb.run([...(i > 0 ? ["-c"] : []), "-p", ...MODEL, q])).code).toBe(0);
		}
		const dir = join(app.sb.agentDir, "sessions");
		const file = readdirSync(dir, { recursive: true, withFileTypes: true })
			.filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
			.map((e) => join(e.parentPath, e.name))[0];
		const lines = readFileSync(file, "utf8").split("\n");
		const at = lines.findIndex((l) => l.includes('"two"'));
		lines[at] = lines[at].slice(0, 70);
		writeFileSync(file, lines.join("\n"));
		const p = start([...MODEL], 200);
		await p.waitFor(READY);
		await submit(p, "/resume", /→ one/);
		p.keys("Enter");
		const screen = await p.waitFor(`line ${at + 1}`);
		expect(appLines(screen).join("\n")).toContain("answer three");
	});

	it("on exit, prints how to resume the session", async () => {
		app.sb.fake.enqueue(textReply("hello there"));
		const dir = join(app.sb.root, "sessions");
		const p = start(["--session-dir", dir, "--session-id", "resume-me", ...MODEL]);
		await p.waitFor(READY);
		await submit(p, "hi", "hello there");
		p.keys("C-d");
		const screen = await p.waitFor("[pi exited 0]");
		expect(screen).toContain("To resume this session:");
		expect(screen).toMatch(new RegExp(`^pi --session-dir ${dir.replace(/[/.]/g, "\\$&")} --session resume-me$`, "m"));
	});

	it("no resume hint when nothing was saved", async () => {
		const p = start(MODEL);
		await p.waitFor(READY);
		p.keys("C-d");
		const screen = await p.waitFor("[pi exited 0]");
		expect(screen).not.toContain("To resume this session:");
	});
});
