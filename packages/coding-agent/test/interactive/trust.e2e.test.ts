// The project-trust question of the BUILT app (tmux): a folder whose .pi/
// brings an extension and a prompt template is asked about before anything
// from it loads; the three answers, the saved decision, and /trust.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasTmux, READY, settle, submit, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the trust dialog tests", {
	setup() {
		mkdirSync(join(app.sb.cwd, ".pi", "extensions"), { recursive: true });
		mkdirSync(join(app.sb.cwd, ".pi", "prompts"), { recursive: true });
		writeFileSync(
			join(app.sb.cwd, ".pi", "extensions", "hello.ts"),
			[
				"export default function (pi) {",
				'  pi.registerCommand("hello-project", { description: "from the project", handler: async (_a, ctx) => ctx.ui.notify("project extension ran") });',
				"}",
			].join("\n"),
		);
		writeFileSync(join(app.sb.cwd, ".pi", "prompts", "review.md"), "Review it\n");
	},
});

function start(args: string[] = []): TmuxPi {
	return app.start({ args });
}

const trustFile = () => join(app.sb.agentDir, "trust.json");
const savedTrust = (): unknown =>
	existsSync(trustFile()) ? JSON.parse(readFileSync(trustFile(), "utf8"))[realpathSync(app.sb.cwd)] : undefined;

async function answer(p: TmuxPi, downs: number): Promise<void> {
	const screen = await p.waitFor("Trust this folder?");
	expect(screen).toContain("extensions (run code): 1 (hello.ts)");
	expect(screen).toContain("prompt templates: 1 (review.md)");
	expect(screen).not.toMatch(READY);
	for (let i = 0; i < downs; i++) p.keys("Down");
	p.keys("Enter");
	await p.waitFor(READY);
}

async function runsProjectCommand(p: TmuxPi): Promise<boolean> {
	await submit(p, "/hello-project", "project extension ran");
	return true;
}

describe.skipIf(!hasTmux)("the trust dialog (tmux)", () => {
	it("Trust once loads the folder's extension for this run and saves nothing", async () => {
		const p = start();
		await answer(p, 0);
		expect(await runsProjectCommand(p)).toBe(true);
		expect(savedTrust()).toBeUndefined();
	});

	it("Trust always saves the decision: the next start loads without asking", async () => {
		const p = start();
		await answer(p, 1);
		expect(savedTrust()).toBe(true);
		expect(await runsProjectCommand(p)).toBe(true);
		p.kill();
		const q = start();
		await q.waitFor(READY);
		expect(q.screen()).not.toContain("Trust this folder?");
		expect(await runsProjectCommand(q)).toBe(true);
	});

	it("Don't trust starts without the folder's resources and asks again next time; /trust saves 'never'", async () => {
		const p = start();
		await answer(p, 2);
		expect(savedTrust()).toBeUndefined();
		// The question's screen made way for the app.
		expect(p.screen()).not.toContain("Trust this folder?");
		// The project's command is not there: `/` completion has no /hello-project.
		p.type("/hel");
		await p.waitFor("/hel");
		await settle(500);
		expect(p.screen()).not.toContain("from the project");

		p.keys("C-u");
		await submit(p, "/trust", "no saved decision");
		// No saved decision: "Forget the decision" (the last) is selected; one up is "Never trust".
		await p.waitFor(/→ Forget the decision/);
		p.keys("Up");
		await p.waitFor(/→ Never trust/);
		p.keys("Enter");
		await p.waitFor("now never trusted");
		expect(savedTrust()).toBe(false);
		p.kill();
		// Saved "never": no question, nothing loaded.
		const q = start();
		await q.waitFor(READY);
		expect(q.screen()).not.toContain("Trust this folder?");
	});

	it("--approve and a saved decision skip the question", async () => {
		const p = start(["--approve"]);
		await p.waitFor(READY);
		expect(p.screen()).not.toContain("Trust this folder?");
		expect(await runsProjectCommand(p)).toBe(true);
	});
});
