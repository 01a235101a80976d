// What `pi config` shows and changes: one row per resource of each installed
// package in one settings scope, on or off by the entry's filters; switching
// a row rewrites that entry's filter for the kind so that exactly the chosen
// set loads (manifest.ts `applyFilter` semantics).
import type { PackageSource } from "../config/settings-schema.js";
import { type InstallContext, installedPath, isInstalled } from "./install.js";
import { applyDelta, applyFilter, RESOURCE_KINDS, type ResourceKind, readPackage } from "./manifest.js";
import { entrySource, type SettingsLocation } from "./settings-file.js";
import { parseSource, sourceIdentity } from "./source.js";

export interface ConfigRow {
	/** The package's identity (stable across edits of its entry). */
	identity: string;
	spec: string;
	kind: ResourceKind;
	/** Path relative to the package root. */
	item: string;
	enabled: boolean;
}

export interface ConfigPackage {
	identity: string;
	spec: string;
	available: Record<ResourceKind, string[]>;
	/** A project `autoload: false` entry: the user's entry it narrows. */
	userEntry?: PackageSource;
}

export interface ConfigView {
	packages: ConfigPackage[];
	rows: ConfigRow[];
	/** Packages that could not be read (not installed, bad manifest). */
	problems: string[];
}

function filterOf(entry: PackageSource, kind: ResourceKind): string[] | undefined {
	return typeof entry === "string" ? undefined : entry[kind];
}

const noAutoload = (entry: PackageSource) => typeof entry === "object" && entry.autoload === false;

/** What loads of one kind for an entry (load.ts rules), `start` being the user's selection for a project delta. */
export function enabledOf(
	entry: PackageSource,
	kind: ResourceKind,
	available: readonly string[],
	start?: ReadonlySet<string>,
): string[] {
	return noAutoload(entry)
		? applyDelta(available, start ?? new Set(), filterOf(entry, kind))
		: applyFilter(available, filterOf(entry, kind));
}

/** The user's entries, for project entries with `autoload: false` that narrow the user's package. */
export interface UserBase {
	entries: readonly PackageSource[];
	location: SettingsLocation;
}

function userEntryFor(identity: string, base: UserBase | undefined): PackageSource | undefined {
	return base?.entries.find((e) => {
		try {
			return sourceIdentity(parseSource(entrySource(e), base.location.baseDir)) === identity;
		} catch {
			return false;
		}
	});
}

export function buildConfigView(
	entries: readonly PackageSource[],
	location: SettingsLocation,
	ctx: InstallContext,
	userBase?: UserBase,
): ConfigView {
	const view: ConfigView = { packages: [], rows: [], problems: [] };
	for (const entry of entries) {
		const spec = entrySource(entry);
		try {
			const source = parseSource(spec, location.baseDir);
			const identity = sourceIdentity(source);
			const baseEntry =
				location.scope === "project" && noAutoload(entry) ? userEntryFor(identity, userBase) : undefined;
			const scope = baseEntry ? "user" : location.scope;
			if (source.type !== "local" && !isInstalled(source, scope, ctx)) {
				view.problems.push(`${spec}: not installed yet (run pi update)`);
				continue;
			}
			const available = readPackage(installedPath(source, scope, ctx)).items;
			view.packages.push({ identity, spec, available, ...(baseEntry ? { userEntry: baseEntry } : {}) });
			for (const kind of RESOURCE_KINDS) {
				const start = baseEntry ? new Set(enabledOf(baseEntry, kind, available[kind])) : undefined;
				const on = new Set(enabledOf(entry, kind, available[kind], start));
				for (const item of available[kind]) view.rows.push({ identity, spec, kind, item, enabled: on.has(item) });
			}
		} catch (error) {
			view.problems.push(`${spec}: ${(error as Error).message}`);
		}
	}
	return view;
}

/**
 * The filter that loads exactly `enabled` out of `available`: none when
 * everything is on, `-path` entries when the old filter was absent or only
 * exclusions, else an explicit `+path` list.
 */
export function filterFor(
	available: readonly string[],
	enabled: ReadonlySet<string>,
	previous: readonly string[] | undefined,
): string[] | undefined {
	const off = available.filter((i) => !enabled.has(i));
	if (off.length === 0) return undefined;
	const onlyExclusions = previous === undefined || previous.every((p) => p.trim().startsWith("-"));
	if (onlyExclusions) return off.map((i) => `-${i}`);
	return available.filter((i) => enabled.has(i)).map((i) => `+${i}`);
}

/** The entry with one resource switched on or off (an object entry with no filters left becomes a string). */
export function toggleResource(
	entry: PackageSource,
	kind: ResourceKind,
	item: string,
	available: readonly string[],
	enable: boolean,
	/** For a project `autoload: false` entry: the user's entry it narrows. */
	userEntry?: PackageSource,
): PackageSource {
	if (typeof entry === "object" && entry.autoload === false) {
		// Only what the entry names changes: its own +item/-item goes, and one comes back if still needed.
		const start = userEntry ? new Set(enabledOf(userEntry, kind, available)) : new Set<string>();
		const list = (entry[kind] ?? []).filter((p) => p.trim() !== `+${item}` && p.trim() !== `-${item}`);
		if (applyDelta(available, start, list).includes(item) !== enable) list.push(`${enable ? "+" : "-"}${item}`);
		const next = { ...entry };
		if (list.length > 0) next[kind] = list;
		else delete next[kind];
		return next;
	}
	const previous = filterOf(entry, kind);
	const enabled = new Set(applyFilter(available, previous));
	if (enable) enabled.add(item);
	else enabled.delete(item);
	const next = filterFor(available, enabled, previous);
	const obj: Exclude<PackageSource, string> = typeof entry === "string" ? { source: entry } : { ...entry };
	if (next === undefined) delete obj[kind];
	else obj[kind] = next;
	const hasFilters = RESOURCE_KINDS.some((k) => obj[k] !== undefined);
	const otherKeys = Object.keys(obj).some((k) => k !== "source" && !(RESOURCE_KINDS as readonly string[]).includes(k));
	return hasFilters || otherKeys ? obj : obj.source;
}
