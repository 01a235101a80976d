// Extensions in the BUILT interactive app (tmux, fake provider): upstream's
// examples, copied unmodified into test/fixtures/extensions/upstream/, drive
// ctx.ui (status, widgets, footer, header), typed extension commands and
// their completion, and errors shown inside the app.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply } from "../cli/support.js";
import { hasTmux, READY, settle, submit, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const UPSTREAM = resolve(__dirname, "../fixtures/extensions/upstream");

const app = useTmuxApp("interactive extension tests");

function start(extensions: string[], size?: { columns: number; rows: number }): TmuxPi {
	const args = extensions.flatMap((e) => ["-e", e.includes("/") ? e : join(UPSTREAM, e)]);
	return app.start({ args, ...size });
}

describe.skipIf(!hasTmux)("extensions in the interactive app (tmux)", () => {
	it("status-line: setStatus text in the footer follows turn_start and turn_end", async () => {
		app.sb.fake.enqueue(textReply("done"));
		const p = start(["status-line.ts"]);
		await p.waitFor(/^Ready$/m);
		await submit(p, "hello", "done");
		// turn_start sets "● Turn 1...", turn_end replaces it with "✓ Turn 1 complete".
		await p.waitFor(/✓ Turn 1 complete$/m);
		expect(p.screen()).not.toContain("Turn 1...");
		expect(p.exited()).toBe(false);
	});

	it("widget-placement: widgets above and below the editor", async () => {
		const p = start(["widget-placement.ts"]);
		const screen = await p.waitFor("Below editor widget");
		const lines = screen.split("\n");
		const above = lines.findIndex((l) => l.includes("Above editor widget"));
		const below = lines.findIndex((l) => l.includes("Below editor widget"));
		const model = lines.findIndex((l) => /fake-model\s*$/.test(l));
		expect(above).toBeGreaterThan(-1);
		expect(below).toBeGreaterThan(above);
		// The editor (a bordered box) sits between them; the footer after.
		expect(lines.slice(above + 1, below).some((l) => l.includes("─"))).toBe(true);
		expect(model).toBeGreaterThan(below);
	});

	it("custom-footer: the command is completed with its description, replaces the footer and restores it", async () => {
		const p = start(["custom-footer.ts"]);
		await p.waitFor(READY);
		p.type("/foo");
		await p.waitFor("Toggle custom footer");
		p.keys("Tab");
		await p.waitFor(/\/footer\s/);
		p.keys("Enter");
		await p.waitFor("Custom footer enabled");
		const custom = await p.waitFor(/↑0 ↓0 \$0\.000\s+fake-model/);
		expect(custom).not.toMatch(/0\.0%\/100k/);
		await submit(p, "/footer", "Default footer restored");
		await p.waitFor(/0\.0%\/100k/);
	});

	it("a file that cannot load and a throwing handler are notices inside the app; the session goes on", async () => {
		const bad = join(app.sb.root, "bad.ts");
		writeFileSync(bad, "export default function (pi) { pi.on(\n");
		const throwing = join(app.sb.root, "throwing.ts");
		writeFileSync(
			throwing,
			[
				"export default function (pi) {",
				'  pi.registerCommand("boom", { description: "throws", handler: async () => { throw new Error("kaboom"); } });',
				'  pi.on("input", () => { throw new Error("input handler broke"); });',
				"}",
			].join("\n"),
		);
		app.sb.fake.enqueue(textReply("still here"));
		const p = start([bad, throwing]);
		const screen = await p.waitFor(READY);
		expect(screen).toContain("bad.ts");
		await submit(p, "/boom", /Extension error \(.*throwing\.ts, command:\/boom\): kaboom/);
		await submit(p, "hello", "input handler broke");
		await p.waitFor("still here");
		expect(p.exited()).toBe(false);
		expect(app.sb.fake.requests).toHaveLength(1);
	});

	it("prompt templates and skills are in / completion with their descriptions; enableSkillCommands: false hides and disables skills", async () => {
		mkdirSync(join(app.sb.agentDir, "prompts"), { recursive: true });
		writeFileSync(
			join(app.sb.agentDir, "prompts", "review.md"),
			"---\ndescription: Review the staged diff\nargument-hint: <focus>\n---\nReview focusing on $1\n",
		);
		mkdirSync(join(app.sb.agentDir, "skills", "lint"), { recursive: true });
		writeFileSync(
			join(app.sb.agentDir, "skills", "lint", "SKILL.md"),
			"---\nname: lint\ndescription: Lint the project carefully\n---\nRun the linter.\n",
		);
		const p = start([]);
		await p.waitFor(READY);
		app.sb.fake.enqueue(textReply("reviewed"));
		p.type("/revi");
		await p.waitFor("Review the staged diff");
		p.type("ew security");
		// Enter only once the editor holds the arguments and the completion list has closed.
		await p.waitFor((screen) => screen.includes("/review security") && !screen.includes("Review the staged diff"));
		p.keys("Enter");
		await p.waitFor("reviewed");
		expect(JSON.stringify(body(app.sb.fake, 0))).toContain("Review focusing on security");
		p.type("/skill:");
		await p.waitFor("Lint the project carefully");
		p.kill();

		writeFileSync(join(app.sb.agentDir, "settings.json"), JSON.stringify({ enableSkillCommands: false }));
		const q = start([]);
		await q.waitFor(READY);
		q.type("/skill:");
		await settle(300);
		expect(q.screen()).not.toContain("Lint the project carefully");
		app.sb.fake.enqueue(textReply("as typed"));
		await submit(q, " now", "as typed");
		const sent = JSON.stringify(body(app.sb.fake, 1));
		expect(sent).toContain("/skill: now");
		expect(sent).not.toContain("Run the linter.");
	});

	it("/skill:name whose file went away after start-up: a warning naming the file in the app, the text goes on as typed", async () => {
		const skillFile = join(app.sb.agentDir, "skills", "lint", "SKILL.md");
		mkdirSync(join(app.sb.agentDir, "skills", "lint"), { recursive: true });
		writeFileSync(skillFile, "---\nname: lint\ndescription: Lint the project carefully\n---\nRun the linter.\n");
		const p = start([]);
		await p.waitFor(READY);
		rmSync(skillFile);
		app.sb.fake.enqueue(textReply("answered anyway"));
		p.type("/skill:lint now");
		await p.waitFor((screen) => screen.includes("/skill:lint now") && !screen.includes("Lint the project carefully"));
		p.keys("Enter");
		await p.waitFor(`Could not read skill ${skillFile}: ENOENT`);
		await p.waitFor("answered anyway");
		const sent = JSON.stringify(body(app.sb.fake, 0));
		expect(sent).toContain("/skill:lint now");
		expect(sent).not.toContain("Run the linter.");
		expect(p.exited()).toBe(false);
	});
});
