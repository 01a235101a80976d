// A validated theme definition → the AppTheme object components draw with
// (pi-tui's Markdown/Editor/SelectList/SettingsList themes included).
import { type AppTheme, appThemeFromColors, type ThemeBg, type ThemeColor } from "../theme-fallback.js";
import { type ColorMode, sgrOpen } from "./color.js";
import type { ThemeDefinition } from "./theme-schema.js";

/** An AppTheme that also tells where it came from (for live reload and /settings). */
export interface LoadedTheme extends AppTheme {
	readonly definition: ThemeDefinition;
	/** Source file; undefined for built-ins. */
	readonly sourcePath: string | undefined;
	readonly colorMode: ColorMode;
}

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
	return {
		...appThemeFromColors(definition.name, fg, bg, mode !== "none"),
		definition,
		sourcePath,
		colorMode: mode,
	};
}
