// Workflow extensions from upstream's examples, unmodified, in the BUILT
// interactive app (tmux, fake provider): todo (state rebuilt from the branch on
// /tree), plan-mode (flag, footer status, widget, shortcut, setActiveTools,
// a select after the run, a follow-up that triggers a turn) and preset (flag,
// setModel, setThinkingLevel, setActiveTools, system-prompt instructions).
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, toolReply } from "../cli/support.js";
import { hasTmux, settle, submit, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const UPSTREAM = resolve(__dirname, "../fixtures/extensions/upstream");

const app = useTmuxApp("interactive workflow tests");

function start(extension: string, args: string[] = []): TmuxPi {
	return app.start({ args: ["-e", join(UPSTREAM, extension), ...args], rows: 40 });
}

const toolNames = (index: number) => (body(app.sb.fake, index).tools ?? []).map((t) => t.function.name).sort();

describe.skipIf(!hasTmux)("workflow extensions in the interactive app (tmux)", () => {
	it("todo: the model's todo tool keeps a list that follows /tree back to an earlier branch point", async () => {
		app.sb.fake.enqueue(
			toolReply("todo", { action: "add", text: "buy milk" }),
			textReply("added one"),
			toolReply("todo", { action: "add", text: "write tests" }),
			textReply("added two"),
		);
		const p = start("todo.ts");
		await p.waitFor(/fake-model\s*$/m);
		await submit(p, "add milk", "added one");
		// The tool's own renderResult draws the call.
		expect(p.screen()).toContain("✓ Added #1 buy milk");
		await submit(p, "add tests", "added two");

		let screen = await submit(p, "/todos", "0/2 completed");
		expect(screen).toMatch(/#1 buy milk/);
		expect(screen).toMatch(/#2 write tests/);
		p.keys("Escape");
		await p.waitFor((s) => !s.includes("Press Escape to close"));

		// Back to the second prompt: the branch point is before the second todo was added.
		await submit(p, "/tree", "Session tree");
		for (let i = 0; i < 8 && !/→ +• user: add tests/.test(p.screen()); i++) {
			p.keys("Up");
			await settle(150);
		}
		await p.waitFor(/→ +• user: add tests/);
		p.keys("Enter");
		await p.waitFor("Summarize the branch you are leaving?");
		p.keys("Enter");
		await p.waitFor("edit it and send to branch");
		p.keys("C-u");
		screen = await submit(p, "/todos", "0/1 completed");
		expect(screen).toMatch(/#1 buy milk/);
		expect(screen).not.toContain("write tests");
	});

	it("plan-mode: --plan restricts the tools, the plan is offered for execution, progress shows in the widget and footer", async () => {
		app.sb.fake.enqueue(
			textReply("Plan:\n1. Create the hello file\n2. Print the hello file\n"),
			// Follow-ups are delivered one at a time: the step list, then the execution message.
			textReply("noted the steps"),
			textReply("[DONE:1] created it"),
		);
		const p = start("plan-mode", ["--plan"]);
		await p.waitFor("⏸ plan");
		let screen = await submit(p, "make a plan", "Plan mode - what next?");
		expect(screen).toContain("Execute the plan (track progress)");
		// Plan mode: no edit/write, and the plan-mode context reached the model.
		expect(toolNames(0)).not.toContain("edit");
		expect(toolNames(0)).not.toContain("write");
		expect(toolNames(0)).toContain("read");
		expect(JSON.stringify(body(app.sb.fake, 0))).toContain("[PLAN MODE ACTIVE]");

		p.keys("Enter");
		screen = await p.waitFor("created it");
		// The follow-ups started turns with full tools; the last one carries the execution message.
		expect(app.sb.fake.requests).toHaveLength(3);
		expect(JSON.stringify(body(app.sb.fake, 1))).toContain("**Plan Steps (2):**");
		expect(toolNames(2)).toEqual(expect.arrayContaining(["edit", "write", "bash", "read"]));
		expect(JSON.stringify(body(app.sb.fake, 2))).toContain("Execute the plan.");
		expect(JSON.stringify(body(app.sb.fake, 2))).not.toContain("[PLAN MODE ACTIVE]");
		// turn_end marked step 1: the widget and the footer follow.
		screen = await p.waitFor("📋 1/2");
		expect(screen).toContain("☐ Print the hello file");
		expect(screen).toMatch(/☑ .*[Hh]ello file/);

		// The shortcut (ctrl+alt+p) turns plan mode back on.
		p.keys("C-M-p");
		screen = await p.waitFor("Plan mode enabled");
		await p.waitFor("⏸ plan");
	});

	it("preset: --preset applies model, thinking level, tools and instructions; /preset switches", async () => {
		app.sb.writeModels({
			compat: { supportsDeveloperRole: false, supportsReasoningEffort: true },
			models: [
				{ id: "fake-model", contextWindow: 100000 },
				{ id: "think-model", contextWindow: 100000, reasoning: true },
			],
		});
		mkdirSync(app.sb.agentDir, { recursive: true });
		writeFileSync(
			join(app.sb.agentDir, "presets.json"),
			JSON.stringify({
				plan: {
					provider: "fake",
					model: "think-model",
					thinkingLevel: "high",
					tools: ["read", "grep"],
					instructions: "PLANNING RULES APPLY",
				},
				implement: {
					provider: "fake",
					model: "fake-model",
					tools: ["read", "bash", "edit", "write"],
					instructions: "IMPLEMENTATION RULES APPLY",
				},
			}),
		);
		app.sb.fake.enqueue(textReply("planned"), textReply("implemented"));
		const p = start("preset.ts", ["--preset", "plan"]);
		await p.waitFor('Preset "plan" activated');
		await p.waitFor("preset:plan");
		await submit(p, "go", "planned");
		const first = body(app.sb.fake, 0) as ReturnType<typeof body> & { reasoning_effort?: string };
		expect(first.model).toBe("think-model");
		expect(first.reasoning_effort).toBe("high");
		expect(toolNames(0)).toEqual(["grep", "read"]);
		expect(JSON.stringify(first.messages[0])).toContain("PLANNING RULES APPLY");

		await submit(p, "/preset implement", 'Preset "implement" activated');
		await p.waitFor("preset:implement");
		await submit(p, "now", "implemented");
		const second = body(app.sb.fake, 1);
		expect(second.model).toBe("fake-model");
		expect(toolNames(1)).toEqual(["bash", "edit", "read", "write"]);
		expect(JSON.stringify(second.messages[0])).toContain("IMPLEMENTATION RULES APPLY");
		expect(JSON.stringify(second)).not.toContain("PLANNING RULES APPLY");
	});
});
