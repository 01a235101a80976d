// 1.x theme files: OKHSL/OKLCH colours, optional tokens, strict objects with
// errors that name the token and its position, the `system` theme and
// light/dark pairs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseOkhsl, parseOklch } from "../../src/modes/interactive/themes/oklab.js";
import { loadThemeFile } from "../../src/modes/interactive/themes/theme-loader.js";
import { resolveThemeSetting, ThemeManager } from "../../src/modes/interactive/themes/theme-manager.js";
import { parseColorLiteral } from "../../src/modes/interactive/themes/theme-schema.js";

const FIXTURES = resolve(__dirname, "../fixtures/themes-1.6.0");
let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-theme-files-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hex = (v: number[] | undefined) => (v ? `#${v.map((x) => x.toString(16).padStart(2, "0")).join("")}` : undefined);

describe("colour forms", () => {
	// Expected values: 1.6.0's own conversion of the same inputs (pi-tui parseColor + colorToHex).
	it.each([
		["okhsl(234 3% 89%)", "#dee0e1"],
		["okhsl(20 72% 67%)", "#ea7f81"],
		["okhsl(83 88% 67%)", "#cd9a22"],
		["okhsl(233 41% 24%)", "#213b49"],
		["okhsl(295 50% 67%)", "#a798d7"],
		["okhsl(0 0% 50%)", "#777777"],
		["okhsl(200deg 50% 50%)", "#448386"],
		["okhsl(120 100% 100%)", "#ffffff"],
	])("%s → %s", (input, expected) => {
		expect(hex(parseOkhsl(input))).toBe(expected);
	});
	it.each([
		["oklch(62% 0.1 200)", "#1c989e"],
		["oklch(50% 0.2 264)", "#2456d3"],
		["oklch(0.9 0.4 30)", "#ffd2ca"], // out of gamut: chroma lowered
	])("%s → %s", (input, expected) => {
		expect(hex(parseOklch(input))).toBe(expected);
	});
	it("rejects malformed forms", () => {
		expect(parseOkhsl("okhsl(200, 50%, 50%)")).toBeUndefined();
		expect(parseOkhsl("okhsl(200 150% 50%)")).toBeUndefined();
		expect(parseOklch("oklch(0.7 0.15)")).toBeUndefined();
		expect(parseColorLiteral("okhsl(10 10% 10%)")).toMatchObject({ kind: "rgb" });
	});
});

describe("1.6.0 theme files", () => {
	it("load as they are (OKHSL values, optional tokens, appearance, export block)", () => {
		for (const name of ["dark", "light"]) {
			const source = loadThemeFile(join(FIXTURES, `${name}.json`));
			expect(source.name).toBe(name);
			expect(source.definition.appearance).toBe(name);
			expect(source.definition.fg.accent.kind).toBe("rgb");
			expect(source.definition.export.pageBg?.kind).toBe("rgb");
		}
	});

	it("an unknown token names the token with its line and column", () => {
		const text = readFileSync(join(FIXTURES, "dark.json"), "utf8").replace('"bashMode":', '"bashMod":');
		const file = join(dir, "typo.json");
		writeFileSync(file, text);
		const line = text.split("\n").findIndex((l) => l.includes('"bashMod"')) + 1;
		expect(() => loadThemeFile(file)).toThrow(`${file}:${line}:3: colors.bashMod: unknown colour token`);
	});

	it("a bad value names the token and its position; bad JSON names line and column", () => {
		const text = readFileSync(join(FIXTURES, "light.json"), "utf8").replace(
			/"accent": "[^"]*"/,
			'"accent": "okhsl(400 500% 1%)"',
		);
		const file = join(dir, "bad.json");
		writeFileSync(file, text);
		const line = text.split("\n").findIndex((l) => l.includes('"accent"')) + 1;
		expect(() => loadThemeFile(file)).toThrow(
			`${file}:${line}:3: colors.accent: "okhsl(400 500% 1%)" is not a valid colour`,
		);
		writeFileSync(file, '{\n  "name": "x",\n  "colors": {,}\n}');
		expect(() => loadThemeFile(file)).toThrow(`${file}:3:14: invalid JSON`);
	});

	it("unknown top-level fields, reserved names and '/' in names are rejected", () => {
		const base = JSON.parse(readFileSync(join(FIXTURES, "dark.json"), "utf8"));
		const cases: [Record<string, unknown>, string][] = [
			[{ ...base, name: "mine", author: "me" }, 'unknown field "author"'],
			[{ ...base, name: "system" }, 'must not be "system"'],
			[{ ...base, name: "a/b" }, 'must not contain "/"'],
			[{ ...base, name: "mine", appearance: "dim" }, '"appearance" must be "dark" or "light"'],
			[{ ...base, name: "mine", vars: { ...base.vars, loop: "loop" } }, "circular variable reference"],
		];
		for (const [json, message] of cases) {
			const file = join(dir, "t.json");
			writeFileSync(file, JSON.stringify(json, null, 2));
			expect(() => loadThemeFile(file)).toThrow(message);
		}
	});
});

describe("system theme and light/dark pairs", () => {
	it("resolves a setting against the terminal background", () => {
		expect(resolveThemeSetting("system", "light")).toBe("light");
		expect(resolveThemeSetting("system", "dark")).toBe("dark");
		expect(resolveThemeSetting("solar-light/solar-dark", "light")).toBe("solar-light");
		expect(resolveThemeSetting("solar-light/solar-dark", "dark")).toBe("solar-dark");
		expect(resolveThemeSetting("mine", "light")).toBe("mine");
	});

	it("the manager follows the appearance for `system` and pairs, and falls back to dark with a warning", () => {
		const pair = JSON.parse(readFileSync(join(FIXTURES, "light.json"), "utf8"));
		writeFileSync(join(dir, "paper.json"), JSON.stringify({ ...pair, name: "paper" }));
		const files = [join(dir, "paper.json")];
		const light = new ThemeManager({
			cwd: dir,
			agentDir: dir,
			files,
			useTheme: "system",
			appearance: "light",
			colorMode: "none",
		});
		expect(light.current.name).toBe("light");
		const dark = new ThemeManager({
			cwd: dir,
			agentDir: dir,
			files,
			useTheme: "system",
			appearance: "dark",
			colorMode: "none",
		});
		expect(dark.current.name).toBe("dark");
		const paired = new ThemeManager({
			cwd: dir,
			agentDir: dir,
			files,
			useTheme: "paper/dark",
			appearance: "light",
			colorMode: "none",
		});
		expect(paired.current.name).toBe("paper");
		const byEnv = new ThemeManager({ cwd: dir, agentDir: dir, files, env: { COLORFGBG: "0;15" }, colorMode: "none" });
		expect(byEnv.current.name).toBe("light");
		const missing = new ThemeManager({
			cwd: dir,
			agentDir: dir,
			files,
			useTheme: "nope/paper",
			appearance: "light",
			colorMode: "none",
		});
		expect(missing.current.name).toBe("dark");
		expect(missing.getWarnings().join("\n")).toContain('Theme "nope" (from "nope/paper") not found');
	});
});
