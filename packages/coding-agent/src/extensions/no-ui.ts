// `ctx.ui` where there is no user to ask (print and json modes): dialogs
// resolve at once to their "dismissed" value (select/input/editor: undefined,
// confirm: false, custom: undefined), fire-and-forget calls do nothing,
// getEditorText() is "". `notify` may be routed somewhere useful (print mode
// writes it to stderr); by default it is dropped too.
import type { ExtensionTheme, ExtensionUIContext } from "./ui-types.js";

const plain = (text: string) => text;

/** A theme that adds no styling: what renderers get when nothing is drawn. */
export const plainTheme: ExtensionTheme = {
	name: "plain",
	fg: (_c, text) => text,
	bg: (_c, text) => text,
	bold: plain,
	italic: plain,
	underline: plain,
	strikethrough: plain,
	inverse: plain,
	getThinkingBorderColor: () => plain,
	getBashModeBorderColor: () => plain,
	getMarkdownTheme: () => ({}) as ReturnType<ExtensionTheme["getMarkdownTheme"]>,
	getEditorTheme: () => ({}) as ReturnType<ExtensionTheme["getEditorTheme"]>,
	getSelectListTheme: () => ({}) as ReturnType<ExtensionTheme["getSelectListTheme"]>,
	getSettingsListTheme: () => ({}) as ReturnType<ExtensionTheme["getSettingsListTheme"]>,
};

export function createNoUIContext(
	notify: (message: string, type?: "info" | "warning" | "error") => void = () => {},
): ExtensionUIContext {
	let toolsExpanded = false;
	return {
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		editor: async () => undefined,
		custom: async () => undefined,
		notify,
		onTerminalInput: () => () => {},
		setStatus: () => {},
		setWorkingMessage: () => {},
		setWorkingVisible: () => {},
		setWorkingIndicator: () => {},
		setHiddenThinkingLabel: () => {},
		setWidget: () => {},
		setFooter: () => {},
		setHeader: () => {},
		setTitle: () => {},
		pasteToEditor: () => {},
		setEditorText: () => {},
		getEditorText: () => "",
		addAutocompleteProvider: () => {},
		setEditorComponent: () => {},
		getEditorComponent: () => undefined,
		theme: plainTheme,
		getAllThemes: () => [],
		getTheme: () => undefined,
		setTheme: () => ({ success: false, error: "No UI in this mode" }),
		getToolsExpanded: () => toolsExpanded,
		setToolsExpanded: (expanded) => {
			toolsExpanded = expanded;
		},
	};
}
