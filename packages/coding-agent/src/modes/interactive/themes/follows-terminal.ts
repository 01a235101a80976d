// Whether a theme setting follows the terminal's background (`system`, or a
// `light/dark` pair). A module of its own, importing nothing: the CLI decides
// with it whether to ask the terminal (OSC 11) before the app's code is loaded.

/** The setting value when none is saved: follow the terminal. */
export const SYSTEM_THEME = "system";

/** Whether the setting depends on the terminal's appearance (`system` or a light/dark pair). */
export function themeFollowsTerminal(setting: string): boolean {
	if (setting === SYSTEM_THEME) return true;
	const slash = setting.indexOf("/");
	return slash > 0 && slash < setting.length - 1;
}
