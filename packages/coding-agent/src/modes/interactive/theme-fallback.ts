// The colour interface every interactive component draws with, and a small
// built-in dark theme. The theme system (themes/**: dark/light, custom files,
// live reload) supplies other `AppTheme` objects through
// `InteractiveContext.setTheme`; components never hold colours themselves,
// they ask the current theme at render time.
import { createCodeHighlighter, type MarkdownTheme, type SelectListTheme } from "@pi/tui";
import type { ExtensionTheme, ThemeBg, ThemeColor, ThinkingLevelName } from "../../extensions/ui-types.js";

// The theme contract lives with the extension API (extensions implement
// against it too); the interactive app calls it AppTheme.
export type { ThemeBg, ThemeColor, ThinkingLevelName } from "../../extensions/ui-types.js";
export type AppTheme = ExtensionTheme;

type Rgb = readonly [number, number, number];

const DARK_FG: Record<ThemeColor, Rgb | null> = {
	accent: [138, 190, 183],
	border: [95, 135, 255],
	borderAccent: [0, 215, 255],
	borderMuted: [80, 80, 80],
	success: [181, 189, 104],
	error: [204, 102, 102],
	warning: [255, 255, 0],
	muted: [128, 128, 128],
	dim: [102, 102, 102],
	text: null,
	thinkingText: [128, 128, 128],
	userMessageText: null,
	customMessageText: null,
	customMessageLabel: [157, 127, 209],
	toolTitle: null,
	toolOutput: [128, 128, 128],
	mdHeading: [240, 198, 116],
	mdLink: [129, 162, 190],
	mdLinkUrl: [102, 102, 102],
	mdCode: [138, 190, 183],
	mdCodeBlock: [181, 189, 104],
	mdCodeBlockBorder: [128, 128, 128],
	mdQuote: [128, 128, 128],
	mdQuoteBorder: [128, 128, 128],
	mdHr: [128, 128, 128],
	mdListBullet: [138, 190, 183],
	toolDiffAdded: [181, 189, 104],
	toolDiffRemoved: [204, 102, 102],
	toolDiffContext: [128, 128, 128],
	syntaxComment: [106, 153, 85],
	syntaxKeyword: [86, 156, 214],
	syntaxFunction: [220, 220, 170],
	syntaxVariable: [156, 220, 254],
	syntaxString: [206, 145, 120],
	syntaxNumber: [181, 206, 168],
	syntaxType: [78, 201, 176],
	syntaxOperator: [212, 212, 212],
	syntaxPunctuation: [212, 212, 212],
	thinkingOff: [80, 80, 80],
	thinkingMinimal: [110, 110, 110],
	thinkingLow: [95, 135, 175],
	thinkingMedium: [129, 162, 190],
	thinkingHigh: [178, 148, 187],
	thinkingXhigh: [209, 131, 232],
	bashMode: [181, 189, 104],
};

const DARK_BG: Record<ThemeBg, Rgb> = {
	selectedBg: [58, 58, 74],
	userMessageBg: [52, 53, 65],
	customMessageBg: [45, 40, 56],
	toolPendingBg: [40, 40, 50],
	toolSuccessBg: [40, 50, 40],
	toolErrorBg: [60, 40, 40],
};

const fgCode = (c: Rgb) => `\x1b[38;2;${c[0]};${c[1]};${c[2]}m`;
const bgCode = (c: Rgb) => `\x1b[48;2;${c[0]};${c[1]};${c[2]}m`;

/** Builds an AppTheme from RGB tables; `color: false` gives plain text (NO_COLOR, tests). */
export function createRgbTheme(
	name: string,
	fgTable: Record<ThemeColor, Rgb | null>,
	bgTable: Record<ThemeBg, Rgb>,
	color = true,
): AppTheme {
	const fg = (token: ThemeColor, text: string) => {
		const c = fgTable[token];
		return color && c ? `${fgCode(c)}${text}\x1b[39m` : text;
	};
	const bg = (token: ThemeBg, text: string) => (color ? `${bgCode(bgTable[token])}${text}\x1b[49m` : text);
	return appThemeFromColors(name, fg, bg, color);
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

/**
 * The AppTheme every theme is (the built-in fallback here, theme files in
 * themes/create-theme.ts): what each component theme draws with, from the
 * theme's `fg`/`bg` painters. `styled: false` leaves out the text attributes
 * (bold, italic…) and code highlighting.
 */
export function appThemeFromColors(name: string, fg: AppTheme["fg"], bg: AppTheme["bg"], styled: boolean): AppTheme {
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
	// cli-highlight itself is loaded by pi-tui on the first code block with a language.
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
		name,
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

/** The built-in dark theme. */
export const fallbackTheme: AppTheme = createRgbTheme("dark", DARK_FG, DARK_BG, !process.env.NO_COLOR);

/** A theme without escape codes (tests, NO_COLOR). */
export const plainTheme: AppTheme = createRgbTheme("plain", DARK_FG, DARK_BG, false);
