// /settings: the everyday options in one list. Values cycle with Enter/Space;
// the theme opens a list that previews each theme as it is highlighted (Esc
// restores the one in force). What a change does is the caller's business
// (commands/settings.ts applies and saves it).
import { type Component, type SettingItem, SettingsList } from "@pi/tui";
import { liveSettingsListTheme, SelectorFrame, type ThemeSource } from "./frame.js";
import { SearchSelect } from "./search-select.js";

export interface SettingsState {
	thinkingLevel: string;
	availableThinkingLevels: string[];
	theme: string;
	themes: string[];
	steeringMode: "all" | "one-at-a-time";
	followUpMode: "all" | "one-at-a-time";
	autoCompact: boolean;
	autoRetry: boolean;
	cacheWarming: "off" | "streaming" | "idle";
	hideThinkingBlock: boolean;
	showCacheMissNotices: boolean;
	quietStartup: boolean;
	doubleEscapeAction: "tree" | "fork" | "none";
	treeFilterMode: "default" | "no-tools" | "user-only" | "labeled-only" | "all";
	branchSummarySkipPrompt: boolean;
	showImages: boolean;
	transport: string;
	editorPaddingX: number;
	autocompleteMaxVisible: number;
}

export type SettingId =
	| "thinking"
	| "theme"
	| "steering-mode"
	| "follow-up-mode"
	| "auto-compact"
	| "auto-retry"
	| "cache-warming"
	| "cache-notices"
	| "hide-thinking"
	| "quiet-startup"
	| "double-escape-action"
	| "tree-filter-mode"
	| "branch-summary-skip-prompt"
	| "show-images"
	| "transport"
	| "editor-padding"
	| "autocomplete-max-visible";

export interface SettingsSelectorOptions {
	state: SettingsState;
	onChange(id: SettingId, value: string): void;
	/** The theme list highlighted a theme (undefined: back to the one in force). */
	onThemePreview?(name: string | undefined): void;
	onClose(): void;
	maxVisible?: number;
}

const bool = (v: boolean) => (v ? "true" : "false");
const BOOL = ["true", "false"];
const QUEUE = ["one-at-a-time", "all"];

export function buildSettingItems(s: SettingsState): (SettingItem & { id: SettingId })[] {
	return [
		{
			id: "thinking",
			label: "Thinking level",
			description: "Reasoning effort for models that think (Shift+Tab cycles)",
			currentValue: s.thinkingLevel,
			values: s.availableThinkingLevels,
		},
		{ id: "theme", label: "Theme", description: "Colours of the interface", currentValue: s.theme },
		{
			id: "steering-mode",
			label: "Steering mode",
			description: "Messages typed while the agent works (Enter): delivered one at a time or all together",
			currentValue: s.steeringMode,
			values: QUEUE,
		},
		{
			id: "follow-up-mode",
			label: "Follow-up mode",
			description: "Follow-up messages (Alt+Enter): delivered one at a time or all together",
			currentValue: s.followUpMode,
			values: QUEUE,
		},
		{
			id: "auto-compact",
			label: "Auto-compact",
			description: "Summarize older context automatically when the window fills up",
			currentValue: bool(s.autoCompact),
			values: BOOL,
		},
		{
			id: "auto-retry",
			label: "Auto-retry",
			description: "Retry transient provider errors (rate limits, overload) with backoff",
			currentValue: bool(s.autoRetry),
			values: BOOL,
		},
		{
			id: "cache-warming",
			label: "Cache warming",
			description:
				"Keep the provider's prompt cache warm: during runs (streaming), also up to 30 min after (idle), or off",
			currentValue: s.cacheWarming,
			values: ["idle", "streaming", "off"],
		},
		{
			id: "cache-notices",
			label: "Cache notices",
			description: "Show significant prompt-cache misses, cache warms and what compactions were billed",
			currentValue: bool(s.showCacheMissNotices),
			values: BOOL,
		},
		{
			id: "hide-thinking",
			label: "Hide thinking blocks",
			description: "Collapse the model's thinking in the transcript (Ctrl+T toggles)",
			currentValue: bool(s.hideThinkingBlock),
			values: BOOL,
		},
		{
			id: "quiet-startup",
			label: "Quiet startup",
			description: "Leave out the start-up banner",
			currentValue: bool(s.quietStartup),
			values: BOOL,
		},
		{
			id: "double-escape-action",
			label: "Double-Escape action",
			description: "What Esc twice on an empty editor opens",
			currentValue: s.doubleEscapeAction,
			values: ["tree", "fork", "none"],
		},
		{
			id: "tree-filter-mode",
			label: "Tree filter",
			description: "Entries /tree shows at first",
			currentValue: s.treeFilterMode,
			values: ["default", "no-tools", "user-only", "labeled-only", "all"],
		},
		{
			id: "branch-summary-skip-prompt",
			label: "Skip branch summary prompt",
			description: "On /tree, switch branches without offering a summary of the branch left behind",
			currentValue: bool(s.branchSummarySkipPrompt),
			values: BOOL,
		},
		{
			id: "show-images",
			label: "Show images",
			description: "Draw images inline where the terminal supports it",
			currentValue: bool(s.showImages),
			values: BOOL,
		},
		{
			id: "transport",
			label: "Transport",
			description: "For providers that offer more than one",
			currentValue: s.transport,
			values: ["sse", "websocket", "auto"],
		},
		{
			id: "editor-padding",
			label: "Editor padding",
			description: "Columns of space left and right of the input",
			currentValue: String(s.editorPaddingX),
			values: ["0", "1", "2", "3"],
		},
		{
			id: "autocomplete-max-visible",
			label: "Autocomplete rows",
			description: "Most suggestions shown at once",
			currentValue: String(s.autocompleteMaxVisible),
			values: ["3", "5", "7", "10", "15", "20"],
		},
	];
}

export function createSettingsSelector(theme: ThemeSource, o: SettingsSelectorOptions): SelectorFrame {
	const items = buildSettingItems(o.state);
	const themeItem = items.find((i) => i.id === "theme");
	if (themeItem) {
		themeItem.submenu = (current, done): Component =>
			new SelectorFrame(
				theme,
				() => "Theme",
				new SearchSelect(theme, {
					items: o.state.themes.map((name) => ({ value: name, label: name })),
					initialValue: current,
					noSearch: o.state.themes.length <= 8,
					onHighlight: (item) => o.onThemePreview?.(item.value),
					onSelect: (item) => done(item.value),
					onCancel: () => {
						o.onThemePreview?.(undefined);
						done(undefined);
					},
				}),
				() => "↑↓ preview · enter choose · esc back",
			);
	}
	const list = new SettingsList(
		items,
		o.maxVisible ?? 12,
		liveSettingsListTheme(theme),
		(id, value) => o.onChange(id as SettingId, value),
		() => o.onClose(),
		{ enableSearch: true },
	);
	return new SelectorFrame(
		theme,
		() => "Settings",
		list,
		() => "",
	);
}
