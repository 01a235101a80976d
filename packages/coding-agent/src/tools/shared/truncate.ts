/**
 * Output limits shared by every tool. Two independent caps (lines, bytes);
 * whichever is reached first wins. Head truncation keeps whole lines only;
 * tail truncation may keep the end of an oversized last line.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationResult {
	content: string;
	truncated: boolean;
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	outputLines: number;
	outputBytes: number;
	/** Tail truncation kept only the end of the last line. */
	lastLinePartial: boolean;
	/** Head truncation: the first line alone is over the byte cap (content is empty). */
	firstLineExceedsLimit: boolean;
	maxLines: number;
	maxBytes: number;
}

export interface TruncationOptions {
	maxLines?: number;
	maxBytes?: number;
}

export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes}B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function limits(options: TruncationOptions | undefined): { maxLines: number; maxBytes: number } {
	return { maxLines: options?.maxLines ?? DEFAULT_MAX_LINES, maxBytes: options?.maxBytes ?? DEFAULT_MAX_BYTES };
}

/**
 * What both truncations start from: the content's lines and totals, and the
 * whole content as the result when it is within both caps.
 */
function measure(
	content: string,
	options: TruncationOptions | undefined,
): {
	lines: string[];
	totals: Pick<TruncationResult, "totalLines" | "totalBytes" | "maxLines" | "maxBytes">;
	whole: TruncationResult | undefined;
} {
	const { maxLines, maxBytes } = limits(options);
	const totalBytes = Buffer.byteLength(content, "utf8");
	const lines = content.split("\n");
	const totalLines = lines.length;
	const totals = { totalLines, totalBytes, maxLines, maxBytes };
	const fits = totalLines <= maxLines && totalBytes <= maxBytes;
	const whole: TruncationResult | undefined = fits
		? {
				...totals,
				content,
				truncated: false,
				truncatedBy: null,
				outputLines: totalLines,
				outputBytes: totalBytes,
				lastLinePartial: false,
				firstLineExceedsLimit: false,
			}
		: undefined;
	return { lines, totals, whole };
}

type Totals = ReturnType<typeof measure>["totals"];

/** The result of content cut down to `out` (`outputLines` lines of it); the caller marks a partial line. */
function cutTo(totals: Totals, out: string, truncatedBy: "lines" | "bytes", outputLines: number): TruncationResult {
	return {
		...totals,
		content: out,
		truncated: true,
		truncatedBy,
		outputLines,
		outputBytes: Buffer.byteLength(out, "utf8"),
		lastLinePartial: false,
		firstLineExceedsLimit: false,
	};
}

/**
 * How many whole lines, taken from the start (or from the end), fit in both
 * caps (the newline between two kept lines counts as a byte), and which cap
 * stopped them. Only called on content over a cap, so one of them does.
 */
function wholeLinesWithin(
	lines: readonly string[],
	maxLines: number,
	maxBytes: number,
	fromEnd: boolean,
): { count: number; truncatedBy: "lines" | "bytes" } {
	let bytes = 0;
	let count = 0;
	for (; count < lines.length; count++) {
		if (count >= maxLines) return { count, truncatedBy: "lines" };
		const line = lines[fromEnd ? lines.length - 1 - count : count];
		const lineBytes = Buffer.byteLength(line, "utf8") + (count > 0 ? 1 : 0);
		if (bytes + lineBytes > maxBytes) return { count, truncatedBy: "bytes" };
		bytes += lineBytes;
	}
	return { count, truncatedBy: "lines" };
}

/** Keep the first lines (for file reads). Never cuts a line in half. */
export function truncateHead(content: string, options?: TruncationOptions): TruncationResult {
	const { lines, totals, whole } = measure(content, options);
	if (whole) return whole;
	if (Buffer.byteLength(lines[0], "utf8") > totals.maxBytes) {
		return { ...cutTo(totals, "", "bytes", 0), firstLineExceedsLimit: true };
	}
	const { count, truncatedBy } = wholeLinesWithin(lines, totals.maxLines, totals.maxBytes, false);
	return cutTo(totals, lines.slice(0, count).join("\n"), truncatedBy, count);
}

/** Keep the last `maxBytes` bytes of a string without splitting a UTF-8 sequence. */
export function tailBytes(text: string, maxBytes: number): string {
	const buf = Buffer.from(text, "utf8");
	if (buf.length <= maxBytes) return text;
	let start = buf.length - maxBytes;
	// Skip UTF-8 continuation bytes so the slice starts on a character boundary.
	while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
	return buf.subarray(start).toString("utf8");
}

/** Keep the last lines (for command output, where errors and results are at the end). */
export function truncateTail(content: string, options?: TruncationOptions): TruncationResult {
	const { lines, totals, whole } = measure(content, options);
	if (whole) return whole;
	const last = lines[lines.length - 1];
	if (Buffer.byteLength(last, "utf8") > totals.maxBytes) {
		return { ...cutTo(totals, tailBytes(last, totals.maxBytes), "bytes", 1), lastLinePartial: true };
	}
	const { count, truncatedBy } = wholeLinesWithin(lines, totals.maxLines, totals.maxBytes, true);
	return cutTo(totals, lines.slice(lines.length - count).join("\n"), truncatedBy, count);
}

/** Cap one line at `maxChars` characters (grep match lines). */
export function truncateLine(
	line: string,
	maxChars: number = GREP_MAX_LINE_LENGTH,
): { text: string; wasTruncated: boolean } {
	if (line.length <= maxChars) return { text: line, wasTruncated: false };
	return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}
