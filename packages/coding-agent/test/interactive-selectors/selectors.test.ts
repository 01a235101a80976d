// Selectors in a headless terminal: what they show, how keys move and filter,
// and what they report.
import type { Model } from "@pi/ai";
import { afterEach, describe, expect, it } from "vitest";
import { createModelSelector } from "../../src/modes/interactive/selectors/model-selector.js";
import { BRANCH_SUMMARY_CHOICES, createChoicePrompt } from "../../src/modes/interactive/selectors/prompts.js";
import { ScopedModelsSelector } from "../../src/modes/interactive/selectors/scoped-models-selector.js";
import { SessionPicker } from "../../src/modes/interactive/selectors/session-picker.js";
import {
	filterAndSortSessions,
	formatAge,
	threadSessions,
} from "../../src/modes/interactive/selectors/session-search.js";
import { createSettingsSelector, type SettingsState } from "../../src/modes/interactive/selectors/settings-selector.js";
import type { SessionInfo } from "../../src/session/listing.js";
import { KEY, type Mounted, mount, theme } from "./support.js";

let mounted: Mounted | undefined;
afterEach(() => {
	mounted?.stop();
	mounted = undefined;
});

function model(provider: string, id: string): Model {
	return {
		id,
		name: id,
		api: "openai-completions",
		provider,
		baseUrl: "http://127.0.0.1:1",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
	};
}

describe("model selector", () => {
	const models = [
		model("openai", "gpt-5"),
		model("anthropic", "claude-sonnet-4"),
		model("anthropic", "claude-opus-4"),
		model("google", "gemini-2.5-pro"),
	];

	async function open(initialQuery?: string) {
		const events: string[] = [];
		const selector = createModelSelector(theme, {
			models,
			current: models[0],
			initialQuery,
			onSelect: (m) => events.push(`select ${m.provider}/${m.id}`),
			onCancel: () => events.push("cancel"),
		});
		mounted = await mount(selector);
		return { events, m: mounted };
	}

	it("lists the current model first (marked), then by provider and id", async () => {
		const { m } = await open();
		const screen = await m.screen();
		const rows = screen.split("\n").filter((l) => /^(→| ) +\S+\/\S+/.test(l));
		expect(rows.map((r) => r.trim())).toEqual([
			"→ openai/gpt-5 ✓",
			"anthropic/claude-opus-4",
			"anthropic/claude-sonnet-4",
			"google/gemini-2.5-pro",
		]);
		expect(screen).toContain("Select model");
	});

	it("filters as you type, moves with arrows, selects with Enter", async () => {
		const { m, events } = await open();
		await m.type("claude");
		let screen = await m.screen();
		expect(screen).toContain("anthropic/claude-opus-4");
		expect(screen).toContain("anthropic/claude-sonnet-4");
		expect(screen).not.toContain("openai/gpt-5");
		await m.type("sonn");
		screen = await m.screen();
		expect(screen).not.toContain("claude-opus-4");
		await m.type(KEY.enter);
		expect(events).toEqual(["select anthropic/claude-sonnet-4"]);
	});

	it("starts with the /model argument as the search; Esc cancels", async () => {
		const { m, events } = await open("gemini");
		expect(await m.screen()).toContain("→ google/gemini-2.5-pro");
		await m.type(KEY.down);
		await m.type(KEY.escape);
		expect(events).toEqual(["cancel"]);
	});
});

