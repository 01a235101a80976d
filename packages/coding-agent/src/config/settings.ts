// Settings: global `<agentDir>/settings.json` deep-merged with the project's
// `.pi/settings.json` (project wins; objects merge, arrays replace). Getters are
// synchronous over memory. Setters change memory at once and persist in the
// background: under a file lock, only the keys this process changed are merged
// into the file as it is on disk now, so outside edits survive. A malformed
// file gives a warning (file:line:column), its scope falls back to defaults and
// it is never overwritten.
import { existsSync, statSync } from "node:fs";
import type { ThinkingLevel } from "@pi/ai";
import { withFileLock } from "./file-lock.js";
import { isPlainObject, readJsonFile, writeFileAtomic } from "./json-file.js";
import { agentPaths, getAgentDir, projectPaths } from "./paths.js";
import {
	type BranchSummarySettings,
	CACHE_WARMING_MODES,
	type CacheWarmingMode,
	type CompactionSettings,
	DEFAULT_BRANCH_SUMMARY,
	DEFAULT_CACHE_WARMING,
	DEFAULT_COMPACTION,
	DEFAULT_IMAGES,
	DEFAULT_RETRY,
	DEFAULT_TERMINAL,
	type ImageSettings,
	type QueueMode,
	type RetrySettings,
	type Settings,
	type TerminalSettings,
	type Transport,
} from "./settings-schema.js";
import { dropInvalidSettings } from "./settings-validate.js";

export * from "./settings-schema.js";

export type SettingsScope = "global" | "project";

/** A problem reading or saving a settings file; `message` names the file. */
export interface SettingsIssue {
	scope: SettingsScope;
	file: string;
	message: string;
}

/** A key path into the settings object, e.g. `["compaction", "enabled"]`. */
export type SettingsPath = readonly string[];

/** Deep merge: plain objects merge key by key, anything else (arrays included) replaces. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(over)) {
		if (value === undefined) continue;
		const prev = out[key];
		out[key] = isPlainObject(prev) && isPlainObject(value) ? deepMerge(prev, value) : structuredClone(value);
	}
	return out;
}

function getAt(obj: Record<string, unknown>, path: SettingsPath): unknown {
	let cur: unknown = obj;
	for (const key of path) {
		if (!isPlainObject(cur)) return undefined;
		cur = cur[key];
	}
	return cur;
}

/** Sets (or deletes, for undefined) the value at `path`, creating objects on the way. */
function setAt(obj: Record<string, unknown>, path: SettingsPath, value: unknown): void {
	let cur = obj;
	for (const key of path.slice(0, -1)) {
		const next = cur[key];
		if (!isPlainObject(next)) {
			if (value === undefined) return;
			cur[key] = {};
		}
		cur = cur[key] as Record<string, unknown>;
	}
	const last = path[path.length - 1];
	if (value === undefined) delete cur[last];
	else cur[last] = structuredClone(value);
}

interface ScopeState {
	file?: string;
	data: Record<string, unknown>;
	/** The file on disk could not be parsed: never write it. */
	malformed: boolean;
	/** Key paths changed by this process since the last save (JSON-encoded). */
	dirty: Set<string>;
}

export interface SettingsManagerOptions {
	cwd?: string;
	agentDir?: string;
	/** Read the project's `.pi/settings.json` (false for untrusted projects). Default true. */
	loadProject?: boolean;
}

export class SettingsManager {
	private readonly scopes: Record<SettingsScope, ScopeState>;
	private overrides: Record<string, unknown> = {};
	private merged: Settings = {};
	private readonly warnings: SettingsIssue[] = [];
	private errors: SettingsIssue[] = [];
	private writeChain: Promise<void> = Promise.resolve();

	private constructor(globalFile: string | undefined, projectFile: string | undefined, initial?: Settings) {
		this.scopes = {
			global: { file: globalFile, data: initial ? structuredClone(initial) : {}, malformed: false, dirty: new Set() },
			project: { file: projectFile, data: {}, malformed: false, dirty: new Set() },
		};
		this.reload();
	}

	/** Settings backed by `<agentDir>/settings.json` and `<cwd>/.pi/settings.json`. */
	static create(options: SettingsManagerOptions = {}): SettingsManager {
		const cwd = options.cwd ?? process.cwd();
		const agentDir = options.agentDir ?? getAgentDir();
		const project = options.loadProject === false ? undefined : projectPaths(cwd).settings;
		return new SettingsManager(agentPaths(agentDir).settings, project, undefined);
	}

	/** Settings that live only in memory (SDK, tests). */
	static inMemory(settings: Settings = {}): SettingsManager {
		return new SettingsManager(undefined, undefined, settings);
	}

