/**
 * ripgrep engine. rg is asked for exactly the semantics of the JS engine:
 * hidden files searched, `.git` skipped, .gitignore/.ignore honoured with or
 * without a repository, no global git excludes, no user config. Results are
 * sorted into walk order. A parallel (unsorted) run is tried first; if it
 * finds too many matches to sort them all, rg is re-run with `--sort path`
 * and stopped as soon as enough matches arrived.
 */
import { spawn } from "node:child_process";
import { basename, dirname } from "node:path";
import { findGitRoot } from "./ignore-rules.js";
import type { GrepMatch, GrepQuery } from "./types.js";
import { pathSortKey } from "./walk.js";

/** Drops a UTF-8 sequence cut at the end of a line's kept head. */
function cutToChar(buf: Buffer): Buffer {
	let i = buf.length - 1;
	while (i >= 0 && buf.length - i <= 4 && (buf[i] & 0xc0) === 0x80) i--;
	if (i < 0 || buf[i] < 0xc0) return buf;
	const need = buf[i] >= 0xf0 ? 4 : buf[i] >= 0xe0 ? 3 : 2;
	return buf.length - i >= need ? buf : buf.subarray(0, i);
}

function sortMatches(matches: GrepMatch[]): GrepMatch[] {
	const keyed = matches.map((m) => ({ m, k: pathSortKey(m.rel) }));
	keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.m.line - b.m.line));
	return keyed.map((e) => e.m);
}

export async function ripgrepArgs(query: GrepQuery, sorted: boolean): Promise<string[]> {
	const args = [
		"--no-config",
		"--no-heading",
		"--with-filename",
		"--line-number",
		"--color=never",
		"--null",
		"--hidden",
		"--no-require-git",
		"--no-ignore-global",
		"--glob",
		"!.git",
	];
	if (!query.targetIsFile && !(await findGitRoot(query.target))) args.push("--no-ignore-parent");
	if (query.ignoreCase) args.push("--ignore-case");
	if (query.literal) args.push("--fixed-strings");
	if (query.glob) args.push("--glob", query.glob);
	if (sorted) args.push("--sort", "path");
	args.push("--", query.pattern, query.targetIsFile ? basename(query.target) : ".");
	return args;
}

/**
 * Bytes kept of one output line (path, number, text). rg prints a matching
 * line whole, so a 200 MB line arrives as 200 MB of output: past this, the
 * rest of the line is dropped as it streams in (the tool shows 500 characters
 * of a line anyway), which keeps memory bounded and the parsing linear.
 */
export const MAX_RG_LINE_BYTES = 16 * 1024;

interface RunResult {
	matches: GrepMatch[];
	/** True when the run was stopped because it passed `stopAfter`. */
	overflowed: boolean;
}

function run(rg: string, args: string[], cwd: string, stopAfter: number, signal?: AbortSignal): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
		const matches: GrepMatch[] = [];
		let overflowed = false;
		let stderr = "";
		let rest: Buffer = Buffer.alloc(0);
		/** The current line passed MAX_RG_LINE_BYTES: `rest` holds its head, input is dropped up to its "\n". */
		let skipping = false;
		const onAbort = () => child.kill("SIGKILL");
		if (signal?.aborted) onAbort();
		else signal?.addEventListener("abort", onAbort, { once: true });
		const parseLine = (line: Buffer) => {
			const nul = line.indexOf(0);
			if (nul === -1) return;
			const colon = line.indexOf(58, nul + 1);
			if (colon === -1) return;
			let rel = line.toString("utf8", 0, nul);
			if (rel.startsWith("./")) rel = rel.slice(2);
			const lineNo = Number(line.toString("latin1", nul + 1, colon));
			matches.push({ rel, line: lineNo, text: line.toString("utf8", colon + 1) });
		};
		child.stdout.on("data", (chunk: Buffer) => {
			if (overflowed) return;
			let from = 0;
			if (skipping) {
				const nl = chunk.indexOf(10);
				if (nl === -1) return;
				skipping = false;
				parseLine(cutToChar(rest));
				rest = Buffer.alloc(0);
				from = nl + 1;
			}
			const tail = chunk.subarray(from);
			const data = rest.length > 0 ? Buffer.concat([rest, tail]) : tail;
			let start = 0;
			for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, start)) {
				parseLine(
					nl - start > MAX_RG_LINE_BYTES
						? cutToChar(data.subarray(start, start + MAX_RG_LINE_BYTES))
						: data.subarray(start, nl),
				);
				start = nl + 1;
				if (matches.length > stopAfter) {
					overflowed = true;
					child.kill("SIGKILL");
					return;
				}
			}
			if (data.length - start > MAX_RG_LINE_BYTES) {
				skipping = true;
				rest = Buffer.from(data.subarray(start, start + MAX_RG_LINE_BYTES));
			} else {
				rest = Buffer.from(data.subarray(start));
			}
		});
		child.stderr.on("data", (d: Buffer) => {
			if (stderr.length < 8192) stderr += d.toString("utf8");
		});
		child.on("error", (error) => {
			signal?.removeEventListener("abort", onAbort);
			reject(new Error(`Failed to run ripgrep: ${error.message}`));
		});
		child.on("close", (code) => {
			signal?.removeEventListener("abort", onAbort);
			if (signal?.aborted) return reject(new Error("Operation aborted"));
			if (!overflowed && rest.length > 0) parseLine(skipping ? cutToChar(rest) : rest);
			if (!overflowed && code === 2 && matches.length === 0) {
				return reject(new Error(stderr.trim() || "ripgrep failed"));
			}
			resolve({ matches, overflowed });
		});
	});
}

/** Matches above which a parallel run is abandoned for a sorted, early-stopping one. */
const SORT_IN_MEMORY_CAP = 1000;

export async function grepRipgrep(rg: string, query: GrepQuery): Promise<GrepMatch[]> {
	const cwd = query.targetIsFile ? dirname(query.target) : query.target;
	const cap = Math.max(SORT_IN_MEMORY_CAP, query.maxMatches);
	const fast = await run(rg, await ripgrepArgs(query, false), cwd, cap, query.signal);
	if (!fast.overflowed) return sortMatches(fast.matches).slice(0, query.maxMatches);
	const sorted = await run(rg, await ripgrepArgs(query, true), cwd, query.maxMatches - 1, query.signal);
	// --sort path yields files in walk order; lines within a file are already ascending.
	return sorted.matches.slice(0, query.maxMatches);
}
