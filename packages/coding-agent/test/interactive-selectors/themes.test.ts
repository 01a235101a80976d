import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SettingsManager } from "../../src/config/settings.js";
import { type AppTheme, createRgbTheme } from "../../src/modes/interactive/theme-fallback.js";
import { DARK_THEME, LIGHT_THEME } from "../../src/modes/interactive/themes/builtin-themes.js";
import { detectColorMode, rgbTo256, sgrOpen } from "../../src/modes/interactive/themes/color.js";
import { createTheme, type LoadedTheme } from "../../src/modes/interactive/themes/create-theme.js";
import { discoverThemes } from "../../src/modes/interactive/themes/theme-loader.js";
import { ThemeManager } from "../../src/modes/interactive/themes/theme-manager.js";
import { ALL_TOKENS, resolveThemeJson, type ThemeJson } from "../../src/modes/interactive/themes/theme-schema.js";

function themeJson(name: string, accent: string | number = "#112233"): ThemeJson {
	const colors: Record<string, string | number> = {};
	for (const t of ALL_TOKENS) colors[t] = "base";
	colors.accent = accent;
	colors.text = "";
	colors.muted = 242;
	return { name, vars: { base: "#808080" }, colors };
}

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-themes-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

describe("theme file validation", () => {
	it("has 51 required tokens and accepts both built-ins", () => {
		expect(ALL_TOKENS).toHaveLength(51);
		expect(resolveThemeJson(DARK_THEME).name).toBe("dark");
		expect(resolveThemeJson(LIGHT_THEME).name).toBe("light");
	});

	it("resolves hex, #rgb, 256-index, default and chained vars", () => {
		const json = themeJson("t");
		json.vars = { a: "b", b: "#0af", base: "#808080" };
		json.colors.accent = "a";
		const def = resolveThemeJson(json);
		expect(def.fg.accent).toEqual({ kind: "rgb", r: 0, g: 170, b: 255 });
		expect(def.fg.muted).toEqual({ kind: "index", n: 242 });
		expect(def.fg.text).toEqual({ kind: "default" });
		expect(def.bg.selectedBg).toEqual({ kind: "rgb", r: 128, g: 128, b: 128 });
	});

	it("names the file and the missing tokens", () => {
		const json = themeJson("t");
		delete json.colors.bashMode;
		delete json.colors.toolErrorBg;
		expect(() => resolveThemeJson(json, "/x/t.json")).toThrow(
			"/x/t.json: missing colour tokens (2): bashMode, toolErrorBg",
		);
	});

	it("rejects unknown variables, circular variables, bad hex and out-of-range indexes", () => {
		const unknownVar = themeJson("t", "nope");
		expect(() => resolveThemeJson(unknownVar)).toThrow('colors.accent: unknown variable "nope" (not in "vars")');
		const circular = themeJson("t", "a");
		circular.vars = { a: "b", b: "a", base: "#808080" };
		expect(() => resolveThemeJson(circular)).toThrow("colors.accent: circular variable reference a -> b -> a");
		expect(() => resolveThemeJson(themeJson("t", "#12345"))).toThrow(
			'colors.accent: "#12345" is not a "#rrggbb" colour',
		);
		expect(() => resolveThemeJson(themeJson("t", 256))).toThrow("colors.accent: 256 is not a 256-colour index (0-255)");
		expect(() => resolveThemeJson({ colors: {} })).toThrow('"name" must be a non-empty string');
	});
});