	/**
	 * Points the project scope at another folder's `.pi/settings.json`
	 * (undefined: no project scope, an untrusted folder) and reads it. Used
	 * when a session switch enters another folder; the global scope stays.
	 */
	setProjectDir(cwd: string | undefined): void {
		const project = this.scopes.project;
		project.file = cwd === undefined ? undefined : projectPaths(cwd).settings;
		project.data = {};
		project.malformed = false;
		project.dirty.clear();
		this.reload();
	}

	/** Re-reads both files (in-memory settings are kept as they are). */
	reload(): void {
		for (const scope of ["global", "project"] as const) {
			const state = this.scopes[scope];
			if (!state.file) continue;
			const read = readJsonFile(state.file);
			state.malformed = false;
			if (read.kind === "missing") state.data = {};
			else if (read.kind === "malformed") {
				state.data = {};
				state.malformed = true;
				this.warnings.push({
					scope,
					file: state.file,
					message: `Warning: could not parse ${read.error.file} at line ${read.error.line}, column ${read.error.column}: ${read.error.reason}. Using default settings for it; the file will not be changed.`,
				});
			} else if (read.kind === "unusable") {
				state.data = {};
				state.malformed = true;
				this.warnings.push({
					scope,
					file: state.file,
					message: `Warning: ${state.file} ${read.reason}. Using default settings for it; the file will not be changed.`,
				});
			} else if (!isPlainObject(read.value)) {
				state.data = {};
				state.malformed = true;
				this.warnings.push({
					scope,
					file: state.file,
					message: `Warning: ${state.file} must contain a JSON object. Using default settings for it; the file will not be changed.`,
				});
			} else {
				state.data = read.value;
				for (const problem of dropInvalidSettings(state.data)) {
					this.warnings.push({
						scope,
						file: state.file,
						message: `Warning: ${state.file}: ${problem}; using the default for it.`,
					});
				}
			}
			state.dirty.clear();
		}
		this.remerge();
	}

	private remerge(): void {
		this.merged = deepMerge(deepMerge(this.scopes.global.data, this.scopes.project.data), this.overrides) as Settings;
	}

	/** Load-time warnings (malformed files). Shown once by the caller. */
	getWarnings(): SettingsIssue[] {
		return [...this.warnings];
	}

	/** Save errors since the last call. */
	drainErrors(): SettingsIssue[] {
		const out = this.errors;
		this.errors = [];
		return out;
	}

	/** The effective settings (global ← project ← runtime overrides). A copy. */
	getSettings(): Settings {
		return structuredClone(this.merged);
	}

	getScopeSettings(scope: SettingsScope): Settings {
		return structuredClone(this.scopes[scope].data) as Settings;
	}

	/** Runtime-only overrides, deep-merged on top; never persisted. */
	applyOverrides(patch: Settings): void {
		this.overrides = deepMerge(this.overrides, patch);
		this.remerge();
	}

	/** Value at a key path in the effective settings. */
	get(path: string | SettingsPath): unknown {
		return structuredClone(getAt(this.merged, typeof path === "string" ? [path] : path));
	}

	/**
	 * Sets a key (undefined deletes it) in a scope, global by default, and
	 * schedules a save of that key. Use `flush()` to wait for the write.
	 */
	set(path: string | SettingsPath, value: unknown, scope: SettingsScope = "global"): void {
		const keyPath = typeof path === "string" ? [path] : [...path];
		if (keyPath.length === 0) throw new Error("settings key path must not be empty");
		const state = this.scopes[scope];
		setAt(state.data, keyPath, value);
		state.dirty.add(JSON.stringify(keyPath));
		this.remerge();
		this.scheduleSave(scope);
	}

	/** Resolves when every save scheduled so far has finished (successfully or not). */
	flush(): Promise<void> {
		return this.writeChain;
	}

	private scheduleSave(scope: SettingsScope): void {
		const state = this.scopes[scope];
		if (!state.file) {
			state.dirty.clear();
			return;
		}
		this.writeChain = this.writeChain.then(() => this.save(scope));
	}

