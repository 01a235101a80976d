// The `packages` key of a settings file, read and changed under the same
// cross-process lock SettingsManager uses. Only `packages` is touched: every
// other key is written back as it is on disk at that moment, and the file is
// replaced atomically, so an interrupted write leaves the old file whole. A
// malformed file is never overwritten.
import { dirname, join } from "node:path";
import { withFileLock } from "../config/file-lock.js";
import { isPlainObject, readJsonFile, writeFileAtomic } from "../config/json-file.js";
import { agentPaths, PROJECT_CONFIG_DIR, projectPaths } from "../config/paths.js";
import type { PackageSource } from "../config/settings-schema.js";
import { type ParsedSource, parseSource, SourceError, sourceIdentity } from "./source.js";

export type PackageScope = "user" | "project";

export interface SettingsLocation {
	scope: PackageScope;
	file: string;
	/** Relative local sources resolve from here (the agent dir, or `<cwd>/.pi`). */
	baseDir: string;
}

export function settingsLocation(scope: PackageScope, agentDir: string, cwd: string): SettingsLocation {
	return scope === "user"
		? { scope, file: agentPaths(agentDir).settings, baseDir: agentDir }
		: { scope, file: projectPaths(cwd).settings, baseDir: join(cwd, PROJECT_CONFIG_DIR) };
}

export function entrySource(entry: PackageSource): string {
	return typeof entry === "string" ? entry : entry.source;
}

function readState(file: string): { data: Record<string, unknown>; exists: boolean } {
	const current = readJsonFile(file);
	if (current.kind === "malformed") {
		throw new Error(
			`${file} is malformed (line ${current.error.line}, column ${current.error.column}); fix it first — nothing was changed`,
		);
	}
	if (current.kind === "unusable" || (current.kind === "ok" && !isPlainObject(current.value))) {
		throw new Error(`${file} is not a settings object; fix it first — nothing was changed`);
	}
	return current.kind === "ok"
		? { data: current.value as Record<string, unknown>, exists: true }
		: { data: {}, exists: false };
}

/** The `packages` entries of a settings file (an unreadable or missing file has none). */
export function readPackageEntries(file: string): PackageSource[] {
	try {
		const { data } = readState(file);
		const list = data.packages;
		if (!Array.isArray(list)) return [];
		return list.filter(
			(e): e is PackageSource => typeof e === "string" || (isPlainObject(e) && typeof e.source === "string"),
		);
	} catch {
		return [];
	}
}

/**
 * Replaces `packages` with what `edit` returns (undefined: no change), under
 * the lock, reading the file fresh. Resolves to the new list.
 */
export async function editPackageEntries(
	file: string,
	edit: (entries: PackageSource[]) => PackageSource[] | undefined,
): Promise<PackageSource[] | undefined> {
	return editSettingsArray<PackageSource>(file, "packages", edit);
}

/** The same for another array key (`extensions`: built-ins switched on and off by `pi config`). */
export async function editSettingsArray<T>(
	file: string,
	key: string,
	edit: (entries: T[]) => T[] | undefined,
): Promise<T[] | undefined> {
	return withFileLock(file, () => {
		const { data } = readState(file);
		const before = Array.isArray(data[key]) ? (data[key] as T[]) : [];
		const after = edit(structuredClone(before));
		if (after === undefined) return undefined;
		data[key] = after;
		writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
		return after;
	});
}

/** A string-array key of a settings file (none when missing or unreadable). */
export function readSettingsStrings(file: string, key: string): string[] {
	try {
		const value = readState(file).data[key];
		return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
	} catch {
		return [];
	}
}

/** The index of the entry naming the same package as `source` (npm name, git URL, local path), or -1. */
export function findEntry(entries: readonly PackageSource[], source: ParsedSource, baseDir: string): number {
	const id = sourceIdentity(source);
	return entries.findIndex((e) => {
		try {
			return sourceIdentity(parseSource(entrySource(e), baseDir)) === id;
		} catch (error) {
			if (error instanceof SourceError) return false;
			throw error;
		}
	});
}

export function settingsDir(location: SettingsLocation): string {
	return dirname(location.file);
}