describe("colours", () => {
	it("detects the colour mode from the environment", () => {
		expect(detectColorMode({ COLORTERM: "truecolor", TERM: "screen" })).toBe("truecolor");
		expect(detectColorMode({ TERM: "screen-256color" })).toBe("256color");
		expect(detectColorMode({ TERM: "xterm-256color" })).toBe("truecolor");
		expect(detectColorMode({ NO_COLOR: "1", COLORTERM: "truecolor" })).toBe("none");
	});

	it("maps RGB to the nearest 256-colour entry", () => {
		expect(rgbTo256(255, 0, 0)).toBe(196);
		expect(rgbTo256(128, 128, 128)).toBe(244);
		expect(rgbTo256(0, 0, 0)).toBe(16);
		expect(sgrOpen({ kind: "rgb", r: 255, g: 0, b: 0 }, "fg", "256color")).toBe("\x1b[38;5;196m");
		expect(sgrOpen({ kind: "rgb", r: 1, g: 2, b: 3 }, "bg", "truecolor")).toBe("\x1b[48;2;1;2;3m");
		expect(sgrOpen({ kind: "index", n: 39 }, "fg", "truecolor")).toBe("\x1b[38;5;39m");
		expect(sgrOpen({ kind: "default" }, "fg", "truecolor")).toBe("");
	});

	it("builds an AppTheme whose functions emit the theme's codes", () => {
		const theme = createTheme(resolveThemeJson(themeJson("t")), "truecolor");
		expect(theme.fg("accent", "x")).toBe("\x1b[38;2;17;34;51mx\x1b[39m");
		expect(theme.fg("text", "x")).toBe("x");
		expect(theme.fg("muted", "x")).toBe("\x1b[38;5;242mx\x1b[39m");
		expect(theme.bg("selectedBg", "x")).toBe("\x1b[48;2;128;128;128mx\x1b[49m");
		expect(theme.getThinkingBorderColor("high")("x")).toBe("\x1b[38;2;128;128;128mx\x1b[39m");
		const plain = createTheme(resolveThemeJson(themeJson("t")), "none");
		expect(plain.fg("accent", "x")).toBe("x");
		expect(plain.bold("x")).toBe("x");
	});

	it("the built-in fallback and a theme file of the same colours draw alike (one AppTheme builder)", () => {
		const json = themeJson("same", "#112233");
		for (const t of ALL_TOKENS) json.colors[t] = "#112233";
		const rgb = Object.fromEntries(ALL_TOKENS.map((t) => [t, [17, 34, 51] as const]));
		const pairs = [
			[createRgbTheme("same", rgb as never, rgb as never, true), createTheme(resolveThemeJson(json), "truecolor")],
			[createRgbTheme("same", rgb as never, rgb as never, false), createTheme(resolveThemeJson(json), "none")],
		] as const;
		for (const [fallback, loaded] of pairs) {
			const draw = (theme: AppTheme) => {
				const md = theme.getMarkdownTheme();
				const select = theme.getSelectListTheme();
				const settings = theme.getSettingsListTheme();
				return [
					theme.name,
					theme.fg("accent", "x"),
					theme.bg("selectedBg", "x"),
					...[theme.bold, theme.italic, theme.underline, theme.strikethrough, theme.inverse].map((f) => f("x")),
					...(["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const).map((level) =>
						theme.getThinkingBorderColor(level)("x"),
					),
					theme.getBashModeBorderColor()("x"),
					...[md.heading, md.link, md.linkUrl, md.code, md.codeBlock, md.codeBlockBorder, md.quote, md.quoteBorder].map(
						(f) => f("x"),
					),
					...[md.hr, md.listBullet, md.bold, md.italic, md.strikethrough, md.underline].map((f) => f("x")),
					typeof md.highlightCode,
					theme.getEditorTheme().borderColor("x"),
					...[select.selectedPrefix, select.selectedText, select.description, select.scrollInfo, select.noMatch].map(
						(f) => f("x"),
					),
					settings.label("x", true),
					settings.label("x", false),
					settings.value("x", true),
					settings.value("x", false),
					settings.description("x"),
					settings.cursor,
					settings.hint("x"),
				];
			};
			expect(draw(fallback)).toEqual(draw(loaded));
		}
		expect(pairs[0][0].getMarkdownTheme().heading("x")).toBe("\x1b[1m\x1b[38;2;17;34;51mx\x1b[39m\x1b[22m");
		expect(pairs[0][0].getMarkdownTheme().highlightCode).toBeTypeOf("function");
		expect(pairs[1][0].getMarkdownTheme().highlightCode).toBeUndefined();
	});
});

describe("discovery", () => {
	it("finds global, project, settings and --theme files; reports bad files and name clashes", () => {
		const agentDir = join(dir, "agent");
		const cwd = join(dir, "work");
		mkdirSync(join(agentDir, "themes"), { recursive: true });
		mkdirSync(join(cwd, ".pi", "themes"), { recursive: true });
		mkdirSync(join(dir, "extra"), { recursive: true });
		writeFileSync(join(agentDir, "themes", "g.json"), JSON.stringify(themeJson("global-one")));
		writeFileSync(join(agentDir, "themes", "bad.json"), "{ nope");
		writeFileSync(join(cwd, ".pi", "themes", "p.json"), JSON.stringify(themeJson("project-one")));
		writeFileSync(join(cwd, ".pi", "themes", "dark.json"), JSON.stringify(themeJson("dark")));
		writeFileSync(join(dir, "extra", "x.json"), JSON.stringify(themeJson("cli-one")));
		writeFileSync(join(dir, "s.json"), JSON.stringify(themeJson("setting-one")));
		const found = discoverThemes({
			cwd,
			agentDir,
			cliPaths: [join(dir, "extra")],
			globalSettingPaths: [join(dir, "s.json"), "missing.json"],
		});
		expect(found.themes.map((t) => t.name)).toEqual([
			"dark",
			"light",
			"cli-one",
			"project-one",
			"global-one",
			"setting-one",
		]);
		expect(found.warnings).toHaveLength(3);
		expect(found.warnings[0]).toBe(`Theme path not found: ${join(agentDir, "missing.json")}`);
		expect(found.warnings[1]).toBe(
			`Theme "dark" in ${join(cwd, ".pi", "themes", "dark.json")} ignored: the name is taken by the built-in theme`,
		);
		expect(found.warnings[2]).toMatch(/^Invalid theme .*bad\.json:1:3: invalid JSON/);
		const noDiscovery = discoverThemes({ cwd, agentDir, cliPaths: [join(dir, "extra", "x.json")], noDiscovery: true });
		expect(noDiscovery.themes.map((t) => t.name)).toEqual(["dark", "light", "cli-one"]);
	});
});

describe("ThemeManager", () => {
	function setup(settingsTheme?: string) {
		const agentDir = join(dir, "agent");
		mkdirSync(join(agentDir, "themes"), { recursive: true });
		const file = join(agentDir, "themes", "mine.json");
		writeFileSync(file, JSON.stringify(themeJson("mine", "#010203")));
		const settings = SettingsManager.inMemory(settingsTheme ? { theme: settingsTheme } : {});
		const manager = new ThemeManager({
			cwd: join(dir, "work"),
			agentDir,
			settings,
			colorMode: "truecolor",
			env: {},
			reloadDelayMs: 20,
		});
		return { manager, file, settings };
	}

	function nextChange(manager: ThemeManager): Promise<LoadedTheme> {
		return new Promise((resolve) => {
			const off = manager.onChange((t) => {
				off();
				resolve(t);
			});
		});
	}

	function nextWarning(manager: ThemeManager): Promise<string> {
		return new Promise((resolve) => {
			const off = manager.onWarning((w) => {
				off();
				resolve(w);
			});
		});
	}

	it("starts with the theme from settings, falls back to dark with a warning for unknown names", () => {
		expect(setup("mine").manager.current.name).toBe("mine");
		const { manager } = setup("nonexistent");
		expect(manager.current.name).toBe("dark");
		expect(manager.getWarnings()).toEqual([
			'Theme "nonexistent" not found (available: dark, light, mine); using "dark"',
		]);
		expect(setup().manager.current.name).toBe("dark");
	});

	it("selects a theme, saving it to settings when asked", () => {
		const { manager, settings } = setup();
		const changes: string[] = [];
		manager.onChange((t) => changes.push(t.name));
		expect(manager.select("light")).toMatchObject({ ok: true });
		expect(settings.getTheme()).toBeUndefined();
		expect(manager.select("mine", true)).toMatchObject({ ok: true });
		expect(settings.getTheme()).toBe("mine");
		expect(manager.select("zzz")).toEqual({ ok: false, error: 'Theme "zzz" not found' });
		expect(manager.current.name).toBe("mine");
		expect(changes).toEqual(["light", "mine"]);
	});

	it("reloads the active theme when its file changes (also when replaced by rename)", async () => {
		const { manager, file } = setup("mine");
		manager.startWatching();
		try {
			expect(manager.current.fg("accent", "x")).toBe("\x1b[38;2;1;2;3mx\x1b[39m");
			let changed = nextChange(manager);
			writeFileSync(file, JSON.stringify(themeJson("mine", "#ff0000")));
			expect((await changed).fg("accent", "x")).toBe("\x1b[38;2;255;0;0mx\x1b[39m");
			expect(manager.current.fg("accent", "x")).toBe("\x1b[38;2;255;0;0mx\x1b[39m");
			changed = nextChange(manager);
			writeFileSync(`${file}.tmp`, JSON.stringify(themeJson("mine", "#00ff00")));
			renameSync(`${file}.tmp`, file);
			expect((await changed).fg("accent", "x")).toBe("\x1b[38;2;0;255;0mx\x1b[39m");
		} finally {
			manager.dispose();
		}
	});

	it("keeps the last good theme and warns when the file becomes invalid; falls back to dark when removed", async () => {
		const { manager, file } = setup("mine");
		manager.startWatching();
		try {
			const warned = nextWarning(manager);
			const broken = themeJson("mine");
			delete broken.colors.accent;
			writeFileSync(file, JSON.stringify(broken));
			expect(await warned).toBe(
				`Theme not reloaded, keeping the previous colours: ${file}:1:42: missing colour tokens (1): accent`,
			);
			expect(manager.current.fg("accent", "x")).toBe("\x1b[38;2;1;2;3mx\x1b[39m");
			const removed = nextWarning(manager);
			const changed = nextChange(manager);
			unlinkSync(file);
			expect(await removed).toBe(`Theme file ${file} was removed; using "dark" instead of "mine"`);
			expect((await changed).name).toBe("dark");
		} finally {
			manager.dispose();
		}
	});
});
