import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { AgentTool } from "@pi/agent-core";
import { type Static, Type } from "typebox";
import { findRipgrep } from "./search/executables.js";
import { grepRipgrep } from "./search/grep-rg.js";
import { grepJsOffThread } from "./search/in-worker.js";
import type { GrepMatch, GrepQuery } from "./search/types.js";
import { assertRegular, NotRegularFileError } from "./shared/atomic-write.js";
import { readRegularFile } from "./shared/bounded-read.js";
import { listingResult } from "./shared/listing.js";
import { notices } from "./shared/notices.js";
import { onDisk, rawPathFor, resolveToCwd } from "./shared/paths.js";
import { DEFAULT_MAX_BYTES, type TruncationResult, truncateLine } from "./shared/truncate.js";

const grepSchema = Type.Object({
	pattern: Type.String({ description: "Regular expression (or literal text with literal=true) to search for" }),
	path: Type.Optional(Type.String({ description: "Directory or file to search (default: working directory)" })),
	glob: Type.Optional(
		Type.String({ description: "Only search files matching this glob, e.g. '*.ts' or 'src/**/*.py'; '!' excludes" }),
	),
	ignoreCase: Type.Optional(Type.Boolean({ description: "Case-insensitive search (default: false)" })),
	literal: Type.Optional(Type.Boolean({ description: "Treat pattern as literal text, not a regex (default: false)" })),
	context: Type.Optional(Type.Number({ description: "Lines of context before and after each match (default: 0)" })),
	limit: Type.Optional(Type.Number({ description: "Maximum number of matches to return (default: 100)" })),
});

export type GrepToolInput = Static<typeof grepSchema>;

export interface GrepToolDetails {
	truncation?: TruncationResult;
	matchLimitReached?: number;
	linesTruncated?: boolean;
}

/** How grep touches the file system; replace to search over ssh, in a container, etc. */
export interface GrepOperations {
	/** Throws when the path does not exist. */
	isDirectory(absolutePath: string): Promise<boolean> | boolean;
	/** File text, for context lines. */
	readFile(absolutePath: string): Promise<string> | string;
	/** Runs the search itself. Default: ripgrep when on PATH, else the JS engine. */
	search?(query: GrepQuery): Promise<GrepMatch[]>;
}

export interface GrepToolOptions {
	operations?: GrepOperations;
	/** "auto" (default): rg when on PATH; "js": always the built-in engine; "rg": require ripgrep. */
	engine?: "auto" | "js" | "rg";
	/** JS engine: a search running longer ends with an error (default 60 s). */
	timeLimitMs?: number;
}

export const DEFAULT_GREP_LIMIT = 100;

/** Runs a search with the chosen engine; results are identical either way. */
export async function runGrep(query: GrepQuery, engine: "auto" | "js" | "rg" = "auto"): Promise<GrepMatch[]> {
	const rg = engine === "js" ? undefined : findRipgrep();
	if (engine === "rg" && !rg) throw new Error("ripgrep (rg) is not installed");
	// rg takes its root as a UTF-8 argument: a root whose name is not valid UTF-8 goes to the JS engine.
	return rg && !rawPathFor(query.target) ? grepRipgrep(rg, query) : grepJsOffThread(query);
}

/** Context lines are read from files up to this size; larger ones show the matching lines alone. */
const MAX_CONTEXT_FILE_BYTES = 64 * 1024 * 1024;

export function createLocalGrepOperations(engine: GrepToolOptions["engine"] = "auto"): GrepOperations {
	return {
		isDirectory: async (p) => {
			const st = await fs.stat(onDisk(p));
			// A FIFO would block the search, a device never ends: only directories and regular files are searched.
			if (!st.isDirectory()) assertRegular(st, p);
			return st.isDirectory();
		},
		readFile: async (p) => (await readRegularFile(onDisk(p), MAX_CONTEXT_FILE_BYTES)).toString("utf8"),
		search: (q) => runGrep(q, engine),
	};
}

