// The themes of one interactive session: which exist, which is in force, and
// live reload of the active theme's file. Editors often save by writing a new
// file and renaming it over the old one, so the watch is on the directory,
// filtered by file name, and debounced; a save that leaves the file invalid
// keeps the last good colours and says why.
import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { appearanceFromColorFgBg } from "@pi/tui";
import type { SettingsManager } from "../../../config/settings.js";
import { type ColorMode, detectColorMode } from "./color.js";
import { createTheme, type LoadedTheme } from "./create-theme.js";
import { SYSTEM_THEME, themeFollowsTerminal } from "./follows-terminal.js";
import { discoverThemes, loadThemeFile, type ThemeDiscoveryOptions, type ThemeSource } from "./theme-loader.js";

export const DEFAULT_THEME = "dark";

export interface ThemeManagerOptions {
	cwd: string;
	agentDir: string;
	settings?: SettingsManager;
	/** Theme files already found (the resource loader's list); replaces directory discovery. */
	files?: readonly string[];
	/** `--theme` paths. */
	cliPaths?: readonly string[];
	/** `--no-themes`. */
	noDiscovery?: boolean;
	/** `--use-theme`: the theme for this run, not saved. */
	useTheme?: string;
	/** The terminal's background, when known (OSC 11, see terminal-appearance.ts; else COLORFGBG, else dark). Picks `system` and light/dark pairs. */
	appearance?: "light" | "dark";
	colorMode?: ColorMode;
	env?: NodeJS.ProcessEnv;
	/** Debounce of file change events (ms). */
	reloadDelayMs?: number;
}

export interface ThemeInfo {
	name: string;
	path: string | undefined;
}

export type ThemeChangeListener = (theme: LoadedTheme) => void;
export type ThemeWarningListener = (message: string) => void;

export { SYSTEM_THEME, themeFollowsTerminal } from "./follows-terminal.js";

/**
 * The theme name a setting stands for on a background: `system` is the
 * built-in of that appearance; `light/dark` is a pair (light first); any
 * other value is a theme name.
 */
export function resolveThemeSetting(value: string, appearance: "light" | "dark"): string {
	if (value === SYSTEM_THEME) return appearance === "light" ? "light" : "dark";
	const slash = value.indexOf("/");
	if (slash > 0 && slash < value.length - 1) {
		return appearance === "light" ? value.slice(0, slash) : value.slice(slash + 1);
	}
	return value;
}

