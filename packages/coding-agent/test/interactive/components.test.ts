// Transcript items and footer rendered to lines: what each tool call, reply,
// retry notice and footer shows, collapsed and expanded.
import { resetCapabilitiesCache, setCapabilities, stripAnsi, visibleWidth } from "@pi/tui";
import { afterAll, describe, expect, it } from "vitest";
import { AssistantMessageItem } from "../../src/modes/interactive/components/assistant-message.js";
import { Footer, type FooterData, formatTokens } from "../../src/modes/interactive/components/footer.js";
import { RetryNoticeItem } from "../../src/modes/interactive/components/retry-notice.js";
import { ToolExecutionItem } from "../../src/modes/interactive/components/tool-execution.js";
import { UserMessageItem } from "../../src/modes/interactive/components/user-message.js";
import { fallbackTheme, plainTheme } from "../../src/modes/interactive/theme-fallback.js";
import { assistantMessage } from "../support/messages.js";

const plain = () => plainTheme;
const text = (lines: string[]) => lines.map((l) => stripAnsi(l).trimEnd());

describe("tool calls", () => {
	it("bash: command as title, the output tail while collapsed, all of it expanded", () => {
		const item = new ToolExecutionItem(plain, "c1", "bash", { command: "seq 1 8" }, false);
		item.start({ command: "seq 1 8" });
		expect(text(item.render(40))).toContain(" (running…)");
		item.setPartial({ content: [{ type: "text", text: "1\n2\n" }] });
		expect(text(item.render(40))).toEqual(["", "", " $ seq 1 8", "", " 1", " 2", ""]);
		item.finish({ content: [{ type: "text", text: "1\n2\n3\n4\n5\n6\n7\n8\n" }] }, false);
		expect(text(item.render(40))).toEqual([
			"",
			"",
			" $ seq 1 8",
			"",
			" … 3 more lines (ctrl+o to expand)",
			" 4",
			" 5",
			" 6",
			" 7",
			" 8",
			"",
		]);
		item.setExpanded(true);
		expect(text(item.render(40)).filter((l) => /^ \d$/.test(l))).toHaveLength(8);
	});

	it("read: path with the line range", () => {
		const item = new ToolExecutionItem(plain, "c", "read", { path: "src/a.ts", offset: 10, limit: 5 }, false);
		expect(text(item.render(60))[2]).toBe(" read src/a.ts:10-14");
		const open = new ToolExecutionItem(plain, "c", "read", { path: "b.ts", offset: 3 }, false);
		expect(text(open.render(60))[2]).toBe(" read b.ts:3");
	});

	it("edit: the diff with added lines green and removed lines red", () => {
		const item = new ToolExecutionItem(() => fallbackTheme, "c", "edit", { path: "f.txt" }, false);
		item.finish(
			{
				content: [{ type: "text", text: "ok" }],
				details: { diff: "--- f.txt\n+++ f.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO" },
			},
			false,
		);
		const lines = item.render(40);
		expect(text(lines).slice(2, 8)).toEqual([" edit f.txt", "", " @@ -1,2 +1,2 @@", "  one", " -two", " +TWO"]);
		expect(lines.find((l) => stripAnsi(l).trim() === "-two")).toContain("\x1b[38;2;204;102;102m-two");
		expect(lines.find((l) => stripAnsi(l).trim() === "+TWO")).toContain("\x1b[38;2;181;189;104m+TWO");
		// Every line is padded to the full width (the box background).
		for (const l of lines.slice(1)) expect(visibleWidth(l)).toBe(40);
	});

	it("write: line count in the title and a preview of the content", () => {
		const content = Array.from({ length: 14 }, (_, i) => `row ${i}`).join("\n");
		const item = new ToolExecutionItem(plain, "c", "write", { path: "w.txt", content }, false);
		const lines = text(item.render(50));
		expect(lines[2]).toBe(" write w.txt (14 lines)");
		expect(lines).toContain(" row 9");
		expect(lines).not.toContain(" row 10");
		expect(lines).toContain(" … 4 more lines (ctrl+o to expand)");
	});

	it("write: a file ending in a newline counts its lines as an editor does", () => {
		const count = (content: string) =>
			text(new ToolExecutionItem(plain, "c", "write", { path: "w.txt", content }, false).render(50))[2];
		expect(count("a\nb\nc\nd\ne\n")).toBe(" write w.txt (5 lines)");
		expect(count("a\nb\nc\nd\ne")).toBe(" write w.txt (5 lines)");
		expect(count("only\n")).toBe(" write w.txt (1 line)");
		expect(count("\n")).toBe(" write w.txt (1 line)");
		expect(count("a\n\n")).toBe(" write w.txt (2 lines)");
	});

	it("an error result shows the error text", () => {
		const item = new ToolExecutionItem(plain, "c", "edit", { path: "x" }, false);
		item.finish({ content: [{ type: "text", text: "Could not find the text in x" }] }, true);
		expect(text(item.render(60))).toContain(" Could not find the text in x");
	});
});

