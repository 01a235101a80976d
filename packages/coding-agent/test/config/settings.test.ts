import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deepMerge, SettingsManager } from "../../src/config/settings.js";

let root: string;
let agentDir: string;
let cwd: string;
const globalFile = () => join(agentDir, "settings.json");
const projectFile = () => join(cwd, ".pi", "settings.json");
const readJson = (f: string) => JSON.parse(readFileSync(f, "utf8"));

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-settings-"));
	agentDir = join(root, "agent");
	cwd = join(root, "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(join(cwd, ".pi"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("deepMerge", () => {
	it("merges objects deeply and replaces arrays", () => {
		expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, e: 2 })).toEqual({
			a: { b: 1, c: [3] },
			d: 1,
			e: 2,
		});
	});
});

describe("SettingsManager", () => {
	it("project settings win over global ones, nested objects merge, arrays replace", () => {
		writeFileSync(
			globalFile(),
			JSON.stringify({ theme: "dark", compaction: { enabled: true, reserveTokens: 16384 }, enabledModels: ["a", "b"] }),
		);
		writeFileSync(projectFile(), JSON.stringify({ compaction: { reserveTokens: 8192 }, enabledModels: ["c"] }));
		const s = SettingsManager.create({ cwd, agentDir });
		expect(s.getSettings()).toEqual({
			theme: "dark",
			compaction: { enabled: true, reserveTokens: 8192 },
			enabledModels: ["c"],
		});
		expect(s.getCompactionSettings()).toEqual({ enabled: true, reserveTokens: 8192, keepRecentTokens: 20000 });
	});

	it("has the documented defaults when no file exists", () => {
		const s = SettingsManager.create({ cwd, agentDir });
		expect(s.getSettings()).toEqual({});
		expect(s.getRetrySettings()).toEqual({
			enabled: true,
			maxRetries: 3,
			baseDelayMs: 2000,
			provider: { maxRetryDelayMs: 60000 },
		});
		expect(s.getSteeringMode()).toBe("one-at-a-time");
		expect(s.getFollowUpMode()).toBe("one-at-a-time");
		expect(s.getTransport()).toBe("auto");
		expect(s.getDefaultThinkingLevel()).toBeUndefined();
		expect(s.getBranchSummarySettings()).toEqual({ reserveTokens: 16384, skipPrompt: false });
	});

	it("saves only the changed key and keeps unknown keys and outside edits", async () => {
		writeFileSync(globalFile(), JSON.stringify({ theme: "dark", myExtension: { x: 1 } }, null, 2));
		const s = SettingsManager.create({ cwd, agentDir });
		// Someone edits the file while pi runs.
		writeFileSync(globalFile(), JSON.stringify({ theme: "light", myExtension: { x: 1 }, quietStartup: true }));
		s.setDefaultModelAndProvider("anthropic", "claude-x");
		await s.flush();
		expect(readJson(globalFile())).toEqual({
			theme: "light",
			myExtension: { x: 1 },
			quietStartup: true,
			defaultProvider: "anthropic",
			defaultModel: "claude-x",
		});
		// The in-memory view picked up the outside edit too.
		expect(s.getTheme()).toBe("light");
		expect(s.drainErrors()).toEqual([]);
	});

	it("merges a nested key without dropping its siblings on disk", async () => {
		writeFileSync(globalFile(), JSON.stringify({ compaction: { reserveTokens: 1000 } }));
		const s = SettingsManager.create({ cwd, agentDir });
		writeFileSync(globalFile(), JSON.stringify({ compaction: { reserveTokens: 2000, keepRecentTokens: 5 } }));
		s.setCompactionEnabled(false);
		await s.flush();
		expect(readJson(globalFile())).toEqual({
			compaction: { reserveTokens: 2000, keepRecentTokens: 5, enabled: false },
		});
	});

	it("deleting a key removes it from the file", async () => {
		writeFileSync(globalFile(), JSON.stringify({ theme: "dark", defaultModel: "m" }));
		const s = SettingsManager.create({ cwd, agentDir });
		s.set("defaultModel", undefined);
		await s.flush();
		expect(readJson(globalFile())).toEqual({ theme: "dark" });
	});

	it("two processes' managers writing different keys at once lose nothing", async () => {
		const managers = Array.from({ length: 6 }, () => SettingsManager.create({ cwd, agentDir }));
		managers.forEach((m, i) => {
			m.set(`key${i}`, i);
		});
		await Promise.all(managers.map((m) => m.flush()));
		expect(readJson(globalFile())).toEqual({ key0: 0, key1: 1, key2: 2, key3: 3, key4: 4, key5: 5 });
	});

	it("writes project settings to .pi/settings.json when asked", async () => {
		const s = SettingsManager.create({ cwd, agentDir });
		s.set("theme", "light", "project");
		await s.flush();
		expect(readJson(projectFile())).toEqual({ theme: "light" });
		expect(() => readFileSync(globalFile())).toThrow();
	});

	it("a malformed file gives a warning with file, line and column; defaults are used; the file is never overwritten", async () => {
		const bad = '{\n  "theme": "dark",\n  "compaction": { "enabled": false, }\n}\n';
		writeFileSync(globalFile(), bad);
		writeFileSync(projectFile(), JSON.stringify({ quietStartup: true }));
		const s = SettingsManager.create({ cwd, agentDir });
		const warnings = s.getWarnings();
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toBe(
			`Warning: could not parse ${globalFile()} at line 3, column 37: trailing comma. Using default settings for it; the file will not be changed.`,
		);
		expect(s.getSettings()).toEqual({ quietStartup: true });
		expect(s.getCompactionSettings().enabled).toBe(true);
		s.setDefaultThinkingLevel("high");
		await s.flush();
		expect(readFileSync(globalFile(), "utf8")).toBe(bad);
		expect(s.drainErrors().map((e) => e.message)).toEqual([
			`Settings not saved: ${globalFile()} is malformed; fix it first.`,
		]);
		expect(s.getDefaultThinkingLevel()).toBe("high");
	});

	it("defaultThinkingLevel takes every level up to max; an unknown one is a warning and dropped", () => {
		writeFileSync(globalFile(), JSON.stringify({ defaultThinkingLevel: "max" }));
		const s = SettingsManager.create({ cwd, agentDir });
		expect(s.getWarnings()).toEqual([]);
		expect(s.getDefaultThinkingLevel()).toBe("max");
		writeFileSync(globalFile(), JSON.stringify({ defaultThinkingLevel: "ultra" }));
		const bad = SettingsManager.create({ cwd, agentDir });
		expect(
			bad
				.getWarnings()
				.map((w) => w.message)
				.join("\n"),
		).toContain("defaultThinkingLevel");
		expect(bad.getDefaultThinkingLevel()).toBeUndefined();
	});

	it("cacheWarming: idle by default, read from the user's settings only, an unknown mode is a warning", async () => {
		expect(SettingsManager.create({ cwd, agentDir }).getCacheWarmingMode()).toBe("idle");
		// A project cannot turn warming on (or change it): it would make pi send requests the user did not ask for.
		writeFileSync(globalFile(), JSON.stringify({ cacheWarming: "off" }));
		writeFileSync(projectFile(), JSON.stringify({ cacheWarming: "idle" }));
		const s = SettingsManager.create({ cwd, agentDir });
		expect(s.getCacheWarmingMode()).toBe("off");
		s.setCacheWarmingMode("streaming");
		expect(s.getCacheWarmingMode()).toBe("streaming");
		await s.flush();
		expect(readJson(globalFile()).cacheWarming).toBe("streaming");
		expect(readJson(projectFile()).cacheWarming).toBe("idle");
		writeFileSync(globalFile(), JSON.stringify({ cacheWarming: "always" }));
		const bad = SettingsManager.create({ cwd, agentDir });
		expect(bad.getWarnings().map((w) => w.message)).toEqual([
			`Warning: ${globalFile()}: "cacheWarming" must be one of "off", "streaming", "idle", found the string "always"; using the default for it.`,
		]);
		expect(bad.getCacheWarmingMode()).toBe("idle");
	});

	it("does not overwrite a file that became malformed after loading", async () => {
		const s = SettingsManager.create({ cwd, agentDir });
		writeFileSync(globalFile(), "{ nope");
		s.setTheme("x");
		await s.flush();
		expect(readFileSync(globalFile(), "utf8")).toBe("{ nope");
		expect(s.drainErrors()[0].message).toBe(`Settings not saved: ${globalFile()} is malformed (line 1, column 3).`);
	});

	it("in-memory settings never touch the disk and overrides are not persisted", async () => {
		const s = SettingsManager.inMemory({ compaction: { enabled: false } });
		s.applyOverrides({ retry: { maxRetries: 9 } });
		s.setTheme("light");
		await s.flush();
		expect(s.getSettings()).toEqual({ compaction: { enabled: false }, retry: { maxRetries: 9 }, theme: "light" });
		expect(s.getRetrySettings().maxRetries).toBe(9);
	});

	it("ignores the project file when loadProject is false", () => {
		writeFileSync(projectFile(), JSON.stringify({ theme: "evil" }));
		const s = SettingsManager.create({ cwd, agentDir, loadProject: false });
		expect(s.getTheme()).toBeUndefined();
	});
});