describe("session search", () => {
	const base = { cwd: "/p", created: new Date(0), entryCount: 2, messageCount: 2 };
	const sessions: SessionInfo[] = [
		{ ...base, path: "/s/a.jsonl", id: "aaaa", firstMessage: "fix the parser bug", modified: new Date(3000) },
		{ ...base, path: "/s/b.jsonl", id: "bbbb", name: "Refactor auth", firstMessage: "hello", modified: new Date(2000) },
		{ ...base, path: "/s/c.jsonl", id: "cccc", firstMessage: "write parser tests", modified: new Date(1000) },
	];

	it("matches words anywhere and quoted phrases exactly; sorts by recency or relevance; named filter", () => {
		expect(filterAndSortSessions(sessions, "", "recent").map((s) => s.id)).toEqual(["aaaa", "bbbb", "cccc"]);
		expect(filterAndSortSessions(sessions, "parser", "recent").map((s) => s.id)).toEqual(["aaaa", "cccc"]);
		expect(filterAndSortSessions(sessions, '"parser tests"', "recent").map((s) => s.id)).toEqual(["cccc"]);
		expect(filterAndSortSessions(sessions, "write parser", "recent").map((s) => s.id)).toEqual(["cccc"]);
		expect(filterAndSortSessions(sessions, "tests", "relevance").map((s) => s.id)).toEqual(["cccc"]);
		expect(filterAndSortSessions(sessions, "", "recent", "named").map((s) => s.id)).toEqual(["bbbb"]);
		expect(filterAndSortSessions(sessions, "auth", "recent").map((s) => s.id)).toEqual(["bbbb"]);
	});

	it("a word found literally ranks above fuzzy-only matches; a fuzzy word must fit in one field", () => {
		// The folder path holds a, l, p, h, a in order and "beta" starts with an
		// "a"-free prefix: a match spread over prompt + folder once ranked the
		// newer "beta" session above the one whose prompt says "alpha".
		const cwd = "/tmp/sandbox-lp7h2a/project";
		const alpha = { ...base, cwd, path: "/s/x.jsonl", id: "x1", firstMessage: "alpha topic", modified: new Date(1) };
		const beta = { ...base, cwd, path: "/s/y.jsonl", id: "y1", firstMessage: "beta topic", modified: new Date(2) };
		for (const sort of ["recent", "relevance", "threaded"] as const)
			expect(filterAndSortSessions([beta, alpha], "alpha", sort).map((s) => s.id)[0]).toBe("x1");
		expect(threadSessions(filterAndSortSessions([beta, alpha], "alpha", "threaded"), "input")[0].session.id).toBe("x1");
		// "tpcal": t-p-c from "topic" and a-l from the folder would need two fields.
		const noFolderLetters = { ...beta, cwd: "/p" };
		expect(filterAndSortSessions([noFolderLetters], "tpcal", "recent")).toEqual([]);
		expect(filterAndSortSessions([noFolderLetters], "btpc", "recent").map((s) => s.id)).toEqual(["y1"]);
	});

	it("threads forks under the session they came from, threads ordered by their latest change", () => {
		const at = (id: string, t: number, parent?: string): SessionInfo => ({
			...base,
			path: `/s/${id}.jsonl`,
			id,
			firstMessage: id,
			modified: new Date(t),
			...(parent ? { parentSessionPath: `/s/${parent}.jsonl` } : {}),
		});
		const list = [
			at("root", 1000),
			at("fork1", 2000, "root"),
			at("fork2", 5000, "root"),
			at("forkOfFork", 3000, "fork1"),
			at("alone", 4000),
			at("orphan", 500, "missing"),
		];
		expect(threadSessions(list).map((t) => `${t.prefix}${t.session.id}`)).toEqual([
			"root",
			"├─ fork2",
			"└─ fork1",
			"   └─ forkOfFork",
			"alone",
			"orphan",
		]);
	});

	it("formats ages", () => {
		const now = 10 * 86400_000;
		expect(formatAge(new Date(now - 30_000), now)).toBe("now");
		expect(formatAge(new Date(now - 5 * 60_000), now)).toBe("5m");
		expect(formatAge(new Date(now - 3 * 3600_000), now)).toBe("3h");
		expect(formatAge(new Date(now - 2 * 86400_000), now)).toBe("2d");
	});
});

