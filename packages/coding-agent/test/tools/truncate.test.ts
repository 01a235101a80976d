import { describe, expect, it } from "vitest";
import { appendNotices, notices } from "../../src/tools/shared/notices.js";
import { formatSize, tailBytes, truncateHead, truncateLine, truncateTail } from "../../src/tools/shared/truncate.js";

describe("truncation", () => {
	it("formats sizes like the reference", () => {
		expect(formatSize(1023)).toBe("1023B");
		expect(formatSize(51200)).toBe("50.0KB");
		expect(formatSize(1536 * 1024)).toBe("1.5MB");
	});

	it("truncateHead keeps whole lines up to the line limit", () => {
		const r = truncateHead("a\nb\nc\nd", { maxLines: 2 });
		expect(r).toMatchObject({ content: "a\nb", truncated: true, truncatedBy: "lines", totalLines: 4, outputLines: 2 });
	});

	it("truncateHead stops before the byte limit and flags an oversized first line", () => {
		expect(truncateHead("aaaa\nbbbb\ncc", { maxBytes: 9 })).toMatchObject({
			content: "aaaa\nbbbb",
			truncatedBy: "bytes",
			outputLines: 2,
		});
		expect(truncateHead("x".repeat(20), { maxBytes: 10 })).toMatchObject({
			content: "",
			firstLineExceedsLimit: true,
		});
	});

	it("truncateTail keeps the last lines, or the end of a huge last line without splitting UTF-8", () => {
		expect(truncateTail("1\n2\n3\n4", { maxLines: 2 })).toMatchObject({ content: "3\n4", outputLines: 2 });
		const r = truncateTail(`head\n${"é".repeat(100)}`, { maxBytes: 51 });
		expect(r.lastLinePartial).toBe(true);
		expect(r.content).toBe("é".repeat(25));
		expect(tailBytes("aé", 1)).toBe("");
	});

	it("untouched content reports no truncation", () => {
		expect(truncateHead("abc")).toMatchObject({ truncated: false, truncatedBy: null, content: "abc" });
		expect(truncateTail("abc")).toMatchObject({ truncated: false, content: "abc" });
	});

	it("truncateLine caps at 500 chars by default", () => {
		expect(truncateLine("x".repeat(501))).toEqual({ text: `${"x".repeat(500)}... [truncated]`, wasTruncated: true });
		expect(truncateLine("short")).toEqual({ text: "short", wasTruncated: false });
	});

	it("notices use the reference wording", () => {
		expect(appendNotices("out", [notices.matchLimit(100), notices.byteLimit()])).toBe(
			"out\n\n[100 matches limit reached. Use limit=200 for more, or refine pattern. 50.0KB limit reached]",
		);
		expect(notices.readLinesShown(1, 2000, 5000)).toBe("Showing lines 1-2000 of 5000. Use offset=2001 to continue.");
		expect(notices.entryLimit(500)).toBe("500 entries limit reached. Use limit=1000 for more");
	});
});

describe("truncation results, whole", () => {
	const totals = (content: string, maxLines: number, maxBytes: number) => ({
		totalLines: content.split("\n").length,
		totalBytes: Buffer.byteLength(content),
		maxLines,
		maxBytes,
	});
	const flags = { lastLinePartial: false, firstLineExceedsLimit: false };

	it("every branch of truncateHead and truncateTail", () => {
		const text = "aa\nbb\ncc\ndd";
		expect(truncateHead(text, { maxLines: 9, maxBytes: 99 })).toEqual({
			...totals(text, 9, 99),
			...flags,
			content: text,
			truncated: false,
			truncatedBy: null,
			outputLines: 4,
			outputBytes: 11,
		});
		expect(truncateTail(text, { maxLines: 9, maxBytes: 99 })).toEqual(
			truncateHead(text, { maxLines: 9, maxBytes: 99 }),
		);
		expect(truncateHead(text, { maxLines: 2, maxBytes: 99 })).toEqual({
			...totals(text, 2, 99),
			...flags,
			content: "aa\nbb",
			truncated: true,
			truncatedBy: "lines",
			outputLines: 2,
			outputBytes: 5,
		});
		expect(truncateTail(text, { maxLines: 9, maxBytes: 7 })).toEqual({
			...totals(text, 9, 7),
			...flags,
			content: "cc\ndd",
			truncated: true,
			truncatedBy: "bytes",
			outputLines: 2,
			outputBytes: 5,
		});
		expect(truncateHead("aaaa\nb", { maxBytes: 3 })).toEqual({
			...totals("aaaa\nb", 2000, 3),
			...flags,
			firstLineExceedsLimit: true,
			content: "",
			truncated: true,
			truncatedBy: "bytes",
			outputLines: 0,
			outputBytes: 0,
		});
		expect(truncateTail("a\nbbbb", { maxBytes: 3 })).toEqual({
			...totals("a\nbbbb", 2000, 3),
			...flags,
			lastLinePartial: true,
			content: "bbb",
			truncated: true,
			truncatedBy: "bytes",
			outputLines: 1,
			outputBytes: 3,
		});
	});
});
