import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown, Markdown } from "../src/components/markdown.js";
import { stripAnsi } from "../src/utils/ansi.js";
import { createCodeHighlighter, isHighlighterLoaded } from "../src/utils/highlight.js";
import { visibleWidth } from "../src/utils/width.js";
import { plainMarkdownTheme, styledMarkdownTheme } from "./helpers/themes.js";

const DOC = `# Title

Some **bold** and *italic* text with \`code\` and a [link](https://example.com) and <https://auto.link>.

## Sub

- one
- two
  - nested
- [x] done task

1. first
2. second

> a quote

\`\`\`ts
const a = 1;
\`\`\`

| Name | Qty |
|------|----:|
| apple | 3 |
| banana bread | 12 |

---
end ~~struck~~`;

// marked loads on demand (markdown-lazy.test.ts covers rendering before it has).
beforeAll(() => loadMarkdown());

describe("Markdown rendering", () => {
	it("renders headings, emphasis, lists, quotes, code, tables and rules", () => {
		const md = new Markdown(DOC, 0, 0, plainMarkdownTheme);
		expect(md.render(40)).toEqual([
			"Title",
			"",
			"Some bold and italic text with code and",
			"a link (https://example.com) and",
			"https://auto.link.",
			"",
			"Sub",
			"",
			"- one",
			"- two",
			"  - nested",
			"- [x] done task",
			"",
			"1. first",
			"2. second",
			"",
			"│ a quote",
			"",
			"```ts",
			"  const a = 1;",
			"```",
			"",
			"┌──────────────┬─────┐",
			"│ Name         │ Qty │",
			"├──────────────┼─────┤",
			"│ apple        │   3 │",
			"│ banana bread │  12 │",
			"└──────────────┴─────┘",
			"",
			"─".repeat(40),
			"",
			"end struck",
		]);
	});

	it("styles elements through the theme and links with OSC 8", () => {
		const md = new Markdown("# H\n\n**b** *i* `c` ~~s~~ [t](http://u)", 0, 0, styledMarkdownTheme);
		const [h, , p] = md.render(80);
		expect(h).toBe("\x1b[36m\x1b[1m\x1b[4mH\x1b[24m\x1b[22m\x1b[39m");
		expect(p).toContain("\x1b[1mb\x1b[22m");
		expect(p).toContain("\x1b[3mi\x1b[23m");
		expect(p).toContain("\x1b[33mc\x1b[39m");
		expect(p).toContain("\x1b[9ms\x1b[29m");
		expect(p).toContain("\x1b]8;;http://u\x1b\\t\x1b]8;;\x1b\\");
		expect(p).toContain("\x1b[90m (http://u)\x1b[39m");
	});

	it("applies padding and the default text style", () => {
		const md = new Markdown("hello", 2, 1, plainMarkdownTheme, {
			color: (t) => `<${t}>`,
			bgColor: (t) => `[${t}]`,
		});
		expect(md.render(12)).toEqual(["[            ]", "[  <hello>   ]", "[            ]"]);
	});

	it("wraps table cells when the table is too wide", () => {
		const md = new Markdown("| a | b |\n|---|---|\n| one two three four | five six seven |", 0, 0, plainMarkdownTheme);
		const lines = md.render(24);
		for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(24);
		expect(lines[0].startsWith("┌")).toBe(true);
		expect(lines.some((l) => l.includes("three"))).toBe(true);
		expect(lines.length).toBeGreaterThan(5);
	});

	it("renders nothing for empty text", () => {
		expect(new Markdown("   ", 1, 1, plainMarkdownTheme).render(20)).toEqual([]);
	});
});

describe("Markdown caching and streaming", () => {
	it("returns the cached lines while text and width are unchanged", () => {
		const md = new Markdown(DOC, 1, 0, styledMarkdownTheme);
		const a = md.render(50);
		expect(md.render(50)).toBe(a);
		expect(md.render(51)).not.toBe(a);
	});

	it("rendering while text streams in equals rendering the final text at once", () => {
		const streamed = new Markdown("", 1, 0, styledMarkdownTheme);
		let text = "";
		// Append in small uneven pieces so blocks are cut at every kind of boundary.
		for (let i = 0; i < DOC.length; i += 1 + (i % 7)) {
			text = DOC.slice(0, i + 1 + (i % 7));
			streamed.setText(text);
			const fresh = new Markdown(text, 1, 0, styledMarkdownTheme);
			expect(streamed.render(36)).toEqual(fresh.render(36));
		}
	});

	it("re-renders only the tail blocks on append", () => {
		const md = new Markdown("para one\n\npara two\n\npara three", 0, 0, plainMarkdownTheme);
		const first = md.render(30);
		md.setText("para one\n\npara two\n\npara three and more");
		const second = md.render(30);
		expect(second).toEqual(["para one", "", "para two", "", "para three and more"]);
		expect(second[0]).toBe(first[0]);
	});

	it("handles text that is replaced rather than appended", () => {
		const md = new Markdown("# one\n\ntext", 0, 0, plainMarkdownTheme);
		md.render(20);
		md.setText("- list");
		expect(md.render(20)).toEqual(["- list"]);
	});
});

describe("code highlighting", () => {
	it("loads the highlighter only when a code block needs it", () => {
		const hl = createCodeHighlighter({ keyword: (t) => `<k>${t}</k>`, string: (t) => `<s>${t}</s>` }, (l) => `|${l}`);
		const theme = { ...plainMarkdownTheme, highlightCode: hl };
		new Markdown("plain text", 0, 0, theme).render(40);
		new Markdown("```\nno language\n```", 0, 0, theme).render(40);
		expect(isHighlighterLoaded()).toBe(false);
		const lines = new Markdown('```js\nconst s = "x";\n```', 0, 0, theme).render(40);
		expect(isHighlighterLoaded()).toBe(true);
		expect(lines[1]).toBe('  <k>const</k> s = <s>"x"</s>;');
		// Unknown languages fall back to the plain style.
		expect(new Markdown("```nosuchlang\nabc\n```", 0, 0, theme).render(40)[1]).toBe("  |abc");
	});

	it("wraps long code lines inside the width", () => {
		const md = new Markdown(`\`\`\`\n${"x".repeat(50)}\n\`\`\``, 0, 0, plainMarkdownTheme);
		const lines = md.render(20);
		expect(lines.map(stripAnsi)).toEqual([
			"```",
			`  ${"x".repeat(18)}`,
			`  ${"x".repeat(18)}`,
			`  ${"x".repeat(14)}`,
			"```",
		]);
	});
});
