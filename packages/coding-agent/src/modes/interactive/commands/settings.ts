// /settings: thinking level, theme (previewed while choosing), message
// delivery, auto-compaction, auto-retry and display options. Each change
// takes effect at once and is saved to the global settings.json.
import type { ThinkingLevel } from "@pi/ai";
import type { InteractiveContext } from "../context.js";
import { createSettingsSelector, type SettingId, type SettingsState } from "../selectors/settings-selector.js";
import { SYSTEM_THEME } from "../themes/theme-manager.js";
import type { SlashCommand } from "./registry.js";

function num(value: unknown, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

export function currentSettingsState(ctx: InteractiveContext): SettingsState {
	const s = ctx.session;
	const settings = ctx.settings;
	const themes = ctx.themes;
	if (themes) themes.rediscover();
	return {
		thinkingLevel: s.thinkingLevel,
		availableThinkingLevels: s.getAvailableThinkingLevels(),
		theme: ctx.theme.name,
		themes: themes ? [SYSTEM_THEME, ...themes.list().map((t) => t.name)] : [ctx.theme.name],
		steeringMode: s.steeringMode,
		followUpMode: s.followUpMode,
		autoCompact: s.autoCompactionEnabled,
		autoRetry: s.autoRetryEnabled,
		cacheWarming: settings.getCacheWarmingMode(),
		hideThinkingBlock: settings.getHideThinkingBlock(),
		showCacheMissNotices: settings.getShowCacheMissNotices(),
		quietStartup: settings.getQuietStartup(),
		doubleEscapeAction: (settings.get("doubleEscapeAction") as SettingsState["doubleEscapeAction"]) ?? "tree",
		treeFilterMode: (settings.get("treeFilterMode") as SettingsState["treeFilterMode"]) ?? "default",
		branchSummarySkipPrompt: settings.getBranchSummarySettings().skipPrompt,
		showImages: settings.getTerminalSettings().showImages,
		transport: settings.getTransport(),
		editorPaddingX: num(settings.get("editorPaddingX"), 0),
		autocompleteMaxVisible: num(settings.get("autocompleteMaxVisible"), 5),
	};
}

/** Applies one change from the settings list (and saves it). */
export function applySetting(ctx: InteractiveContext, id: SettingId, value: string): void {
	const s = ctx.session;
	const settings = ctx.settings;
	const on = value === "true";
	switch (id) {
		case "thinking":
			s.setThinkingLevel(value as ThinkingLevel);
			break;
		case "theme": {
			const result = ctx.themes?.select(value, true);
			if (result?.ok) ctx.setTheme(result.theme);
			else ctx.showStatus(result ? result.error : "Themes are not available here", "error");
			break;
		}
		case "steering-mode":
			s.setSteeringMode(value as "all" | "one-at-a-time");
			break;
		case "follow-up-mode":
			s.setFollowUpMode(value as "all" | "one-at-a-time");
			break;
		case "auto-compact":
			s.setAutoCompactionEnabled(on);
			break;
		case "auto-retry":
			s.setAutoRetryEnabled(on);
			break;
		case "cache-warming":
			settings.setCacheWarmingMode(value as "off" | "streaming" | "idle");
			s.cacheWarming?.onModeChanged();
			break;
		case "cache-notices":
			settings.set("showCacheMissNotices", on);
			break;
		case "hide-thinking":
			settings.set("hideThinkingBlock", on);
			ctx.chat.setShowThinking(!on);
			break;
		case "quiet-startup":
			settings.set("quietStartup", on);
			break;
		case "double-escape-action":
			settings.set("doubleEscapeAction", value);
			break;
		case "tree-filter-mode":
			settings.set("treeFilterMode", value);
			break;
		case "branch-summary-skip-prompt":
			settings.set(["branchSummary", "skipPrompt"], on);
			break;
		case "show-images":
			settings.set(["terminal", "showImages"], on);
			break;
		case "transport":
			settings.set("transport", value);
			break;
		case "editor-padding":
			settings.set("editorPaddingX", Number(value));
			ctx.editor.setPaddingX?.(Number(value));
			break;
		case "autocomplete-max-visible":
			settings.set("autocompleteMaxVisible", Number(value));
			ctx.editor.setAutocompleteMaxVisible?.(Number(value));
			break;
	}
	ctx.refreshStatus();
}

export const settingsCommand: SlashCommand = {
	name: "settings",
	description: "Open settings",
	run(_args, ctx) {
		const selector = createSettingsSelector(() => ctx.theme, {
			state: currentSettingsState(ctx),
			maxVisible: Math.max(5, Math.min(15, ctx.tui.terminal.rows - 12)),
			onChange: (id, value) => applySetting(ctx, id, value),
			onThemePreview: (name) => {
				const preview = name === undefined ? ctx.themes?.current : ctx.themes?.load(name);
				if (preview) ctx.setTheme(preview);
			},
			onClose: () => restore(),
		});
		const restore = ctx.showInEditorArea(selector);
	},
};
