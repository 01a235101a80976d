/**
 * Locating edit targets. Every oldText is matched against the original file
 * exactly; only when that fails, a tolerant comparison is tried (line endings,
 * trailing whitespace, typographic quotes/dashes/spaces) through a normalised
 * view that maps back to original offsets — so the replacement touches only
 * the matched span and every other byte of the file stays as it was.
 */

export interface EditSpec {
	oldText: string;
	newText: string;
}

export interface MatchedEdit {
	index: number;
	start: number;
	end: number;
	/** newText with line endings adapted to the matched span. */
	replacement: string;
	tolerance?: "line-endings" | "normalized";
}

export class EditMatchError extends Error {}

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032]/;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033]/;
const DASHES = /[\u2010-\u2015\u2212]/;
const SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/;

function normalizeChar(ch: string): string {
	if (SINGLE_QUOTES.test(ch)) return "'";
	if (DOUBLE_QUOTES.test(ch)) return '"';
	if (DASHES.test(ch)) return "-";
	if (SPACES.test(ch)) return " ";
	return ch;
}

function isTrailingSpace(ch: string): boolean {
	return ch === " " || ch === "\t" || SPACES.test(ch);
}

/** Normalised text plus, for each of its characters, the offset of the original character it came from. */
export function normalizeWithMap(text: string): { text: string; map: number[] } {
	const out: string[] = [];
	const map: number[] = [];
	let lineStart = 0;
	while (lineStart <= text.length) {
		let lineEnd = text.indexOf("\n", lineStart);
		if (lineEnd === -1) lineEnd = text.length;
		let contentEnd = lineEnd;
		if (contentEnd > lineStart && text[contentEnd - 1] === "\r") contentEnd--;
		while (contentEnd > lineStart && isTrailingSpace(text[contentEnd - 1])) contentEnd--;
		for (let i = lineStart; i < contentEnd; i++) {
			out.push(normalizeChar(text[i]));
			map.push(i);
		}
		if (lineEnd < text.length) {
			out.push("\n");
			map.push(lineEnd);
		}
		lineStart = lineEnd + 1;
	}
	return { text: out.join(""), map };
}

export function normalizeText(text: string): string {
	return normalizeWithMap(text).text;
}

/** All start offsets of needle in haystack, overlapping ones included (stops after `max`). */
export function findAll(haystack: string, needle: string, max = 1000): number[] {
	const found: number[] = [];
	let from = 0;
	while (found.length < max) {
		const i = haystack.indexOf(needle, from);
		if (i === -1) break;
		found.push(i);
		from = i + 1;
	}
	return found;
}

export function lineNumberAt(text: string, offset: number): number {
	let line = 1;
	for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
	return line;
}

function adaptLineEndings(newText: string, matchedSpan: string, fileEol: "\r\n" | "\n"): string {
	const spanEol = matchedSpan.includes("\r\n") ? "\r\n" : matchedSpan.includes("\n") ? "\n" : fileEol;
	const lf = newText.replace(/\r\n/g, "\n");
	return spanEol === "\r\n" ? lf.replace(/\n/g, "\r\n") : lf;
}

