// A theme that adds no escape codes, for UI contexts without a terminal
// (print, json, rpc): `ctx.ui.theme` must exist in every mode, and an
// extension that styles text there gets the text back unchanged. Pure data,
// no runtime import, so no-UI modes never load the terminal library for it.
import type { ExtensionTheme } from "./ui-types.js";

const same = (text: string) => text;

export const plainExtensionTheme: ExtensionTheme = {
	name: "plain",
	fg: (_color, text) => text,
	bg: (_color, text) => text,
	bold: same,
	italic: same,
	underline: same,
	strikethrough: same,
	inverse: same,
	getThinkingBorderColor: () => same,
	getBashModeBorderColor: () => same,
	getMarkdownTheme: () => ({
		heading: same,
		link: same,
		linkUrl: same,
		code: same,
		codeBlock: same,
		codeBlockBorder: same,
		quote: same,
		quoteBorder: same,
		hr: same,
		listBullet: same,
		bold: same,
		italic: same,
		strikethrough: same,
		underline: same,
	}),
	getEditorTheme: () => ({
		borderColor: same,
		selectList: { selectedPrefix: same, selectedText: same, description: same, scrollInfo: same, noMatch: same },
	}),
	getSelectListTheme: () => ({
		selectedPrefix: same,
		selectedText: same,
		description: same,
		scrollInfo: same,
		noMatch: same,
	}),
	getSettingsListTheme: () => ({ label: same, value: same, description: same, cursor: "> ", hint: same }),
};