describe("assistant replies", () => {
	it("thinking shown in full or as one line; errors end the reply", () => {
		const m = assistantMessage([
			{ type: "thinking", thinking: "pondering deeply" },
			{ type: "text", text: "The answer." },
		]);
		const item = new AssistantMessageItem(plain, m, false);
		expect(text(item.render(40))).toEqual(["", " Thinking...", "", " The answer."]);
		item.setExpanded(true);
		expect(text(item.render(40))).toEqual(["", " pondering deeply", "", " The answer."]);
		item.update({ ...m, stopReason: "error", errorMessage: "boom" });
		expect(text(item.render(40)).slice(-1)).toEqual([" Error: boom"]);
		item.update({ ...m, stopReason: "aborted" });
		expect(text(item.render(40)).slice(-1)).toEqual([" Operation aborted"]);
	});
});

describe("retry notice", () => {
	it("counts down and is replaced by the outcome", () => {
		let now = 1000;
		let ticks = 0;
		const item = new RetryNoticeItem(
			plain,
			2,
			3,
			4000,
			"503 overloaded",
			() => ticks++,
			() => now,
		);
		expect(text(item.render(80))[1]).toBe(" Retrying in 4s (attempt 2/3) after: 503 overloaded  esc to cancel");
		now += 2500;
		item.invalidate();
		expect(text(item.render(80))[1]).toContain("Retrying in 2s");
		// The wait is over and the attempt is under way: no frozen "Retrying in 0s … esc to cancel".
		now += 2000;
		item.invalidate();
		expect(text(item.render(80))[1]).toBe(" Retrying now (attempt 2/3) after: 503 overloaded");
		item.end({ kind: "succeeded" });
		expect(text(item.render(80))[1]).toBe(" Recovered on retry (attempt 2/3) after: 503 overloaded");
		item.end({ kind: "failed", text: "Retry failed after 3 attempts: 503 overloaded" });
		expect(text(item.render(80))).toEqual(["", " Retry failed after 3 attempts: 503 overloaded"]);
		item.end({ kind: "hidden" });
		expect(item.render(80)).toEqual([]);
	});

	it("retry notice: a long error wraps at word boundaries instead of being cut at the edge", () => {
		const words = Array.from({ length: 30 }, (_, i) => `word${i}`);
		const item = new RetryNoticeItem(
			plain,
			1,
			3,
			4000,
			words.join(" "),
			() => {},
			() => 0,
		);
		const lines = text(item.render(40));
		for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(40);
		const joined = lines.join(" ");
		for (const w of words) expect(joined).toMatch(new RegExp(`\\b${w}\\b`));
		expect(joined).toContain("esc to cancel");
		item.end({ kind: "hidden" });
	});
});

describe("footer", () => {
	const data = (over: Partial<FooterData> = {}): FooterData => ({
		cwd: "/work/project",
		gitBranch: "main",
		sessionName: "fixes",
		tokens: { input: 12_345, output: 678, cacheRead: 1500, cacheWrite: 0 },
		cost: 0.0123,
		contextPercent: 12.34,
		contextWindow: 200_000,
		autoCompact: true,
		model: { provider: "anthropic", id: "claude-x", reasoning: true },
		thinkingLevel: "high",
		...over,
	});

	it("shows where, what it cost, context use and model • level", () => {
		const lines = text(new Footer(plain, () => data()).render(80));
		expect(lines[0]).toBe("/work/project (main) • fixes");
		expect(lines[1]).toMatch(/^↑12k ↓678 R1\.5k \$0\.012 12\.3%\/200k \(auto\) +claude-x • high$/);
		expect(visibleWidth(lines[1])).toBe(80);
	});

	it("stays within narrow widths", () => {
		for (const w of [10, 30, 45])
			for (const l of new Footer(plain, () => data()).render(w)) expect(visibleWidth(l)).toBeLessThanOrEqual(w);
	});

	it("formats token counts", () => {
		expect([999, 1000, 12_345, 999_999, 2_500_000].map(formatTokens)).toEqual(["999", "1.0k", "12k", "1.0M", "2.5M"]);
	});
});

describe("images", () => {
	afterAll(resetCapabilitiesCache);
	// A 1x1 PNG.
	const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

	it("a user message's image is a placeholder line where the terminal has no graphics, Kitty graphics where it has", () => {
		setCapabilities({ images: null, trueColor: true, hyperlinks: false });
		const item = new UserMessageItem(plain, "look", [{ type: "image", data: png, mimeType: "image/png" }]);
		expect(text(item.render(40)).slice(-1)).toEqual(["[Image: image/png 1x1]"]);
		setCapabilities({ images: "kitty", trueColor: true, hyperlinks: false });
		const kitty = new UserMessageItem(plain, "look", [{ type: "image", data: png, mimeType: "image/png" }]);
		expect(kitty.render(40).join("")).toContain("\x1b_G");
	});

	it("a tool result's image is shown below the tool box", () => {
		setCapabilities({ images: null, trueColor: true, hyperlinks: false });
		const item = new ToolExecutionItem(plain, "c", "read", { path: "p.png" }, false);
		item.finish(
			{
				content: [
					{ type: "text", text: "Read image file [image/png]" },
					{ type: "image", data: png, mimeType: "image/png" },
				],
			},
			false,
		);
		expect(text(item.render(50)).slice(-1)).toEqual(["[Image: image/png 1x1]"]);
	});
});