	private async save(scope: SettingsScope): Promise<void> {
		const state = this.scopes[scope];
		const file = state.file;
		if (!file || state.dirty.size === 0) return;
		if (state.malformed) {
			this.errors.push({ scope, file, message: `Settings not saved: ${file} is malformed; fix it first.` });
			return;
		}
		const paths = [...state.dirty].map((p) => JSON.parse(p) as string[]);
		state.dirty.clear();
		try {
			await withFileLock(file, () => {
				const current = readJsonFile(file);
				if (
					current.kind === "malformed" ||
					current.kind === "unusable" ||
					(current.kind === "ok" && !isPlainObject(current.value))
				) {
					// Someone broke the file since we read it: leave it alone.
					state.malformed = true;
					const where =
						current.kind === "malformed" ? ` (line ${current.error.line}, column ${current.error.column})` : "";
					this.errors.push({ scope, file, message: `Settings not saved: ${file} is malformed${where}.` });
					return;
				}
				const onDisk = current.kind === "ok" ? (current.value as Record<string, unknown>) : {};
				for (const path of paths) setAt(onDisk, path, getAt(state.data, path));
				const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
				writeFileAtomic(file, `${JSON.stringify(onDisk, null, 2)}\n`, mode);
				// Pick up outside edits of other keys; keep our own unsaved changes.
				const pending = [...state.dirty].map((p) => JSON.parse(p) as string[]);
				const fresh = structuredClone(onDisk);
				for (const path of pending) setAt(fresh, path, getAt(state.data, path));
				state.data = fresh;
				this.remerge();
			});
		} catch (error) {
			this.errors.push({ scope, file, message: `Could not save ${file}: ${(error as Error).message}` });
		}
	}

	// -- typed getters with defaults ------------------------------------------

	getDefaultProvider(): string | undefined {
		return this.merged.defaultProvider;
	}
	getDefaultModel(): string | undefined {
		return this.merged.defaultModel;
	}
	getDefaultThinkingLevel(): ThinkingLevel | undefined {
		return this.merged.defaultThinkingLevel;
	}
	getSteeringMode(): QueueMode {
		return this.merged.steeringMode === "all" ? "all" : "one-at-a-time";
	}
	getFollowUpMode(): QueueMode {
		return this.merged.followUpMode === "all" ? "all" : "one-at-a-time";
	}
	getTransport(): Transport {
		return this.merged.transport ?? "auto";
	}
	getTheme(): string | undefined {
		return this.merged.theme;
	}
	getShellPath(): string | undefined {
		return this.merged.shellPath;
	}
	getShellCommandPrefix(): string | undefined {
		return this.merged.shellCommandPrefix;
	}
	getSessionDir(): string | undefined {
		return this.merged.sessionDir;
	}
	getEnabledModels(): string[] | undefined {
		return this.merged.enabledModels;
	}
	getHideThinkingBlock(): boolean {
		return this.merged.hideThinkingBlock ?? false;
	}
	getShowCacheMissNotices(): boolean {
		return this.merged.showCacheMissNotices ?? false;
	}
	/**
	 * `cacheWarming`, from the user's settings (and SDK overrides) only: a
	 * project cannot make pi send requests the user did not ask for.
	 */
	getCacheWarmingMode(): CacheWarmingMode {
		const value = this.overrides.cacheWarming ?? this.scopes.global.data.cacheWarming;
		return CACHE_WARMING_MODES.includes(value as CacheWarmingMode)
			? (value as CacheWarmingMode)
			: DEFAULT_CACHE_WARMING;
	}
	getQuietStartup(): boolean {
		return this.merged.quietStartup ?? false;
	}
	getThinkingBudgets(): Settings["thinkingBudgets"] {
		return this.merged.thinkingBudgets;
	}
	getCompactionSettings(): CompactionSettings {
		return { ...DEFAULT_COMPACTION, ...this.merged.compaction };
	}
	getBranchSummarySettings(): BranchSummarySettings {
		return { ...DEFAULT_BRANCH_SUMMARY, ...this.merged.branchSummary };
	}
	getRetrySettings(): RetrySettings {
		const r = this.merged.retry ?? {};
		return { ...DEFAULT_RETRY, ...r, provider: { ...DEFAULT_RETRY.provider, ...r.provider } };
	}
	getTerminalSettings(): TerminalSettings {
		return { ...DEFAULT_TERMINAL, ...this.merged.terminal };
	}
	getImageSettings(): ImageSettings {
		return { ...DEFAULT_IMAGES, ...this.merged.images };
	}

	// -- setters used by the product (all write the global scope) -------------

	setDefaultModelAndProvider(provider: string, modelId: string): void {
		this.set("defaultProvider", provider);
		this.set("defaultModel", modelId);
	}
	setDefaultThinkingLevel(level: ThinkingLevel): void {
		this.set("defaultThinkingLevel", level);
	}
	setSteeringMode(mode: QueueMode): void {
		this.set("steeringMode", mode);
	}
	setFollowUpMode(mode: QueueMode): void {
		this.set("followUpMode", mode);
	}
	setCompactionEnabled(enabled: boolean): void {
		this.set(["compaction", "enabled"], enabled);
	}
	setRetryEnabled(enabled: boolean): void {
		this.set(["retry", "enabled"], enabled);
	}
	setCacheWarmingMode(mode: CacheWarmingMode): void {
		this.set("cacheWarming", mode);
	}
	setTheme(theme: string): void {
		this.set("theme", theme);
	}
}
