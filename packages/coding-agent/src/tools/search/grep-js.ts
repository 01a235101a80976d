/**
 * Pure-JS grep engine, used when ripgrep is not on PATH. Same file set and
 * order as `rg --sort path` with our flags: literal patterns are searched in
 * raw bytes (no decoding); regexes run over the whole file in multiline mode,
 * and a hit that crosses a line break is re-checked against its line alone,
 * since rg never matches across lines. Files containing NUL are skipped as
 * binary. Reads are pipelined so I/O overlaps with matching.
 */
import { basename } from "node:path";
import { onDisk } from "../shared/paths.js";
import { FileScanner, type FileSearcher, type SegmentMatcher } from "./file-scan.js";
import { createGlobOverride } from "./glob-filter.js";
import { loadRootStack } from "./ignore-rules.js";
import type { GrepMatch, GrepQuery } from "./types.js";
import { walk } from "./walk.js";

function escapeRegex(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * rg's "." matches anything but "\n" (so also "\r"); JS's stops at "\r" too.
 * Rewrites unescaped dots outside character classes accordingly.
 */
export function rgDots(source: string): string {
	let out = "";
	let inClass = false;
	for (let i = 0; i < source.length; i++) {
		const ch = source[i];
		if (ch === "\\") {
			out += ch + (source[i + 1] ?? "");
			i++;
		} else if (inClass) {
			if (ch === "]") inClass = false;
			out += ch;
		} else if (ch === "[") {
			inClass = true;
			out += ch;
			if (source[i + 1] === "^") out += source[++i];
			if (source[i + 1] === "]") out += source[++i];
		} else out += ch === "." ? "[^\\n]" : ch;
	}
	return out;
}

/** Builds the matcher; rg-style inline `(?i)` is accepted. Throws with a readable message on a bad pattern. */
export function compilePattern(pattern: string, literal: boolean, ignoreCase: boolean): RegExp {
	let source = literal ? escapeRegex(pattern) : rgDots(pattern);
	let flags = "gm";
	if (!literal && source.startsWith("(?i)")) {
		source = source.slice(4);
		flags += "i";
	} else if (ignoreCase) flags += "i";
	if (/\\p\{|\\u\{/.test(source)) flags += "u";
	try {
		return new RegExp(source, flags);
	} catch (error) {
		throw new Error(`Invalid regex pattern: ${error instanceof Error ? error.message : String(error)}`);
	}
}

/** Line starts are counted incrementally so each file is scanned for newlines once. */
class LineCounter {
	private pos = 0;
	private line = 1;
	constructor(private readonly find: (from: number) => number) {}
	lineAt(offset: number): number {
		for (let i = this.find(this.pos); i !== -1 && i < offset; i = this.find(i + 1)) {
			this.line++;
			this.pos = i + 1;
		}
		if (this.pos < offset) this.pos = offset;
		return this.line;
	}
}

function searchBytes(buf: Buffer, needle: Buffer, rel: string, out: GrepMatch[], max: number, base: number): void {
	const counter = new LineCounter((from) => buf.indexOf(10, from));
	let from = 0;
	while (out.length < max) {
		const at = buf.indexOf(needle, from);
		if (at === -1) return;
		const ls = at === 0 ? 0 : buf.lastIndexOf(10, at - 1) + 1;
		let le = buf.indexOf(10, at);
		if (le === -1) le = buf.length;
		out.push({ rel, line: counter.lineAt(ls) + base, text: buf.toString("utf8", ls, le) });
		from = le + 1;
		if (from >= buf.length) return;
	}
}

function searchText(
	text: string,
	re: RegExp,
	lineRe: RegExp,
	anchored: boolean,
	rel: string,
	out: GrepMatch[],
	max: number,
	base: number,
): void {
	const counter = new LineCounter((from) => text.indexOf("\n", from));
	re.lastIndex = 0;
	while (out.length < max) {
		const m = re.exec(text);
		if (m === null) return;
		const at = m.index;
		const ls = at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
		let le = text.indexOf("\n", at);
		if (le === -1) le = text.length;
		// Multiline ^/$ also fire at "\r" in JS, and a hit may cross a line break: check the line alone then.
		let ok = !anchored && at + m[0].length <= le;
		if (!ok) {
			lineRe.lastIndex = 0;
			ok = lineRe.test(text.slice(ls, le));
		}
		if (ok) out.push({ rel, line: counter.lineAt(ls) + base, text: text.slice(ls, le) });
		if (le >= text.length) return;
		re.lastIndex = le + 1;
	}
}

export function createFileSearcher(pattern: string, literal: boolean, ignoreCase: boolean): FileSearcher {
	const plain = literal || !/[\\^$.|?*+()[\]{}]/.test(pattern);
	if (plain && !ignoreCase && pattern.length > 0 && !pattern.includes("\n")) {
		const needle = Buffer.from(pattern, "utf8");
		return (buf, rel, out, max, firstLine = 1) => {
			if (buf.indexOf(needle) === -1 || buf.indexOf(0) !== -1) return;
			searchBytes(buf, needle, rel, out, max, firstLine - 1);
		};
	}
	const re = compilePattern(pattern, plain, ignoreCase);
	const lineRe = new RegExp(re.source, re.flags.replace("g", "").replace("m", ""));
	const anchored = /[$^]/.test(re.source);
	const pre = latin1Prefilter(re);
	return (buf, rel, out, max, firstLine = 1) => {
		if (buf.indexOf(0) !== -1) return;
		// Most files do not match: rejecting them on a cheap latin1 view skips the UTF-8 decode.
		if (pre && !pre.test(buf.toString("latin1"))) return;
		searchText(buf.toString("utf8"), re, lineRe, anchored, rel, out, max, firstLine - 1);
	};
}

/**
 * Matches a piece of one over-long line. A piece that does not start the
 * line gets a "\n" in front and the search starts after it, so `^` (no
 * multiline flag) cannot fire there; one that does not end the line gets a
 * "\n" after it, so `$` cannot, and a match that needs that "\n" is refused
 * (the next, overlapping piece sees the real bytes).
 */
export function createSegmentMatcher(pattern: string, literal: boolean, ignoreCase: boolean): SegmentMatcher {
	const plain = literal || !/[\\^$.|?*+()[\]{}]/.test(pattern);
	if (plain && !ignoreCase && pattern.length > 0 && !pattern.includes("\n")) {
		const needle = Buffer.from(pattern, "utf8");
		return (segment) => segment.indexOf(needle) !== -1;
	}
	const re = compilePattern(pattern, plain, ignoreCase);
	const segRe = new RegExp(re.source, re.flags.replace("m", ""));
	return (segment, atLineStart, atLineEnd) => {
		const text = `${atLineStart ? "" : "\n"}${segment.toString("utf8")}${atLineEnd ? "" : "\n"}`;
		segRe.lastIndex = atLineStart ? 0 : 1;
		const m = segRe.exec(text);
		return m !== null && m.index + m[0].length <= text.length - (atLineEnd ? 0 : 1);
	};
}

/**
 * A regex that can only match ASCII characters matches the UTF-8 text iff it
 * matches the same bytes read as latin1 (multi-byte characters become runs
 * of chars >= 0x80 that such a regex never matches). Patterns with anything
 * that can match a non-ASCII char (negated classes, "." , \W \S \D \s, unicode
 * escapes, non-ASCII literals) get no prefilter.
 */
export function latin1Prefilter(re: RegExp): RegExp | undefined {
	if (/\[\^|\\[WSDsBpPuxc0-9]|[^\x00-\x7f]/.test(re.source)) return undefined;
	if (re.flags.includes("u")) return undefined;
	return new RegExp(re.source, re.flags.replace("g", ""));
}

/** Work is done in synchronous slices (much faster than async reads); between slices the event loop runs. */
const SLICE_MS = 20;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function grepJs(query: GrepQuery): Promise<GrepMatch[]> {
	const scanner = new FileScanner(
		createFileSearcher(query.pattern, query.literal, query.ignoreCase),
		createSegmentMatcher(query.pattern, query.literal, query.ignoreCase),
	);
	const out: GrepMatch[] = [];
	if (query.targetIsFile) {
		scanner.scan(onDisk(query.target), basename(query.target), out, query.maxMatches, true);
		return out;
	}
	const override = createGlobOverride(query.glob);
	const { stack } = await loadRootStack(query.target);
	let sliceStart = performance.now();
	for (const entry of walk(onDisk(query.target), { rootStack: stack, override, signal: query.signal })) {
		if (out.length >= query.maxMatches) break;
		// Only regular files (by their directory entry): devices, FIFOs, sockets and symlinks are never opened.
		if (entry.kind !== "file") continue;
		scanner.scan(entry.abs, entry.rel, out, query.maxMatches);
		if (performance.now() - sliceStart > SLICE_MS) {
			await yieldToLoop();
			query.signal?.throwIfAborted();
			sliceStart = performance.now();
		}
	}
	return out;
}
