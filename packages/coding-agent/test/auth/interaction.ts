/** A scripted LoginInteraction: records notices, answers prompts from a script. */
import type { LoginInteraction, LoginNotice, LoginPrompt } from "../../src/auth/interaction.js";

export interface ScriptedInteraction extends LoginInteraction {
	notices: LoginNotice[];
	prompts: LoginPrompt[];
	controller: AbortController;
}

export function scriptedInteraction(options: {
	browser?: boolean;
	onNotice?: (notice: LoginNotice) => void;
	answer?: (prompt: LoginPrompt) => Promise<string>;
}): ScriptedInteraction {
	const controller = new AbortController();
	const notices: LoginNotice[] = [];
	const prompts: LoginPrompt[] = [];
	return {
		notices,
		prompts,
		controller,
		signal: controller.signal,
		browser: options.browser ?? true,
		notify(notice) {
			notices.push(notice);
			options.onNotice?.(notice);
		},
		prompt(prompt) {
			prompts.push(prompt);
			if (options.answer) return options.answer(prompt);
			// Like a runner that cannot ask: the browser callback is the only way in.
			return prompt.type === "manual_code" ? new Promise(() => {}) : Promise.resolve("");
		},
	};
}
