// A package source as written in settings or on the command line:
//   npm:name[@version]           npm:@scope/name[@version]
//   git:host/path[@ref]          (cloned over https)
//   https://… http://… ssh://… file://… git@host:path   (git URLs, optional @ref at the end)
//   anything else                a local path, relative to the settings file that names it
// A version or ref pins the package: `pi update` leaves it where it is
// (a git ref that turns out to be a branch follows that branch).
import { createHash } from "node:crypto";
import { resolveUserPath } from "../config/paths.js";

export interface NpmSource {
	type: "npm";
	/** As written. */
	spec: string;
	name: string;
	version?: string;
}

export interface GitSource {
	type: "git";
	spec: string;
	/** What `git clone` gets (no ref). */
	url: string;
	ref?: string;
	/** Host part for the install path ("local" for file:// URLs). */
	host: string;
	/** Repository path below the host, without a trailing `.git`. */
	path: string;
}

export interface LocalSource {
	type: "local";
	spec: string;
	/** Absolute path, resolved from the settings file's directory (or cwd on the command line). */
	path: string;
}

export type ParsedSource = NpmSource | GitSource | LocalSource;

export class SourceError extends Error {}

const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

function parseNpm(spec: string): NpmSource {
	const rest = spec.slice("npm:".length).trim();
	// The version separator is the first "@" after the (optional) scope.
	const at = rest.indexOf("@", rest.startsWith("@") ? 1 : 0);
	const name = at === -1 ? rest : rest.slice(0, at);
	const version = at === -1 ? undefined : rest.slice(at + 1);
	if (!NPM_NAME.test(name)) {
		throw new SourceError(`"${spec}" is not a valid npm source: "${name}" is not an npm package name`);
	}
	if (version !== undefined && version.trim() === "") {
		throw new SourceError(`"${spec}" is not a valid npm source: nothing after "@"`);
	}
	return { type: "npm", spec, name, ...(version ? { version } : {}) };
}

/** Splits `…/repo@ref` (the `@` after the last `/`, so `ssh://git@host/…` keeps its user). */
function splitRef(text: string): { base: string; ref?: string } {
	const slash = Math.max(text.lastIndexOf("/"), text.lastIndexOf(":"));
	const at = text.indexOf("@", slash + 1);
	if (at === -1) return { base: text };
	const ref = text.slice(at + 1);
	return ref ? { base: text.slice(0, at), ref } : { base: text.slice(0, at) };
}

function cleanRepoPath(path: string): string {
	return path
		.replace(/^\/+/, "")
		.replace(/\/+$/, "")
		.replace(/\.git$/, "");
}

function parseGit(spec: string): GitSource {
	if (spec.startsWith("git:") && !spec.startsWith("git://")) {
		const { base, ref } = splitRef(spec.slice("git:".length).trim());
		const slash = base.indexOf("/");
		if (slash <= 0 || slash === base.length - 1) {
			throw new SourceError(`"${spec}" is not a valid git source: expected git:host/path[@ref]`);
		}
		const host = base.slice(0, slash);
		const path = cleanRepoPath(base.slice(slash + 1));
		return { type: "git", spec, url: `https://${host}/${path}`, host, path, ...(ref ? { ref } : {}) };
	}
	const scp = /^([^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(spec);
	if (scp && !/^[a-z]+:\/\//i.test(spec)) {
		// git@host:owner/repo[@ref]
		const { base, ref } = splitRef(scp[3]);
		const url = `${scp[1] ?? ""}${scp[2]}:${base}`;
		return { type: "git", spec, url, host: scp[2], path: cleanRepoPath(base), ...(ref ? { ref } : {}) };
	}
	const { base, ref } = splitRef(spec.trim());
	let parsed: URL;
	try {
		parsed = new URL(base);
	} catch {
		throw new SourceError(`"${spec}" is not a valid git URL`);
	}
	const host = parsed.protocol === "file:" ? "local" : parsed.hostname;
	const path = cleanRepoPath(decodeURIComponent(parsed.pathname));
	if (!path) throw new SourceError(`"${spec}" is not a valid git URL: no repository path`);
	return { type: "git", spec, url: base, host, path, ...(ref ? { ref } : {}) };
}

const GIT_URL = /^(https?|ssh|file|git):\/\//i;

/** True for sources that are not local paths. */
export function isRemoteSource(spec: string): boolean {
	const s = spec.trim();
	return s.startsWith("npm:") || s.startsWith("git:") || GIT_URL.test(s) || /^[^@/\s]+@[^:/\s]+:[^/]/.test(s);
}

/**
 * Parses a source. `baseDir` resolves local paths (the settings file's
 * directory, or cwd for a command-line argument). Throws SourceError with a
 * message naming the source when it cannot be parsed.
 */
export function parseSource(spec: string, baseDir: string): ParsedSource {
	const s = spec.trim();
	if (s === "") throw new SourceError("empty package source");
	if (s.startsWith("npm:")) return parseNpm(s);
	if (isRemoteSource(s)) return parseGit(s);
	return { type: "local", spec: s, path: resolveUserPath(s.startsWith("file:") ? s.slice(5) : s, baseDir) };
}

/** What makes two declarations the same package: npm name, git URL without ref, local absolute path. */
export function sourceIdentity(source: ParsedSource): string {
	if (source.type === "npm") return `npm:${source.name}`;
	if (source.type === "git") return `git:${source.host}/${source.path}`;
	return `local:${source.path}`;
}

/** A version or ref was given. */
export function isPinned(source: ParsedSource): boolean {
	return source.type === "npm"
		? source.version !== undefined
		: source.type === "git"
			? source.ref !== undefined
			: false;
}

/** A short stable directory name for a source (temporary `-e` caches). */
export function sourceHash(source: ParsedSource): string {
	return createHash("sha256").update(source.spec).digest("hex").slice(0, 10);
}
