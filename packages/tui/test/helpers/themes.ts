/** Themes for tests: plain (no styling) and styled with fixed SGR codes. */
import type { EditorTheme } from "../../src/components/editor.js";
import type { MarkdownTheme } from "../../src/components/markdown.js";
import type { SelectListTheme } from "../../src/components/select-list.js";
import type { SettingsListTheme } from "../../src/components/settings-list.js";

const id = (t: string) => t;
const sgr = (open: number, close: number) => (t: string) => `\x1b[${open}m${t}\x1b[${close}m`;

export const plainMarkdownTheme: MarkdownTheme = {
	heading: id,
	link: id,
	linkUrl: id,
	code: id,
	codeBlock: id,
	codeBlockBorder: id,
	quote: id,
	quoteBorder: id,
	hr: id,
	listBullet: id,
	bold: id,
	italic: id,
	strikethrough: id,
	underline: id,
	hyperlinks: false,
};

export const styledMarkdownTheme: MarkdownTheme = {
	heading: sgr(36, 39),
	link: sgr(34, 39),
	linkUrl: sgr(90, 39),
	code: sgr(33, 39),
	codeBlock: sgr(32, 39),
	codeBlockBorder: sgr(90, 39),
	quote: sgr(3, 23),
	quoteBorder: sgr(90, 39),
	hr: sgr(90, 39),
	listBullet: sgr(36, 39),
	bold: sgr(1, 22),
	italic: sgr(3, 23),
	strikethrough: sgr(9, 29),
	underline: sgr(4, 24),
};

export const selectTheme: SelectListTheme = {
	selectedPrefix: id,
	selectedText: id,
	description: id,
	scrollInfo: id,
	noMatch: id,
};

export const editorTheme: EditorTheme = { borderColor: id, selectList: selectTheme };

export const settingsTheme: SettingsListTheme = {
	label: (t) => t,
	value: (t) => t,
	description: id,
	cursor: "→ ",
	hint: id,
};