describe("session picker", () => {
	const now = Date.parse("2026-11-29T12:00:00Z");
	const mk = (id: string, extra: Partial<SessionInfo>): SessionInfo => ({
		path: `/s/${id}.jsonl`,
		id,
		cwd: "/proj",
		created: new Date(now - 3600_000),
		modified: new Date(now - 3600_000),
		messageCount: 4,
		entryCount: 6,
		firstMessage: `first ${id}`,
		...extra,
	});

	async function open(current: SessionInfo[], all: SessionInfo[], currentFile?: string) {
		const events: string[] = [];
		const picker = new SessionPicker(theme, {
			loadCurrent: async () => current,
			loadAll: async () => all,
			currentSessionFile: currentFile,
			now: () => now,
			onSelect: (s) => events.push(`open ${s.id}`),
			onCancel: () => events.push("cancel"),
			onDelete: async (s) => {
				events.push(`delete ${s.id}`);
			},
			onRename: async (s, name) => {
				events.push(`rename ${s.id} ${name}`);
			},
		});
		mounted = await mount(picker, 90, 24);
		await picker.loading;
		return { picker, events, m: mounted };
	}

	it("shows this folder's sessions newest first; Tab switches to all folders; Enter opens", async () => {
		const here = [
			mk("one", { modified: new Date(now - 120_000), firstMessage: "older\nmultiline question" }),
			mk("two", { modified: new Date(now - 60_000), name: "Named one" }),
		];
		const everywhere = [...here, mk("far", { cwd: "/elsewhere", modified: new Date(now - 30_000) })];
		const { m, picker, events } = await open(here, everywhere);
		let screen = await m.screen();
		expect(screen).toMatch(/→ Named one +4 msg · 1m/);
		expect(screen).toMatch(/ {2}older multiline question +4 msg · 2m/);
		expect(screen).not.toContain("first far");
		await m.type(KEY.tab);
		await picker.loading;
		screen = await m.screen();
		expect(picker.getScope()).toBe("all");
		// The highlighted session stays highlighted across the switch.
		expect(screen).toMatch(/ {2}first far +4 msg · now\n {4}\/elsewhere\n→ Named one/);
		await m.type(KEY.up);
		await m.type(KEY.enter);
		expect(events).toEqual(["open far"]);
	});

	it("searches as you type, toggles named-only and sort, cancels with Esc", async () => {
		const list = [
			mk("a", { firstMessage: "fix login bug", modified: new Date(now - 1000) }),
			mk("b", { firstMessage: "login page styles", name: "Styles", modified: new Date(now - 2000) }),
			mk("c", { firstMessage: "database migration", modified: new Date(now - 3000) }),
		];
		const { m, picker, events } = await open(list, list);
		await m.type("login");
		expect(picker.getVisibleSessions().map((s) => s.id)).toEqual(["a", "b"]);
		await m.type(KEY.ctrl("n"));
		expect(picker.getVisibleSessions().map((s) => s.id)).toEqual(["b"]);
		expect(await m.screen()).toContain("named only");
		await m.type(KEY.ctrl("n"));
		expect(picker.getSortMode()).toBe("threaded");
		await m.type(KEY.ctrl("s"));
		expect(picker.getSortMode()).toBe("recent");
		await m.type(KEY.ctrl("s"));
		expect(picker.getSortMode()).toBe("relevance");
		await m.type(KEY.escape);
		expect(events).toEqual(["cancel"]);
	});

	it("deletes after confirmation, never the open session; renames with Ctrl+R", async () => {
		const list = [mk("cur", { modified: new Date(now - 1000) }), mk("old", { modified: new Date(now - 2000) })];
		const { m, picker, events } = await open(list, list, "/s/cur.jsonl");
		expect(await m.screen()).toContain("first cur (current)");
		await m.type(KEY.ctrl("d"));
		expect(await m.screen()).toContain("The open session cannot be deleted");
		await m.type(KEY.down);
		await m.type(KEY.ctrl("d"));
		expect(await m.screen()).toContain('Delete "first old"? enter/y delete · esc/n keep');
		await m.type("n");
		expect(events).toEqual([]);
		await m.type(KEY.ctrl("d"));
		await m.type("y");
		await new Promise((r) => setTimeout(r, 0));
		expect(events).toEqual(["delete old"]);
		expect(picker.getVisibleSessions().map((s) => s.id)).toEqual(["cur"]);
		expect(await m.screen()).toContain("Deleted /s/old.jsonl");
		await m.type(KEY.ctrl("r"));
		await m.type("My session");
		await m.type(KEY.enter);
		await new Promise((r) => setTimeout(r, 0));
		expect(events).toEqual(["delete old", "rename cur My session"]);
		expect(await m.screen()).toMatch(/→ My session \(current\)/);
	});
});

/** The settings selectors' state in these tests (the theme test overrides a few values). */
const settingsState: SettingsState = {
	thinkingLevel: "medium",
	availableThinkingLevels: ["off", "minimal", "low", "medium", "high"],
	theme: "dark",
	themes: ["dark", "light", "mine"],
	steeringMode: "one-at-a-time",
	followUpMode: "one-at-a-time",
	autoCompact: true,
	autoRetry: true,
	cacheWarming: "idle",
	hideThinkingBlock: false,
	showCacheMissNotices: false,
	quietStartup: false,
	doubleEscapeAction: "tree",
	treeFilterMode: "default",
	branchSummarySkipPrompt: false,
	showImages: true,
	transport: "sse",
	editorPaddingX: 0,
	autocompleteMaxVisible: 5,
};

describe("settings selector", () => {
	it("cycles values with Enter and reports each change; the theme list previews and chooses", async () => {
		const events: string[] = [];
		const selector = createSettingsSelector(theme, {
			state: structuredClone(settingsState),
			maxVisible: 20,
			onChange: (id, value) => events.push(`${id}=${value}`),
			onThemePreview: (name) => events.push(`preview ${name ?? "(restore)"}`),
			onClose: () => events.push("close"),
		});
		const m = (mounted = await mount(selector, 90, 40));
		let screen = await m.screen();
		expect(screen).toMatch(/→ Thinking level +medium/);
		expect(screen).toMatch(/Auto-compact +true/);
		await m.type(KEY.enter);
		expect(events).toEqual(["thinking=high"]);
		await m.type(KEY.down);
		await m.type(KEY.enter);
		screen = await m.screen();
		expect(screen).toContain("Theme");
		await m.type(KEY.down);
		await m.type(KEY.down);
		await m.type(KEY.enter);
		expect(events).toEqual(["thinking=high", "preview light", "preview mine", "theme=mine"]);
		screen = await m.screen();
		expect(screen).toMatch(/→ Theme +mine/);
		await m.type("retry");
		screen = await m.screen();
		expect(screen).toMatch(/→ Auto-retry +true/);
		await m.type(KEY.enter);
		await m.type(KEY.escape);
		expect(events.slice(4)).toEqual(["auto-retry=false", "close"]);
	});
});