/** Formats matches (in order) as `path:N: text`, context lines as `path-N- text`, overlapping context merged. */
export async function formatGrepMatches(
	matches: GrepMatch[],
	context: number,
	readLines: (rel: string) => Promise<string[]>,
): Promise<{ lines: string[]; linesTruncated: boolean }> {
	const lines: string[] = [];
	let linesTruncated = false;
	const push = (rel: string, n: number, text: string, isMatch: boolean) => {
		const t = truncateLine(text.replace(/\r/g, ""));
		if (t.wasTruncated) linesTruncated = true;
		lines.push(isMatch ? `${rel}:${n}: ${t.text}` : `${rel}-${n}- ${t.text}`);
	};
	if (context <= 0) {
		for (const m of matches) push(m.rel, m.line, m.text, true);
		return { lines, linesTruncated };
	}
	for (let i = 0; i < matches.length; ) {
		const rel = matches[i].rel;
		let j = i;
		while (j < matches.length && matches[j].rel === rel) j++;
		const group = matches.slice(i, j);
		i = j;
		const fileLines = await readLines(rel);
		const hit = new Set(group.map((m) => m.line));
		const total = Math.max(fileLines.length, ...group.map((m) => m.line));
		let shownUpTo = 0;
		for (const m of group) {
			const from = Math.max(1, m.line - context, shownUpTo + 1);
			const to = Math.min(total, m.line + context);
			for (let n = from; n <= to; n++) {
				const text = fileLines[n - 1] ?? (n === m.line ? m.text : "");
				push(rel, n, text, hit.has(n));
			}
			shownUpTo = Math.max(shownUpTo, to);
		}
	}
	return { lines, linesTruncated };
}

export function createGrepTool(
	cwd: string,
	options: GrepToolOptions = {},
): AgentTool<typeof grepSchema, GrepToolDetails | undefined> {
	const ops = options.operations ?? createLocalGrepOperations(options.engine);
	return {
		name: "grep",
		label: "grep",
		description: `Search file contents with a regular expression (or literal text). Returns matching lines as path:line: text, relative to the searched directory, in a stable order. Honours .gitignore; hidden files are searched. Output stops at ${DEFAULT_GREP_LIMIT} matches (change with limit) or ${DEFAULT_MAX_BYTES / 1024}KB; lines are cut at 500 characters. Use glob to restrict file types and context for surrounding lines.`,
		parameters: grepSchema,
		async execute(_id, { pattern, path, glob, ignoreCase, literal, context, limit }, signal) {
			signal?.throwIfAborted();
			const target = resolveToCwd(path || ".", cwd);
			let isDir: boolean;
			try {
				isDir = await ops.isDirectory(target);
			} catch (error) {
				if (error instanceof NotRegularFileError) {
					throw new Error(`Cannot grep ${path}: it is a ${error.kind}, not a regular file or directory`);
				}
				throw new Error(`Path not found: ${target}`);
			}
			const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_GREP_LIMIT));
			const query: GrepQuery = {
				target,
				targetIsFile: !isDir,
				pattern,
				literal: literal ?? false,
				ignoreCase: ignoreCase ?? false,
				glob: glob || undefined,
				maxMatches: effectiveLimit + 1,
				signal,
				timeLimitMs: options.timeLimitMs,
			};
			const found = await (ops.search ? ops.search(query) : runGrep(query, options.engine));
			if (found.length === 0) return { content: [{ type: "text", text: "No matches found" }], details: undefined };
			const limitReached = found.length > effectiveLimit;
			const shown = found.slice(0, effectiveLimit);
			const cache = new Map<string, string[]>();
			const readLines = async (rel: string) => {
				let lines = cache.get(rel);
				if (!lines) {
					try {
						const text = await ops.readFile(isDir ? join(target, rel) : target);
						lines = text.split("\n");
					} catch {
						lines = [];
					}
					cache.set(rel, lines);
				}
				return lines;
			};
			const { lines, linesTruncated } = await formatGrepMatches(shown, Math.floor(context ?? 0), readLines);
			return listingResult<GrepToolDetails>(lines, {
				countLimit: limitReached
					? { notice: notices.matchLimit(effectiveLimit), details: { matchLimitReached: effectiveLimit } }
					: undefined,
				after: linesTruncated ? { notice: notices.linesTruncated(), details: { linesTruncated: true } } : undefined,
			});
		},
	};
}
