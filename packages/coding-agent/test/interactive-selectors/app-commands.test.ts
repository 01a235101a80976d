// The selector commands inside the whole app (headless terminal, real
// AgentSession with a scripted stream): /fork, /clone, /session, /settings,
// Ctrl+L, Esc Esc → /tree with a branch summary, and live theme reload.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamFn } from "@pi/agent-core";
import { AssistantStreamWriter } from "@pi/ai";
import { afterEach, describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { DARK_THEME } from "../../src/modes/interactive/themes/builtin-themes.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "../agent-session/support.js";
import { waitForScreen } from "../support/screen.js";

let mode: InteractiveMode | undefined;
const dirs: string[] = [];
afterEach(async () => {
	await mode?.shutdown();
	mode = undefined;
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Conversation roles (system messages left out). */
function roles(messages: readonly { role: string }[]): string[] {
	return messages.map((m) => m.role).filter((r) => r !== "system");
}

async function setup(options: { withThemes?: boolean; columns?: number; themeJson?: object } = {}) {
	const root = mkdtempSync(join(tmpdir(), "pi-sel-app-"));
	dirs.push(root);
	const agentDir = join(root, "agent");
	const sessionDir = join(root, "sessions");
	mkdirSync(agentDir, { recursive: true });
	// Theme files come from the resource loader at start-up, so a custom theme exists before the app does.
	const themeFiles: string[] = [];
	if (options.themeJson) {
		mkdirSync(join(agentDir, "themes"), { recursive: true });
		themeFiles.push(join(agentDir, "themes", "mine.json"));
		writeFileSync(themeFiles[0]!, JSON.stringify(options.themeJson));
	}
	const sessionManager = SessionManager.create("/work", sessionDir);
	// Requests made while `hang.on` never answer, but end as aborted when their signal fires
	// (as real providers do); the rest go to the scripted fake.
	const hang = { on: false };
	let scripted: StreamFn | undefined;
	const streamFn: StreamFn = (model, context, opts) => {
		if (!hang.on) return scripted!(model, context, opts);
		const writer = new AssistantStreamWriter(model);
		opts?.signal?.addEventListener("abort", () =>
			writer.fail("Request aborted", { kind: "aborted", retryable: false }),
		);
		return writer.stream;
	};
	const s = await makeSession({ sessionManager, streamFn });
	scripted = s.fake.streamFn;
	const term = new VirtualTerminal(options.columns ?? 100, 40);
	mode = new InteractiveMode({
		session: s.session,
		cwd: "/work",
		agentDir,
		sessionDir,
		version: "9.9.9",
		terminal: term,
		themeFiles,
		...(options.withThemes
			? {}
			: { theme: (await import("../../src/modes/interactive/theme-fallback.js")).plainTheme }),
	});
	void mode.run();
	const screen = async () => (await term.screen()).join("\n");
	const waitFor = (pred: (s: string) => boolean, ms = 3000) => waitForScreen(screen, pred, ms);
	const type = async (text: string) => {
		term.typeRaw(text);
		if (text === "\x1b") await new Promise((r) => setTimeout(r, 30));
	};
	const send = async (text: string, reply: string) => {
		s.fake.enqueue({ text: reply });
		await type(`${text}\r`);
		await waitFor((x) => x.includes(reply));
		await s.session.agent.waitForIdle?.();
	};
	return { ...s, term, mode, screen, waitFor, type, send, agentDir, sessionDir, hang };
}

describe("selector commands in the app", () => {
	it("/fork picks an earlier message: new session file before it, its text in the editor", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.send("first ask", "first reply");
		await app.send("second ask", "second reply");
		const before = app.session.sessionFile;
		await app.type("/fork\r");
		await app.waitFor((x) => x.includes("Fork from message") && x.includes("→ second ask"));
		await app.type("\x1b[A\r");
		await app.waitFor((x) => x.includes("Forked into a new session"));
		expect(app.session.sessionFile).not.toBe(before);
		expect(app.mode.editor.getText()).toBe("first ask");
		expect(roles(app.session.messages)).toEqual([]);
		// The new file appears with its first message; its header names the old one.
		expect(app.sessionManager.getHeader()?.parentSession).toBe(before);
		await app.send("first ask, again", "new branch reply");
		const header = JSON.parse(readFileSync(app.session.sessionFile!, "utf8").split("\n")[0]);
		expect(header.parentSession).toBe(before);
	});

	it("/clone copies the branch into a new file; /session shows file, counts, tokens and cost", async () => {
		const app = await setup({ columns: 200 });
		await app.waitFor((x) => x.includes("test-model"));
		await app.send("hello there", "general kenobi");
		const before = app.session.sessionFile;
		await app.type("/clone\r");
		await app.waitFor((x) => x.includes("Cloned into a new session"));
		expect(app.session.sessionFile).not.toBe(before);
		expect(roles(app.session.messages)).toEqual(["user", "assistant"]);
		await app.type("/session\r");
		const screen = await app.waitFor((x) => x.includes("Cost: $"));
		expect(screen).toContain(`File: ${app.session.sessionFile}`);
		expect(screen).toContain(`ID: ${app.session.sessionId}`);
		expect(screen).toContain(`Forked from: ${before}`);
		expect(screen).toContain("Messages: 1 user, 1 assistant, 0 tool calls, 0 tool results");
		expect(screen).toContain("Tokens: 10 in, 5 out, 0 cache read, 0 cache write (15 total)");
	});

	it("Ctrl+L opens the model selector; choosing switches the model of the next request", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("\x0c");
		await app.waitFor((x) => x.includes("Select model"));
		await app.type("plain");
		await app.waitFor((x) => x.includes("→ testprov/plain"));
		await app.type("\r");
		await app.waitFor((x) => x.includes("Model: testprov/plain"));
		await app.send("go", "done");
		expect(app.session.model?.id).toBe("plain");
		const last = app.sessionManager.getEntries().filter((e) => e.type === "model_change");
		expect(last[last.length - 1]).toMatchObject({ provider: "testprov", modelId: "plain" });
	});

	it("Esc twice on an empty editor opens the tree; a summary with custom instructions is recorded at the new position", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.send("plan A", "doing A");
		await app.send("more A", "still A");
		await app.type("\x1b");
		await app.type("\x1b");
		await app.waitFor((x) => x.includes("Session tree"));
		// Up to "assistant: doing A", then Enter: continue from there.
		await app.type("\x1b[A");
		await app.type("\x1b[A");
		await app.waitFor((x) => /→ +• assistant: doing A/.test(x));
		await app.type("\r");
		await app.waitFor((x) => x.includes("Summarize the branch you are leaving?"));
		await app.type("\x1b[B\x1b[B\r");
		await app.waitFor((x) => x.includes("What should the summary focus on?"));
		app.fake.enqueue({ text: "Tried more A." });
		await app.type("the A details\r");
		await app.waitFor((x) => x.includes("with a summary of the branch left"));
		const summaryCall = app.fake.calls[app.fake.calls.length - 1];
		expect(JSON.stringify(summaryCall.messages)).toContain("the A details");
		const leaf = app.sessionManager.getLeafEntry();
		expect(leaf?.type).toBe("branch_summary");
		expect(roles(app.session.messages)).toEqual(["user", "assistant", "branchSummary"]);
	});

	it("Esc while the branch summary is written cancels it and leaves the leaf where it was", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.send("plan A", "doing A");
		await app.send("more A", "still A");
		const leafBefore = app.sessionManager.getLeafId();
		await app.type("/tree\r");
		await app.waitFor((x) => x.includes("Session tree"));
		await app.type("\x1b[A");
		await app.type("\x1b[A");
		await app.type("\r");
		await app.waitFor((x) => x.includes("Summarize the branch you are leaving?"));
		app.hang.on = true;
		await app.type("\x1b[B\r");
		await app.waitFor((x) => x.includes("Summarizing the branch you are leaving…"));
		await app.type("\x1b");
		await app.waitFor((x) => x.includes("Branch summary cancelled"));
		expect(app.sessionManager.getLeafId()).toBe(leafBefore);
		expect(app.mode.editor.getText()).toBe("");
	});

	it("/tree on the first user message resets to an empty conversation with that text in the editor", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.send("very first", "reply one");
		await app.send("follow on", "reply two");
		await app.type("/tree\r");
		await app.waitFor((x) => x.includes("Session tree"));
		for (let i = 0; i < 3; i++) await app.type("\x1b[A");
		await app.waitFor((x) => /→ +• user: very first/.test(x));
		await app.type("\r");
		await app.waitFor((x) => x.includes("Summarize the branch you are leaving?"));
		await app.type("\r");
		await app.waitFor((x) => x.includes("edit it and send to branch"));
		expect(app.mode.editor.getText()).toBe("very first");
		expect(roles(app.session.messages)).toEqual([]);
		// The leaf is the entry before that message (the session's start-up records).
		const first = app.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
		expect(app.sessionManager.getLeafId()).toBe(first?.parentId ?? null);
		app.fake.enqueue({ text: "fresh start" });
		app.mode.editor.setText("");
		await app.type("brand new\r");
		await app.waitFor((x) => x.includes("fresh start"));
		const last = app.fake.calls[app.fake.calls.length - 1];
		expect(roles(last.messages)).toEqual(["user"]);
	});

	it("/scoped-models sets the Ctrl+P cycle for this run; Ctrl+S saves it as enabledModels", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("/scoped-models\r");
		await app.waitFor((x) => x.includes("Scoped models") && x.includes("testprov/plain"));
		await app.type("\x01");
		await app.waitFor((x) => x.includes("2 of 2 models in the Ctrl+P cycle"));
		expect(app.session.getScopedModels().map((s) => s.model.id)).toEqual(["plain", "test-model"]);
		await app.type("\x13");
		await app.waitFor((x) => x.includes("Saved as enabledModels"));
		expect(app.session.settings.get("enabledModels")).toEqual(["testprov/plain", "testprov/test-model"]);
		await app.type("\x1b");
		await app.waitFor((x) => x.includes("Ctrl+P cycles through 2 models"));
		await app.type("\x10");
		await app.waitFor((x) => x.includes("Model: testprov/plain"));
		expect(app.session.model?.id).toBe("plain");
	});

	it("/resume of a session started elsewhere says where tools now run", async () => {
		const app = await setup();
		const other = SessionManager.create("/elsewhere", app.sessionDir);
		other.appendMessage({ role: "user", content: [{ type: "text", text: "from elsewhere" }], timestamp: 1 });
		other.close();
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("/resume\r");
		await app.waitFor((x) => x.includes("→ from elsewhere"));
		await app.type("\r");
		const screen = await app.waitFor((x) => x.includes("This session was started in /elsewhere"));
		expect(screen).toContain("tools and @files now work in /work");
		expect(app.session.sessionManager.getHeader()?.cwd).toBe("/elsewhere");
	});

	it("/settings changes are applied and saved; the theme list previews and switches", async () => {
		const app = await setup({ withThemes: true });
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("/settings\r");
		await app.waitFor((x) => x.includes("Settings") && x.includes("Thinking level"));
		await app.type("auto-comp");
		await app.waitFor((x) => /→ Auto-compact +true/.test(x));
		await app.type("\r");
		await app.waitFor((x) => /→ Auto-compact +false/.test(x));
		expect(app.session.autoCompactionEnabled).toBe(false);
		for (let i = 0; i < 9; i++) await app.type("\x7f");
		await app.type("theme");
		await app.waitFor((x) => /→ Theme +dark/.test(x));
		await app.type("\r");
		await app.waitFor((x) => x.includes("↑↓ preview"));
		await app.type("\x1b[B");
		await app.waitFor(() => app.mode.ctx.theme.name === "light");
		await app.type("\r");
		await app.waitFor((x) => /→ Theme +light/.test(x));
		await app.type("\x1b");
		await app.waitFor((x) => !x.includes("Settings"));
		expect(app.mode.ctx.theme.name).toBe("light");
		expect(app.session.settings.getTheme()).toBe("light");
		expect(app.session.settings.getCompactionSettings().enabled).toBe(false);
	});

	it("reloads a custom theme when its file changes", async () => {
		const root = mkdtempSync(join(tmpdir(), "pi-sel-theme-"));
		dirs.push(root);
		const json = structuredClone(DARK_THEME);
		json.name = "mine";
		const app = await setup({ withThemes: true, themeJson: json });
		const file = join(app.agentDir, "themes", "mine.json");
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("/settings\r");
		await app.waitFor((x) => x.includes("Thinking level"));
		await app.type("theme");
		await app.waitFor((x) => /→ Theme +dark/.test(x));
		await app.type("\r");
		await app.waitFor((x) => x.includes("mine"));
		await app.type("\x1b[B");
		await app.type("\x1b[B");
		await app.type("\r");
		await app.waitFor((x) => /→ Theme +mine/.test(x));
		await app.type("\x1b");
		await app.waitFor(() => app.mode.ctx.theme.name === "mine");
		const before = app.mode.ctx.theme.fg("accent", "x");
		json.colors.accent = "#ff0000";
		writeFileSync(file, JSON.stringify(json));
		await app.waitFor(() => app.mode.ctx.theme.fg("accent", "x") !== before);
		expect(app.mode.ctx.theme.fg("accent", "x")).toMatch(/^\x1b\[38;(2;255;0;0|5;196)mx\x1b\[39m$/);
	});
});
