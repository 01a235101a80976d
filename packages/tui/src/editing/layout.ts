/** Soft-wrap layout for the editor: logical lines to visual chunks with source offsets. */
import { getSegmenter, graphemeWidth, visibleWidth } from "../utils/width.js";

/** A piece of a logical line shown on one visual row. */
export interface TextChunk {
	text: string;
	startIndex: number;
	endIndex: number;
}

/** An atomic unit for layout and cursor movement: a grapheme, or a whole paste marker. */
export interface Segment {
	text: string;
	index: number;
	width: number;
}

const MARKER_RE = /\[paste #(\d+) (?:\+\d+ lines|\d+ chars)\]/g;

/** Split a line into graphemes, keeping paste markers whose id is in `markerIds` whole. */
export function segmentLine(line: string, markerIds?: ReadonlySet<number>): Segment[] {
	const out: Segment[] = [];
	const pushGraphemes = (text: string, offset: number) => {
		for (let i = 0; i < text.length; ) {
			const c = text.charCodeAt(i);
			const n = text.charCodeAt(i + 1);
			if (c < 0x7f && (Number.isNaN(n) || n < 0x7f)) {
				out.push({ text: text[i], index: offset + i, width: c >= 0x20 ? 1 : 0 });
				i++;
				continue;
			}
			// Segment the rest of the run in one go.
			for (const { segment, index } of getSegmenter().segment(text.slice(i))) {
				out.push({ text: segment, index: offset + i + index, width: graphemeWidth(segment) });
			}
			break;
		}
	};
	if (!markerIds || markerIds.size === 0 || !line.includes("[paste #")) {
		pushGraphemes(line, 0);
		return out;
	}
	let last = 0;
	for (const m of line.matchAll(MARKER_RE)) {
		if (!markerIds.has(Number(m[1]))) continue;
		const at = m.index ?? 0;
		if (at > last) pushGraphemes(line.slice(last, at), last);
		out.push({ text: m[0], index: at, width: visibleWidth(m[0]) });
		last = at + m[0].length;
	}
	if (last < line.length) pushGraphemes(line.slice(last), last);
	return out;
}

/**
 * Wrap a line into chunks of at most `maxWidth` columns, breaking after the
 * last space that fits, or inside a word longer than a row. Every character
 * belongs to exactly one chunk (spaces are kept), so offsets map back exactly.
 */
export function wordWrapLine(line: string, maxWidth: number, segments?: Segment[]): TextChunk[] {
	const segs = segments ?? segmentLine(line);
	if (segs.length === 0) return [{ text: "", startIndex: 0, endIndex: 0 }];
	const chunks: TextChunk[] = [];
	const width = Math.max(1, maxWidth);
	let start = 0; // segment index where the current chunk starts
	let used = 0;
	let breakAfter = -1; // last space segment in the current chunk
	let i = 0;
	while (i < segs.length) {
		const s = segs[i];
		if (used + s.width > width && i > start) {
			const endSeg = breakAfter >= start ? breakAfter + 1 : i;
			const from = segs[start].index;
			const to = segs[endSeg]?.index ?? line.length;
			chunks.push({ text: line.slice(from, to), startIndex: from, endIndex: to });
			start = endSeg;
			i = endSeg;
			used = 0;
			breakAfter = -1;
			continue;
		}
		used += s.width;
		if (s.text === " ") breakAfter = i;
		i++;
	}
	const from = segs[start].index;
	chunks.push({ text: line.slice(from), startIndex: from, endIndex: line.length });
	return chunks;
}
