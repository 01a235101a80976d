/**
 * No line may overflow the terminal: a corpus of wide, emoji, styled and
 * hyperlinked text rendered at many widths into a real terminal emulator
 * must never wrap a row, and the visible text must be exactly what the
 * components meant to show.
 */
import { describe, expect, it } from "vitest";
import { Markdown } from "../src/components/markdown.js";
import { Text } from "../src/components/text.js";
import { TruncatedText } from "../src/components/truncated-text.js";
import { TUI } from "../src/tui.js";
import { stripAnsi } from "../src/utils/ansi.js";
import { truncateToWidth } from "../src/utils/slice.js";
import { visibleWidth } from "../src/utils/width.js";
import { wrapTextWithAnsi } from "../src/utils/wrap.js";
import { styledMarkdownTheme } from "./helpers/themes.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

const link = (text: string, url: string) => `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;

const CORPUS = [
	"plain ascii text that is long enough to need wrapping at most widths",
	"日本語のテキストと English words mixed 中文字符 한국어 문장",
	"emoji 😀😃😄 family 👨‍👩‍👧‍👦 thumbs 👍🏽 flags 🇯🇵🇺🇸 heart ❤️ keycap 1️⃣ end",
	`\x1b[1;31mbold red\x1b[0m normal \x1b[38;2;10;200;30mtruecolor\x1b[39m \x1b[4munderlined words here\x1b[24m`,
	`see ${link("the documentation page", "https://example.com/docs/page")} and ${link("日本語リンク", "https://例え.jp")}`,
	"combining: e\u0301 a\u0308 o\u0302 and zero\u200bwidth spaces, half-width ｶﾀｶﾅ",
	"tabs\tinside\ttext and averyveryverylongwordwithoutanyspacesthatmustbesplitsomewhere",
];

describe("width corpus in a terminal emulator", () => {
	for (const width of [7, 13, 20, 33, 80]) {
		it(`wraps and truncates without overflow at ${width} columns`, async () => {
			const term = new VirtualTerminal(width, 200);
			const tui = new TUI(term, { minRenderIntervalMs: 0 });
			for (const text of CORPUS) {
				tui.addChild(new Text(text, 0, 0));
				tui.addChild(new TruncatedText(text));
			}
			tui.renderNow();
			expect(await term.anyWrapped()).toBe(false);
			const expected: string[] = [];
			for (const text of CORPUS) {
				const t = text.replaceAll("\t", "   ");
				for (const l of wrapTextWithAnsi(t, width)) expected.push(stripAnsi(l));
				expected.push(stripAnsi(truncateToWidth(t.split("\n")[0], width)).replaceAll("\t", "   "));
			}
			const screen = await term.allLines();
			expect(screen.map((l) => l.replace(/\s+$/, ""))).toEqual(expected.map((l) => l.replace(/\s+$/, "")));
			for (const line of expected) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
		});
	}

	it("keeps a styled markdown document within the width", async () => {
		const doc = [
			"# Überschrift 見出し 🎉",
			"",
			`Some **bold 太字** and *italic* with \`code 😀\` and ${"[a link](https://example.com/very/long/path/that/keeps/going)"}.`,
			"",
			"| 名前 | value | notes |",
			"|---|---:|---|",
			"| 日本 | 42 | emoji 😀 cell with words |",
			"| ascii | 7 | plain |",
			"",
			"> quoted 引用 text that wraps around",
			"",
			"- item one 一\n- item two 👍🏽\n  - nested item with more words",
			"",
			"```\nconst s = '日本語'; // a long code line that must wrap somewhere\n```",
		].join("\n");
		for (const width of [12, 24, 40]) {
			const term = new VirtualTerminal(width, 120);
			const tui = new TUI(term, { minRenderIntervalMs: 0 });
			tui.addChild(new Markdown(doc, 1, 1, styledMarkdownTheme));
			tui.renderNow();
			expect(await term.anyWrapped()).toBe(false);
			for (const line of await term.allLines()) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
		}
	});
});
