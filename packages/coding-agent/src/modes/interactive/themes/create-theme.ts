// A validated theme definition → the AppTheme object components draw with
// (pi-tui's Markdown/Editor/SelectList/SettingsList themes included).
import { createCodeHighlighter, type MarkdownTheme, type SelectListTheme } from "@pi/tui";
import type { AppTheme, ThemeBg, ThemeColor, ThinkingLevelName } from "../theme-fallback.js";
import { type ColorMode, sgrOpen } from "./color.js";
import type { ThemeDefinition } from "./theme-schema.js";

/** An AppTheme that also tells where it came from (for live reload and /settings). */
export interface LoadedTheme extends AppTheme {
	readonly definition: ThemeDefinition;
	/** Source file; undefined for built-ins. */
	readonly sourcePath: string | undefined;
	readonly colorMode: ColorMode;
}

const THINKING_TOKENS: Record<ThinkingLevelName, ThemeColor> = {
	off: "thinkingOff",
	minimal: "thinkingMinimal",
	low: "thinkingLow",
	medium: "thinkingMedium",
	high: "thinkingHigh",
	xhigh: "thinkingXhigh",
	// Themes have no colour of their own for max; it shares xhigh's.
	max: "thinkingXhigh",
};

export function createTheme(definition: ThemeDefinition, mode: ColorMode, sourcePath?: string): LoadedTheme {
	const fgOpen = {} as Record<ThemeColor, string>;
	for (const [token, color] of Object.entries(definition.fg)) fgOpen[token as ThemeColor] = sgrOpen(color, "fg", mode);
	const bgOpen = {} as Record<ThemeBg, string>;
	for (const [token, color] of Object.entries(definition.bg)) bgOpen[token as ThemeBg] = sgrOpen(color, "bg", mode);

	const fg = (token: ThemeColor, text: string) => {
		const open = fgOpen[token];
		return open ? `${open}${text}\x1b[39m` : text;
	};
	const bg = (token: ThemeBg, text: string) => {
		const open = bgOpen[token];
		return open ? `${open}${text}\x1b[49m` : text;
	};
	const styled = mode !== "none";
	const sgr = (on: string, off: string) => (text: string) => (styled ? `\x1b[${on}m${text}\x1b[${off}m` : text);
	const bold = sgr("1", "22");
	const italic = sgr("3", "23");
	const underline = sgr("4", "24");
	const strikethrough = sgr("9", "29");
	const inverse = sgr("7", "27");
	const paint = (token: ThemeColor) => (text: string) => fg(token, text);

	const selectList: SelectListTheme = {
		selectedPrefix: paint("accent"),
		selectedText: paint("accent"),
		description: paint("muted"),
		scrollInfo: paint("muted"),
		noMatch: paint("muted"),
	};
	let highlighter: ((code: string, lang?: string) => string[]) | undefined;
	const highlight = (code: string, lang?: string): string[] => {
		highlighter ??= createCodeHighlighter(
			{
				comment: paint("syntaxComment"),
				keyword: paint("syntaxKeyword"),
				built_in: paint("syntaxType"),
				type: paint("syntaxType"),
				title: paint("syntaxFunction"),
				function: paint("syntaxFunction"),
				variable: paint("syntaxVariable"),
				attr: paint("syntaxVariable"),
				string: paint("syntaxString"),
				number: paint("syntaxNumber"),
				literal: paint("syntaxNumber"),
				operator: paint("syntaxOperator"),
				punctuation: paint("syntaxPunctuation"),
				default: paint("mdCodeBlock"),
			},
			paint("mdCodeBlock"),
		);
		return highlighter(code, lang);
	};
	const markdown: MarkdownTheme = {
		heading: (t) => bold(fg("mdHeading", t)),
		link: paint("mdLink"),
		linkUrl: paint("mdLinkUrl"),
		code: paint("mdCode"),
		codeBlock: paint("mdCodeBlock"),
		codeBlockBorder: paint("mdCodeBlockBorder"),
		quote: (t) => italic(fg("mdQuote", t)),
		quoteBorder: paint("mdQuoteBorder"),
		hr: paint("mdHr"),
		listBullet: paint("mdListBullet"),
		bold,
		italic,
		strikethrough,
		underline,
		highlightCode: styled ? highlight : undefined,
	};

	return {
		name: definition.name,
		definition,
		sourcePath,
		colorMode: mode,
		fg,
		bg,
		bold,
		italic,
		underline,
		strikethrough,
		inverse,
		getThinkingBorderColor: (level) => paint(THINKING_TOKENS[level] ?? "thinkingOff"),
		getBashModeBorderColor: () => paint("bashMode"),
		getMarkdownTheme: () => markdown,
		getEditorTheme: () => ({ borderColor: paint("borderMuted"), selectList }),
		getSelectListTheme: () => selectList,
		getSettingsListTheme: () => ({
			label: (t, selected) => (selected ? fg("accent", t) : t),
			value: (t, selected) => (selected ? fg("accent", t) : fg("muted", t)),
			description: paint("dim"),
			cursor: fg("accent", "→ "),
			hint: paint("dim"),
		}),
	};
}