describe("live theme in selectors", () => {
	it("lists draw with the theme in force at render time (previews, live reload)", async () => {
		const { createTheme } = await import("../../src/modes/interactive/themes/create-theme.js");
		const { resolveThemeJson } = await import("../../src/modes/interactive/themes/theme-schema.js");
		const { DARK_THEME, LIGHT_THEME } = await import("../../src/modes/interactive/themes/builtin-themes.js");
		const dark = createTheme(resolveThemeJson(DARK_THEME), "256color");
		const light = createTheme(resolveThemeJson(LIGHT_THEME), "256color");
		let current = dark;
		const selector = createModelSelector(() => current, {
			models: [model("a", "one")],
			current: undefined,
			onSelect: () => {},
			onCancel: () => {},
		});
		const settings = createSettingsSelector(() => current, {
			state: {
				...settingsState,
				thinkingLevel: "off",
				availableThinkingLevels: ["off"],
				themes: ["dark", "light"],
				steeringMode: "all",
				followUpMode: "all",
			},
			onChange: () => {},
			onClose: () => {},
		});
		const row = (lines: string[], text: string) => lines.find((l) => l.includes(text)) ?? "";
		const before = [row(selector.render(60), "a/one"), row(settings.render(60), "Thinking level")];
		current = light;
		const after = [row(selector.render(60), "a/one"), row(settings.render(60), "Thinking level")];
		expect(before[0]).toContain(dark.fg("accent", "→ "));
		expect(after[0]).toContain(light.fg("accent", "→ "));
		expect(after[1]).toContain(light.fg("accent", "→ "));
		expect(after[1]).not.toBe(before[1]);
	});
});

describe("choice prompt", () => {
	it("offers the branch summary options and returns the choice (Esc: undefined)", async () => {
		const results: (string | undefined)[] = [];
		const prompt = createChoicePrompt(theme, "Summarize?", BRANCH_SUMMARY_CHOICES, (v) => results.push(v));
		const m = (mounted = await mount(prompt));
		const screen = await m.screen();
		expect(screen).toContain("→ No summary");
		expect(screen).toContain("Summarize with instructions…");
		await m.type(KEY.down);
		await m.type(KEY.enter);
		await m.type(KEY.escape);
		expect(results).toEqual(["summarize", undefined]);
	});
});

describe("scoped models selector", () => {
	it("toggles, enables/clears matches, toggles a provider, reorders, saves", async () => {
		const changes: string[][] = [];
		const saved: string[][] = [];
		let closed = false;
		const selector = new ScopedModelsSelector(theme, {
			all: ["anthropic/opus", "anthropic/sonnet", "google/gemini", "openai/gpt"],
			enabled: ["openai/gpt"],
			onChange: (e) => changes.push(e),
			onSave: (e) => saved.push(e),
			onClose: () => {
				closed = true;
			},
		});
		const m = (mounted = await mount(selector));
		let screen = await m.screen();
		expect(screen).toContain("1 of 4 models in the Ctrl+P cycle");
		expect(screen).toMatch(/→ \[x\] +1\. openai\/gpt/);
		await m.type(KEY.down);
		await m.type(" ");
		expect(changes.at(-1)).toEqual(["openai/gpt", "anthropic/opus"]);
		await m.type("\x1b[1;3A");
		expect(changes.at(-1)).toEqual(["anthropic/opus", "openai/gpt"]);
		await m.type(KEY.ctrl("p"));
		expect(changes.at(-1)).toEqual(["anthropic/opus", "openai/gpt", "anthropic/sonnet"]);
		await m.type(KEY.ctrl("p"));
		expect(changes.at(-1)).toEqual(["openai/gpt"]);
		await m.type("gem");
		await m.type(KEY.ctrl("a"));
		expect(changes.at(-1)).toEqual(["openai/gpt", "google/gemini"]);
		for (let i = 0; i < 3; i++) await m.type("\x7f");
		await m.type(KEY.ctrl("x"));
		expect(changes.at(-1)).toEqual([]);
		screen = await m.screen();
		expect(screen).toContain("No models selected");
		await m.type(KEY.enter);
		await m.type(KEY.ctrl("s"));
		expect(saved).toEqual([[changes.at(-1)![0]]]);
		expect(await m.screen()).toContain("Saved as enabledModels in settings");
		await m.type(KEY.escape);
		expect(closed).toBe(true);
	});
});
