// The interactive app in a headless terminal (@xterm/headless) over a real
// AgentSession with a scripted in-process stream: prompts, queueing,
// keys, commands and the editor area.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentTool } from "@pi/agent-core";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import type { SlashCommand } from "../../src/modes/interactive/commands/registry.js";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";
import { makeSession, testModel } from "../agent-session/support.js";
import { waitForScreen } from "../support/screen.js";

let mode: InteractiveMode | undefined;
afterEach(async () => {
	await mode?.shutdown();
	mode = undefined;
});

async function setup(
	extra: SlashCommand[] = [],
	cwd = "/work",
	tools?: AgentTool[],
	sessionOptions: Parameters<typeof makeSession>[0] = {},
) {
	const s = await makeSession({
		...(tools ? { customTools: tools, tools: tools.map((t) => t.name) } : {}),
		...sessionOptions,
	});
	const term = new VirtualTerminal(80, 30);
	mode = new InteractiveMode({
		session: s.session,
		cwd,
		agentDir: "/nonexistent-agent-dir",
		version: "9.9.9",
		terminal: term,
		theme: plainTheme,
		registerCommands: (r) => {
			for (const c of extra) r.register(c);
		},
	});
	void mode.run();
	const screen = async () => (await term.allLines()).join("\n");
	const waitFor = (pred: (s: string) => boolean, ms = 3000) => waitForScreen(screen, pred, ms);
	const type = (text: string) => term.typeRaw(text);
	return { ...s, term, mode, screen, waitFor, type };
}