export function detectEol(text: string): "\r\n" | "\n" {
	const i = text.indexOf("\n");
	return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

function label(total: number, index: number): string {
	return total === 1 ? "the text" : `edits[${index}]`;
}

function duplicateError(path: string, content: string, starts: number[], total: number, index: number): EditMatchError {
	const lines = starts.slice(0, 20).map((s) => lineNumberAt(content, s));
	const more = starts.length > 20 ? ", …" : "";
	return new EditMatchError(
		`Found ${starts.length} occurrences of ${label(total, index)} in ${path}. The text must be unique. Please provide more context to make it unique. Occurrences start at lines ${lines.join(", ")}${more}.`,
	);
}

/** Locates one edit in the original content, or throws an EditMatchError the model can act on. */
export function matchEdit(
	content: string,
	normalized: { text: string; map: number[] } | undefined,
	edit: EditSpec,
	index: number,
	total: number,
	path: string,
): { match: MatchedEdit; normalized: { text: string; map: number[] } | undefined } {
	const { oldText, newText } = edit;
	if (oldText.length === 0) {
		throw new EditMatchError(
			total === 1 ? `oldText must not be empty in ${path}.` : `edits[${index}].oldText must not be empty in ${path}.`,
		);
	}
	const eol = detectEol(content);
	const candidates: { text: string; tolerance?: "line-endings" }[] = [{ text: oldText }];
	if (oldText.includes("\n")) {
		const lf = oldText.replace(/\r\n/g, "\n");
		const crlf = lf.replace(/\n/g, "\r\n");
		for (const variant of [crlf, lf]) {
			if (variant !== oldText) candidates.push({ text: variant, tolerance: "line-endings" });
		}
	}
	// The edit found at content[start, end): its replacement takes that text's line endings.
	const matchAt = (start: number, end: number, tolerance: MatchedEdit["tolerance"]): MatchedEdit => ({
		index,
		start,
		end,
		replacement: adaptLineEndings(newText, content.slice(start, end), eol),
		tolerance,
	});
	for (const candidate of candidates) {
		const starts = findAll(content, candidate.text);
		if (starts.length > 1) throw duplicateError(path, content, starts, total, index);
		if (starts.length === 1) {
			return { match: matchAt(starts[0], starts[0] + candidate.text.length, candidate.tolerance), normalized };
		}
	}
	const norm = normalized ?? normalizeWithMap(content);
	const needle = normalizeText(oldText);
	if (needle.trim().length > 0) {
		const starts = findAll(norm.text, needle);
		if (starts.length > 1) {
			throw duplicateError(
				path,
				content,
				starts.map((s) => norm.map[s]),
				total,
				index,
			);
		}
		if (starts.length === 1) {
			const start = norm.map[starts[0]];
			const end = norm.map[starts[0] + needle.length - 1] + 1;
			return { match: matchAt(start, end, "normalized"), normalized: norm };
		}
	}
	const prefix =
		total === 1 ? `Could not find the exact text in ${path}.` : `Could not find edits[${index}] in ${path}.`;
	throw new EditMatchError(
		`${prefix} The old text must match exactly including all whitespace and newlines.${closestRegion(content, oldText)}`,
	);
}

function bigrams(s: string): Map<string, number> {
	const m = new Map<string, number>();
	for (let i = 0; i < s.length - 1; i++) {
		const g = s.slice(i, i + 2);
		m.set(g, (m.get(g) ?? 0) + 1);
	}
	return m;
}

/** Dice coefficient over character bigrams: 1 for equal strings, 0 for nothing in common. */
function similarity(a: string, b: string): number {
	if (a === b) return 1;
	if (a.length < 2 || b.length < 2) return 0;
	const ga = bigrams(a);
	let common = 0;
	for (let i = 0; i < b.length - 1; i++) {
		const g = b.slice(i, i + 2);
		const n = ga.get(g);
		if (n) {
			common++;
			ga.set(g, n - 1);
		}
	}
	return (2 * common) / (a.length - 1 + (b.length - 1));
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** The file region most similar to oldText, with line numbers, to show next to a "not found" error. */
export function closestRegion(content: string, oldText: string): string {
	const fileLines = content.split("\n").map((l) => l.replace(/\r$/, ""));
	const oldLines = oldText.replace(/\r\n/g, "\n").split("\n").map(squash);
	const probe = oldLines.slice(0, 6);
	if (fileLines.length > 100_000 || probe.every((l) => l.length === 0)) return "";
	const squashed = fileLines.map(squash);
	let best = -1;
	let bestScore = 0;
	for (let s = 0; s < fileLines.length; s++) {
		let score = 0;
		let weight = 0;
		for (let k = 0; k < probe.length && s + k < fileLines.length; k++) {
			if (probe[k].length === 0) continue;
			score += similarity(squashed[s + k], probe[k]);
			weight++;
		}
		const avg = weight > 0 ? score / weight : 0;
		if (avg > bestScore) {
			bestScore = avg;
			best = s;
		}
	}
	if (best < 0 || bestScore < 0.4) return "";
	const from = best;
	const to = Math.min(fileLines.length, best + Math.min(Math.max(oldLines.length, 1), 12));
	const width = String(to).length;
	const shown = fileLines
		.slice(from, to)
		.map((l, i) => `${String(from + i + 1).padStart(width, " ")}| ${l.length > 300 ? `${l.slice(0, 300)}…` : l}`);
	return `\nThe most similar region is lines ${from + 1}-${to}:\n${shown.join("\n")}`;
}
