// Start-up: the configured packages (and `-e` ones) as directories with the
// resources they contribute. A package that is not installed yet is
// installed now (not when offline); one that fails to install or has a bad
// manifest becomes a warning naming it and the reason, its resources are
// skipped and pi runs on — the next start tries again.
//
// The same package declared twice (npm name, git URL without ref, local
// path) loads once: `-e` first, then the project's declaration, then the
// user's.
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { PackageSource } from "../config/settings-schema.js";
import {
	type InstallContext,
	type InstallScope,
	installedPath,
	installedVersion,
	installPackage,
	isInstalled,
} from "./install.js";
import { applyDelta, applyFilter, type PackageItems, RESOURCE_KINDS, readPackage } from "./manifest.js";
import { type ParsedSource, parseSource, sourceIdentity } from "./source.js";
import { latestNpmVersion, updatePackage } from "./update.js";

export interface PackageDeclaration {
	entry: PackageSource;
	scope: InstallScope;
	/** Local paths resolve from here. */
	baseDir: string;
}

export interface LoadedPackage {
	/** The source as written: what `sourceInfo.source` and resource origins name. */
	spec: string;
	identity: string;
	scope: InstallScope;
	source: ParsedSource;
	root: string;
	version?: string;
	/** Everything the package offers, relative to root. */
	available: PackageItems;
	/** What loads after the settings filter, absolute. */
	enabled: PackageItems;
}

export interface PackagesLoad {
	packages: LoadedPackage[];
	warnings: string[];
}

export interface LoadPackagesOptions {
	ctx: InstallContext;
	/** In precedence order. */
	declarations: PackageDeclaration[];
	/** Offline mode: nothing is installed or refreshed. */
	offline?: boolean;
	/**
	 * The user's loaded packages: a project entry with `autoload: false` for
	 * one of them narrows that one (a delta over the user's selection) instead
	 * of installing and loading its own copy.
	 */
	deltaBase?: readonly LoadedPackage[];
}

const EXACT_VERSION = /^v?\d+\.\d+\.\d+(-[\w.]+)?$/;

function filtersOf(entry: PackageSource): Partial<Record<(typeof RESOURCE_KINDS)[number], string[]>> {
	if (typeof entry === "string") return {};
	const out: Partial<Record<(typeof RESOURCE_KINDS)[number], string[]>> = {};
	for (const kind of RESOURCE_KINDS) {
		const v = entry[kind];
		if (Array.isArray(v)) out[kind] = v.filter((x): x is string => typeof x === "string");
	}
	return out;
}

function noAutoload(entry: PackageSource): boolean {
	return typeof entry === "object" && entry.autoload === false;
}

/** What loads of one kind: the settings filter over everything, or with autoload false only what the entry names. */
function selected(entry: PackageSource, kind: (typeof RESOURCE_KINDS)[number], items: readonly string[]): string[] {
	const filter = filtersOf(entry)[kind];
	return noAutoload(entry) ? applyDelta(items, new Set(), filter) : applyFilter(items, filter);
}

/** A project `autoload: false` entry over the user's package: the user's selection, switched by the entry's patterns. */
function deltaOver(base: LoadedPackage, entry: PackageSource): LoadedPackage {
	const filters = filtersOf(entry);
	const enabled = {} as PackageItems;
	for (const kind of RESOURCE_KINDS) {
		const start = new Set(base.enabled[kind].map((p) => relative(base.root, p).split("\\").join("/")));
		enabled[kind] = applyDelta(base.available[kind], start, filters[kind]).map((p) => join(base.root, p));
	}
	return { ...base, enabled };
}

/** `-e` caches are checked each start: a newer matching npm version or a moved branch is fetched. */
async function refreshTemporary(source: ParsedSource, ctx: InstallContext): Promise<void> {
	try {
		if (source.type === "npm") {
			if (source.version && EXACT_VERSION.test(source.version)) return;
			const latest = await latestNpmVersion(source, ctx);
			const have = installedVersion(installedPath(source, "temporary", ctx));
			if (latest && latest !== have) await installPackage(source, "temporary", ctx);
		} else if (source.type === "git") {
			await updatePackage(source, "temporary", ctx);
		}
	} catch {
		// The check failed (registry down …): the cached copy is used.
	}
}

/** Loads one declaration; throws with the reason when it cannot be used. */
async function loadOne(d: PackageDeclaration, source: ParsedSource, o: LoadPackagesOptions): Promise<LoadedPackage> {
	const { ctx } = o;
	const spec = typeof d.entry === "string" ? d.entry : d.entry.source;
	if (source.type !== "local") {
		if (!isInstalled(source, d.scope, ctx)) {
			if (o.offline) throw new Error("not installed, and offline mode is on");
			await installPackage(source, d.scope, ctx);
		} else if (d.scope === "temporary" && !o.offline) {
			await refreshTemporary(source, ctx);
		}
	}
	const path = installedPath(source, d.scope, ctx);
	if (!existsSync(path)) throw new Error(`${path} does not exist`);
	const identity = sourceIdentity(source);
	if (statSync(path).isFile()) {
		// A file is one extension.
		const root = dirname(path);
		const available: PackageItems = { extensions: [basename(path)], skills: [], prompts: [], themes: [] };
		const enabled = { ...available, extensions: selected(d.entry, "extensions", available.extensions) };
		enabled.extensions = enabled.extensions.map((p) => join(root, p));
		return { spec, identity, scope: d.scope, source, root, available, enabled };
	}
	const info = readPackage(path);
	const enabled = {} as PackageItems;
	for (const kind of RESOURCE_KINDS) {
		enabled[kind] = selected(d.entry, kind, info.items[kind]).map((p) => join(path, p));
	}
	return { spec, identity, scope: d.scope, source, root: path, version: info.version, available: info.items, enabled };
}

export async function loadPackages(o: LoadPackagesOptions): Promise<PackagesLoad> {
	const packages: LoadedPackage[] = [];
	const warnings: string[] = [];
	const seen = new Set<string>();
	for (const d of o.declarations) {
		const spec = typeof d.entry === "string" ? d.entry : d.entry.source;
		let source: ParsedSource;
		try {
			source = parseSource(spec, d.baseDir);
		} catch (error) {
			warnings.push(`Warning: package "${spec}" skipped: ${(error as Error).message}`);
			continue;
		}
		const identity = sourceIdentity(source);
		if (seen.has(identity)) continue;
		seen.add(identity);
		const base =
			d.scope === "project" && noAutoload(d.entry) ? o.deltaBase?.find((p) => p.identity === identity) : undefined;
		if (base) {
			packages.push(deltaOver(base, d.entry));
			continue;
		}
		try {
			packages.push(await loadOne(d, source, o));
		} catch (error) {
			warnings.push(
				`Warning: package ${spec} skipped: ${(error as Error).message}. Its resources are not loaded; pi tries again on the next start.`,
			);
		}
	}
	return { packages, warnings };
}

/** Declarations from a settings `packages` array. */
export function declarationsOf(entries: unknown, scope: InstallScope, baseDir: string): PackageDeclaration[] {
	if (!Array.isArray(entries)) return [];
	return entries
		.filter(
			(e): e is PackageSource =>
				typeof e === "string" ||
				(typeof e === "object" && e !== null && typeof (e as { source?: unknown }).source === "string"),
		)
		.map((entry) => ({ entry, scope, baseDir }));
}