describe("interactive app (headless terminal)", () => {
	it("shows banner and footer; a prompt renders the user message and the streamed reply", async () => {
		const app = await setup();
		let s = await app.waitFor((x) => x.includes("test-model"));
		expect(s).toContain("pi v9.9.9");
		app.fake.enqueue({ text: "Hello **there**" });
		app.type("hi pi\r");
		s = await app.waitFor((x) => x.includes("Hello there"));
		expect(s.indexOf("hi pi")).toBeLessThan(s.indexOf("Hello there"));
		expect(app.fake.calls).toHaveLength(1);
		await app.waitFor((x) => /↑10 ↓5/.test(x));
	});

	it("Enter during a run steers, Alt+Enter follows up; both are shown queued; Alt+Up takes them back", async () => {
		const app = await setup();
		let release!: () => void;
		app.fake.enqueue({ text: "working", gate: new Promise<void>((r) => (release = r)) });
		app.type("start\r");
		await app.waitFor((x) => x.includes("Working..."));
		app.type("steer me\r");
		app.type("later\x1b\r");
		let s = await app.waitFor((x) => x.includes("Follow-up: later"));
		expect(s).toContain("Steering: steer me");
		app.type("\x1b[1;3A");
		s = await app.waitFor((x) => !x.includes("Steering:"));
		expect(app.mode.editor.getText()).toBe("steer me\n\nlater");
		release();
		await app.waitFor((x) => x.includes("working") && !x.includes("Working..."));
		expect(app.fake.calls).toHaveLength(1);
	});

	it("Esc aborts a run and puts queued messages back into the editor", async () => {
		const app = await setup();
		app.fake.enqueue({ text: "never", gate: new Promise<void>(() => {}) });
		app.type("start\r");
		await app.waitFor((x) => x.includes("Working..."));
		app.type("queued one\r");
		await app.waitFor((x) => x.includes("Steering: queued one"));
		app.type("\x1b");
		await app.waitFor((x) => x.includes("Operation aborted"));
		expect(app.mode.editor.getText()).toBe("queued one");
		expect(app.session.isStreaming).toBe(false);
	});

	it("slash commands autocomplete and run; unknown ones go to the model as text", async () => {
		const calls: string[] = [];
		const app = await setup([{ name: "zeta", description: "Test command", run: (args) => void calls.push(args) }]);
		await app.waitFor((x) => x.includes("test-model"));
		app.type("/ze");
		await app.waitFor((x) => x.includes("Test command"));
		app.type("\t");
		app.type("with args\r");
		await app.waitFor(() => calls.length === 1);
		expect(calls).toEqual(["with args"]);
		app.fake.enqueue({ text: "ok" });
		app.type("/unknown thing\r");
		await app.waitFor((x) => x.includes("ok"));
		expect(JSON.stringify(app.fake.calls[0].messages.at(-1))).toContain("/unknown thing");
	});

	it("a command that throws shows its error and the app keeps running", async () => {
		const app = await setup([
			{
				name: "boom",
				description: "fails",
				run: () => {
					throw new Error("kaboom");
				},
			},
		]);
		app.type("/boom\r");
		await app.waitFor((x) => x.includes("kaboom"));
		app.type("still here");
		await app.waitFor((x) => x.includes("still here"));
	});

	it("a session write that fails is an error notice naming the file and the cause, and the app keeps running", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		// The disk fills up while the reply streams: the prompt is saved, the reply cannot be.
		const append = app.sessionManager.appendMessage.bind(app.sessionManager);
		app.sessionManager.appendMessage = (message) => {
			if (message.role !== "assistant") return append(message);
			throw Object.assign(new Error("ENOSPC: no space left on device, write"), {
				sessionFile: "/sessions/full.jsonl",
				cause: { code: "ENOSPC" },
			});
		};
		app.fake.enqueue({ text: "never shown as saved" });
		app.type("hello\r");
		const s = await app.waitFor((x) => x.includes("Session not saved"));
		expect(s).toContain("/sessions/full.jsonl");
		expect(s).toContain("ENOSPC");
		app.type("still typing");
		await app.waitFor((x) => x.includes("still typing"));
	});

	it("Esc twice on an empty editor runs the tree command when one is registered", async () => {
		const ran: string[] = [];
		const app = await setup([{ name: "tree", description: "tree", run: () => void ran.push("tree") }]);
		await app.waitFor((x) => x.includes("test-model"));
		app.type("\x1b");
		await new Promise((r) => setTimeout(r, 30));
		app.type("\x1b");
		await app.waitFor(() => ran.length === 1);
	});

	it("showInEditorArea swaps the editor for a component and back", async () => {
		let restore: (() => void) | undefined;
		const app = await setup([
			{
				name: "pick",
				description: "picker",
				run: (_a, ctx) => {
					restore = ctx.showInEditorArea({ render: () => ["PICKER HERE"], handleInput: () => restore?.() });
				},
			},
		]);
		app.type("/pick\r");
		await app.waitFor((x) => x.includes("PICKER HERE"));
		app.type("x");
		await app.waitFor((x) => !x.includes("PICKER HERE"));
		app.type("back in editor");
		await app.waitFor((x) => x.includes("back in editor"));
	});

	it("Shift+Tab cycles the thinking level, Ctrl+P the model, /thinking sets it", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		const before = app.session.thinkingLevel;
		app.type("\x1b[Z");
		await app.waitFor(() => app.session.thinkingLevel !== before);
		app.type("/thinking high\r");
		await app.waitFor((x) => /test-model • high/.test(x));
		app.type("\x10");
		await app.waitFor((x) => /plain\s*$/m.test(x));
		expect(app.session.model?.id).toBe("plain");
	});

	it("the footer shows a thinking level only when requests carry it (not for a local server without reasoning_effort)", async () => {
		const local = testModel({ id: "local-model", compat: { supportsReasoningEffort: false } });
		const app = await setup([], "/work", undefined, { model: local });
		await app.waitFor((x) => /local-model\s*$/m.test(x));
		app.type("/thinking high\r");
		await app.waitFor(() => app.session.thinkingLevel === "high");
		app.fake.enqueue({ text: "done" });
		app.type("hi\r");
		const s = await app.waitFor((x) => x.includes("done") && /local-model\s*$/m.test(x));
		expect(s).not.toMatch(/local-model • high/);
		app.type("/session\r");
		await app.waitFor((x) => x.includes("thinking not sent to this model"));
	});

	it("/copy writes the last answer as OSC 52", async () => {
		const app = await setup();
		app.fake.enqueue({ text: "copy me" });
		app.type("q\r");
		await app.waitFor((x) => x.includes("copy me"));
		app.term.takeWrites();
		app.type("/copy\r");
		await app.waitFor((x) => x.includes("Copied the last answer"));
		expect(app.term.writes.join("") + app.term.takeWrites()).toContain(
			`\x1b]52;c;${Buffer.from("copy me").toString("base64")}\x07`,
		);
	});

	it("@ offers files of the working directory by fuzzy match; Tab inserts the mention", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-mention-"));
		try {
			mkdirSync(join(dir, "src"));
			writeFileSync(join(dir, "src", "parser.ts"), "");
			writeFileSync(join(dir, "README.md"), "");
			const app = await setup([], dir);
			await app.waitFor((x) => x.includes("test-model"));
			app.type("look at @prs");
			await app.waitFor((x) => x.includes("src/parser.ts"));
			app.type("\t");
			await app.waitFor(() => app.mode.editor.getText() === "look at @src/parser.ts ");
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("Ctrl+G edits the message in $VISUAL and takes the result back", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-visual-"));
		const script = join(dir, "ed.sh");
		writeFileSync(script, '#!/bin/sh\nprintf "edited: %s" "$(cat "$1")" > "$1"\n');
		chmodSync(script, 0o755);
		const saved = process.env.VISUAL;
		process.env.VISUAL = script;
		try {
			const app = await setup();
			await app.waitFor((x) => x.includes("test-model"));
			app.type("draft");
			await app.waitFor((x) => x.includes("draft"));
			app.type("\x07");
			await app.waitFor(() => app.mode.editor.getText() === "edited: draft");
		} finally {
			if (saved === undefined) delete process.env.VISUAL;
			else process.env.VISUAL = saved;
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("a pasted clipboard image goes out with the next message (its marker in the editor)", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		const png = Buffer.from(
			"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
			"base64",
		);
		await app.mode.pasteImage(async () => png);
		expect(app.mode.editor.getText()).toBe("[image #1] ");
		app.fake.enqueue({ text: "a tiny image" });
		app.type("what is this?\r");
		await app.waitFor((x) => x.includes("a tiny image"));
		const sent = app.fake.calls[0].messages.at(-1) as { content: { type: string; data?: string }[] };
		expect(sent.content.map((c) => c.type)).toEqual(["text", "image"]);
		expect(sent.content[1].data).toBe(png.toString("base64"));
		await app.mode.pasteImage(async () => undefined);
		await app.waitFor((x) => x.includes("No image on the clipboard"));
	});

	it("Esc while a tool runs stops it promptly; the call gets a result and the app stays usable", async () => {
		const waitTool: AgentTool = {
			name: "wait",
			label: "Wait",
			description: "Waits until aborted.",
			parameters: Type.Object({}),
			execute: (_id, _params, signal) =>
				new Promise((_resolve, reject) => {
					signal?.addEventListener("abort", () => reject(new Error("wait aborted")), { once: true });
				}),
		};
		const app = await setup([], "/work", [waitTool]);
		app.fake.enqueue({ toolCalls: [{ name: "wait", args: {} }] });
		app.type("go\r");
		await app.waitFor((x) => x.includes("wait"));
		await app.waitFor(() => app.session.agent.state.pendingToolCalls.size === 1);
		const t0 = Date.now();
		app.type("\x1b");
		await app.waitFor(() => !app.session.isStreaming);
		expect(Date.now() - t0).toBeLessThan(1000);
		const results = app.session.messages.filter((m) => m.role === "toolResult");
		expect(results).toHaveLength(1);
		app.fake.enqueue({ text: "fine again" });
		app.type("next\r");
		await app.waitFor((x) => x.includes("fine again"));
	});
});
