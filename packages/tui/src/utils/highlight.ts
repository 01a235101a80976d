/**
 * Syntax highlighting for Markdown code blocks, backed by cli-highlight.
 * The highlighter (highlight.js underneath) is heavy, so it is required only
 * when the first code block with a known language is rendered.
 */
import { createRequire } from "node:module";

type CliHighlight = {
	highlight(code: string, options: { language?: string; ignoreIllegals?: boolean; theme?: unknown }): string;
	supportsLanguage(name: string): boolean;
};

let loaded: CliHighlight | null | undefined;

function load(): CliHighlight | null {
	if (loaded === undefined) {
		try {
			loaded = createRequire(import.meta.url)("cli-highlight") as CliHighlight;
		} catch {
			loaded = null;
		}
	}
	return loaded;
}

/** Whether the highlighter module has been loaded (for tests of laziness). */
export function isHighlighterLoaded(): boolean {
	return !!loaded;
}

/**
 * Theme for highlighted tokens: highlight.js class names (`keyword`, `string`,
 * `comment`, `number`, `title`, `built_in`, …) to colour functions; `default`
 * styles everything else.
 */
export type CodeHighlightTheme = Record<string, (text: string) => string>;

/**
 * Build a `MarkdownTheme.highlightCode` function. Code in an unknown or
 * missing language is passed through `fallback` line by line.
 */
export function createCodeHighlighter(
	theme: CodeHighlightTheme,
	fallback: (line: string) => string = (l) => l,
): (code: string, lang?: string) => string[] {
	return (code, lang) => {
		if (!lang) return code.split("\n").map(fallback);
		const hl = load();
		if (!hl?.supportsLanguage(lang)) return code.split("\n").map(fallback);
		try {
			return hl.highlight(code, { language: lang, ignoreIllegals: true, theme }).split("\n");
		} catch {
			return code.split("\n").map(fallback);
		}
	};
}
