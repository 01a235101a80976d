/**
 * Every model-actionable notice the tools append, in one place, so the
 * wording stays consistent and matches the reference's phrasing where models
 * were trained on it.
 */
import { DEFAULT_MAX_BYTES, formatSize, GREP_MAX_LINE_LENGTH } from "./truncate.js";

/** Notices are appended after a blank line, joined into one bracket. */
export function appendNotices(text: string, notices: string[]): string {
	if (notices.length === 0) return text;
	return `${text}\n\n[${notices.join(". ")}]`;
}

export const notices = {
	readLinesShown: (from: number, to: number, total: number) =>
		`Showing lines ${from}-${to} of ${total}. Use offset=${to + 1} to continue.`,
	readBytesShown: (from: number, to: number, total: number, maxBytes = DEFAULT_MAX_BYTES) =>
		`Showing lines ${from}-${to} of ${total} (${formatSize(maxBytes)} limit). Use offset=${to + 1} to continue.`,
	readMoreLines: (remaining: number, nextOffset: number) =>
		`${remaining} more lines in file. Use offset=${nextOffset} to continue.`,
	readLineTooLong: (line: number, size: number, path: string, maxBytes = DEFAULT_MAX_BYTES) =>
		`Line ${line} is ${formatSize(size)}, exceeds ${formatSize(maxBytes)} limit. Use bash: sed -n '${line}p' ${path} | head -c ${maxBytes}`,
	bashLinesShown: (from: number, to: number, total: number, fullPath: string) =>
		`Showing lines ${from}-${to} of ${total}. Full output: ${fullPath}`,
	bashBytesShown: (from: number, to: number, total: number, fullPath: string, maxBytes = DEFAULT_MAX_BYTES) =>
		`Showing lines ${from}-${to} of ${total} (${formatSize(maxBytes)} limit). Full output: ${fullPath}`,
	bashPartialLine: (shownBytes: number, line: number, lineBytes: number, fullPath: string) =>
		`Showing last ${formatSize(shownBytes)} of line ${line} (line is ${formatSize(lineBytes)}). Full output: ${fullPath}`,
	matchLimit: (limit: number) => `${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`,
	resultLimit: (limit: number) => `${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`,
	entryLimit: (limit: number) => `${limit} entries limit reached. Use limit=${limit * 2} for more`,
	byteLimit: (maxBytes = DEFAULT_MAX_BYTES) => `${formatSize(maxBytes)} limit reached`,
	linesTruncated: () => `Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`,
};
