// Which session a CLI run works on: --no-session (memory only), --session
// <path|id>, --fork <path|id>, --continue, or a new one.
import { readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { assertValidSessionId } from "../session/ids.js";
import { findSessionsByIdPrefix } from "../session/listing.js";
import { getSessionsRoot, sessionIdFromFileName } from "../session/paths.js";
import { SessionManager, type SessionManagerOptions } from "../session/session-manager.js";
import type { SessionLoadWarning } from "../session/types.js";
import { fileKind } from "../tools/shared/atomic-write.js";
import type { ParsedArgs } from "./args.js";

export class CliUsageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "CliUsageError";
	}
}

function looksLikePath(value: string): boolean {
	return value.includes("/") || value.includes("\\") || value.endsWith(".jsonl");
}

/** Session files whose id starts with `prefix`, in `dir` only (a custom --session-dir). */
function matchesInDir(dir: string, prefix: string): string[] {
	try {
		return readdirSync(dir)
			.filter((name) => sessionIdFromFileName(name)?.startsWith(prefix))
			.map((name) => join(dir, name));
	} catch {
		return [];
	}
}

/** The error for a prefix several sessions share: each match by id and file, so the user can pick one. */
function ambiguous(prefix: string, hits: { id: string; path: string }[]): CliUsageError {
	const shown = hits.slice(0, 20).map((h) => `  ${h.id}  ${h.path}`);
	if (hits.length > shown.length) shown.push(`  … and ${hits.length - shown.length} more`);
	return new CliUsageError(
		`Session id '${prefix}' is ambiguous (${hits.length} sessions match); give more of the id:\n${shown.join("\n")}`,
	);
}

function findById(prefix: string, cwd: string, agentDir: string, customDir: string | undefined): string {
	if (customDir) {
		const hits = matchesInDir(customDir, prefix);
		if (hits.length === 1) return hits[0];
		if (hits.length > 1)
			throw ambiguous(
				prefix,
				hits.map((path) => ({ path, id: sessionIdFromFileName(basename(path)) ?? "" })),
			);
		throw new CliUsageError(`No session found matching '${prefix}'`);
	}
	const hits = findSessionsByIdPrefix(prefix, cwd, getSessionsRoot(agentDir));
	if (hits.length === 0) throw new CliUsageError(`No session found matching '${prefix}'`);
	if (hits.length > 1) throw ambiguous(prefix, hits);
	return hits[0].path;
}

/**
 * --session-id: this directory's session with exactly that id, or a new one
 * created with it (1.x). The id must be a valid session id.
 */
function openOrCreateById(id: string, o: SessionTargetOptions): SessionManager {
	try {
		assertValidSessionId(id);
	} catch (error) {
		throw new CliUsageError((error as Error).message);
	}
	const existing = matchesInDir(o.sessionDir, id).find((path) => sessionIdFromFileName(basename(path)) === id);
	if (existing) return SessionManager.open(existing, o.sessionDir);
	return SessionManager.create(o.cwd, o.sessionDir, { id });
}

/**
 * A session path must be a regular file or not exist yet: opening a FIFO would
 * wait for a writer forever, and appending to a device would write session
 * lines onto it. stat (not open) decides, so nothing is touched.
 */
function assertSessionPath(path: string, flag: string): string {
	let st: ReturnType<typeof statSync>;
	try {
		st = statSync(path);
	} catch {
		return path; // Missing (created later) or unreadable (reported when opened).
	}
	if (!st.isFile()) {
		throw new CliUsageError(
			`${flag} ${path}: it is a ${fileKind(st)}, not a regular file. A session path must be a regular file or not exist.`,
		);
	}
	return path;
}

export interface SessionTargetOptions {
	cwd: string;
	agentDir: string;
	/** The resolved session directory (flag > env > settings > default). */
	sessionDir: string;
	/** True when the directory was chosen explicitly (not the per-cwd default). */
	customSessionDir: boolean;
	/** Told about every load warning of the session (torn, glued, invalid lines), as found. */
	onWarning?: (warning: SessionLoadWarning) => void;
}

export function openSessionTarget(args: ParsedArgs, o: SessionTargetOptions): SessionManager {
	const managerOptions: SessionManagerOptions = o.onWarning ? { onWarning: o.onWarning } : {};
	if (args.fork) {
		for (const [flag, set] of [
			["--session", args.session],
			["--continue", args.continue],
			["--resume", args.resume],
			["--no-session", args.noSession],
		] as const) {
			if (set) throw new CliUsageError(`--fork cannot be combined with ${flag}`);
		}
		const source = assertSessionPath(
			looksLikePath(args.fork)
				? resolve(o.cwd, args.fork)
				: findById(args.fork, o.cwd, o.agentDir, o.customSessionDir ? o.sessionDir : undefined),
			"--fork",
		);
		return SessionManager.forkFrom(source, o.cwd, o.sessionDir, {}, managerOptions);
	}
	if (args.sessionId !== undefined) {
		for (const [flag, set] of [
			["--session", args.session],
			["--continue", args.continue],
			["--resume", args.resume],
		] as const) {
			if (set) throw new CliUsageError(`--session-id cannot be combined with ${flag}`);
		}
		if (!args.noSession) return openOrCreateById(args.sessionId, o);
	}
	if (args.noSession) return SessionManager.inMemory(o.cwd, args.sessionId ? { id: args.sessionId } : {});
	if (args.session) {
		if (looksLikePath(args.session)) {
			const path = assertSessionPath(resolve(o.cwd, args.session), "--session");
			return SessionManager.open(path, o.sessionDir, undefined, managerOptions);
		}
		const found = findById(args.session, o.cwd, o.agentDir, o.customSessionDir ? o.sessionDir : undefined);
		return SessionManager.open(assertSessionPath(found, "--session"), undefined, undefined, managerOptions);
	}
	if (args.continue) return SessionManager.continueRecent(o.cwd, o.sessionDir, managerOptions);
	return SessionManager.create(o.cwd, o.sessionDir, {}, managerOptions);
}