function stringList(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export class ThemeManager {
	readonly colorMode: ColorMode;
	private sources: ThemeSource[] = [];
	private active: LoadedTheme;
	private readonly startupWarnings: string[] = [];
	private watcher: FSWatcher | undefined;
	/** Live reload requested (the watch follows the active theme's file). */
	private watching = false;
	private watchedPath: string | undefined;
	private timer: NodeJS.Timeout | undefined;
	private readonly changeListeners = new Set<ThemeChangeListener>();
	private readonly warningListeners = new Set<ThemeWarningListener>();

	/** The terminal background `system` and light/dark pairs follow. */
	private _appearance: "light" | "dark";
	/** The theme setting in force (a name, `system` or a light/dark pair). */
	private wanted: string;

	constructor(private o: ThemeManagerOptions) {
		const env = o.env ?? process.env;
		this.colorMode = o.colorMode ?? detectColorMode(env);
		this._appearance = o.appearance ?? appearanceFromColorFgBg(env) ?? "dark";
		this.startupWarnings.push(...this.rediscover());
		const wanted = o.useTheme ?? o.settings?.getTheme() ?? SYSTEM_THEME;
		this.wanted = wanted;
		const name = resolveThemeSetting(wanted, this.appearance);
		const source = this.find(name);
		if (!source) {
			this.startupWarnings.push(
				`Theme "${name}"${name !== wanted ? ` (from "${wanted}")` : ""} not found (available: ${this.list()
					.map((t) => t.name)
					.join(", ")}); using "${DEFAULT_THEME}"`,
			);
		}
		this.active = this.build(source ?? this.requireSource(DEFAULT_THEME));
	}

	/** Problems found while loading (bad files, unknown theme name); shown once at start-up. */
	getWarnings(): string[] {
		return [...this.startupWarnings];
	}

	get current(): LoadedTheme {
		return this.active;
	}

	get appearance(): "light" | "dark" {
		return this._appearance;
	}

	/** True when the theme in force follows the terminal's background. */
	followsTerminal(): boolean {
		return themeFollowsTerminal(this.wanted);
	}

	/**
	 * The terminal's background changed (a colour-scheme report): a theme that
	 * follows it switches; a fixed one stays. True when the theme changed.
	 */
	setAppearance(appearance: "light" | "dark"): boolean {
		if (appearance === this._appearance) return false;
		this._appearance = appearance;
		if (!this.followsTerminal()) return false;
		const source = this.find(resolveThemeSetting(this.wanted, appearance));
		if (!source || (source.name === this.active.definition.name && source.path === this.active.sourcePath))
			return false;
		this.apply(this.build(source));
		return true;
	}

	/** Every known theme, built-ins first. */
	list(): ThemeInfo[] {
		return this.sources.map((s) => ({ name: s.name, path: s.path }));
	}

	/** The resource loader's theme files changed (/reload, `resources_discover`); returns the warnings. */
	setFiles(files: readonly string[]): string[] {
		this.o = { ...this.o, files };
		return this.rediscover();
	}

	/** Looks for theme files again (new files appear in /settings); returns the warnings. */
	rediscover(): string[] {
		const scope = (s: "global" | "project") => stringList(this.o.settings?.getScopeSettings(s).themes);
		const options: ThemeDiscoveryOptions = {
			cwd: this.o.cwd,
			agentDir: this.o.agentDir,
			files: this.o.files,
			cliPaths: this.o.cliPaths,
			noDiscovery: this.o.noDiscovery,
			globalSettingPaths: scope("global"),
			projectSettingPaths: scope("project"),
		};
		const found = discoverThemes(options);
		this.sources = found.themes;
		return found.warnings;
	}

	/** A theme by name without switching to it (previews); undefined when unknown or broken. */
	load(name: string): LoadedTheme | undefined {
		const source = this.find(resolveThemeSetting(name, this.appearance));
		return source ? this.build(source) : undefined;
	}

	/**
	 * Switches to a theme for this run; `save` also stores it as the `theme`
	 * setting. Unknown names leave the current theme in force.
	 */
	select(name: string, save = false): { ok: true; theme: LoadedTheme } | { ok: false; error: string } {
		const source = this.find(resolveThemeSetting(name, this.appearance));
		if (!source) return { ok: false, error: `Theme "${name}" not found` };
		this.wanted = name;
		this.apply(this.build(source));
		if (save) this.o.settings?.setTheme(name);
		return { ok: true, theme: this.active };
	}

	/** Called with the new theme after a switch or a live reload. */
	onChange(listener: ThemeChangeListener): () => void {
		this.changeListeners.add(listener);
		return () => this.changeListeners.delete(listener);
	}

	/** Called when a reloaded file is invalid or gone. */
	onWarning(listener: ThemeWarningListener): () => void {
		this.warningListeners.add(listener);
		return () => this.warningListeners.delete(listener);
	}

	/** Starts watching the active theme's file (no-op for built-ins). */
	startWatching(): void {
		this.watching = true;
		this.watchActive();
	}

	dispose(): void {
		this.watching = false;
		this.stopWatching();
		this.changeListeners.clear();
		this.warningListeners.clear();
	}

	// -- internals -------------------------------------------------------------------

	private find(name: string): ThemeSource | undefined {
		return this.sources.find((s) => s.name === name);
	}

	private requireSource(name: string): ThemeSource {
		const source = this.find(name);
		if (!source) throw new Error(`built-in theme "${name}" missing`);
		return source;
	}

	private build(source: ThemeSource): LoadedTheme {
		return createTheme(source.definition, this.colorMode, source.path);
	}

	private apply(theme: LoadedTheme): void {
		const previousPath = this.active?.sourcePath;
		this.active = theme;
		if (this.watching && previousPath !== theme.sourcePath) this.watchActive();
		for (const l of this.changeListeners) l(theme);
	}

	private warn(message: string): void {
		for (const l of this.warningListeners) l(message);
	}

	private stopWatching(): void {
		this.watcher?.close();
		this.watcher = undefined;
		this.watchedPath = undefined;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
	}

	private watchActive(): void {
		this.stopWatching();
		const path = this.active.sourcePath;
		if (!path) return;
		const file = basename(path);
		try {
			this.watcher = watch(dirname(path), (_event, changed) => {
				if (changed !== null && changed.toString() !== file) return;
				this.scheduleReload();
			});
			this.watcher.on("error", () => this.stopWatching());
			this.watchedPath = path;
		} catch {
			// An unwatchable directory: no live reload, the theme still works.
		}
	}

	private scheduleReload(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.reloadActive();
		}, this.o.reloadDelayMs ?? 100);
	}

	private reloadActive(): void {
		const path = this.watchedPath;
		if (!path) return;
		if (!existsSync(path)) {
			const name = this.active.name;
			this.sources = this.sources.filter((s) => s.path !== path);
			this.warn(`Theme file ${path} was removed; using "${DEFAULT_THEME}" instead of "${name}"`);
			this.apply(this.build(this.requireSource(DEFAULT_THEME)));
			return;
		}
		let source: ThemeSource;
		try {
			source = loadThemeFile(path);
		} catch (error) {
			this.warn(
				`Theme not reloaded, keeping the previous colours: ${error instanceof Error ? error.message : String(error)}`,
			);
			return;
		}
		this.sources = this.sources.map((s) => (s.path === path ? source : s));
		this.apply(this.build(source));
	}
}
