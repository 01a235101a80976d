// What the start-up banner shows: version, model and level, loaded context
// files and skills, key hints from the user's bindings, and the start-up
// warnings (with what to do when there is no model or no key).
import type { KeybindingsManager } from "@pi/tui";
import type { AgentSession } from "../../agent-session/agent-session.js";
import { formatNoApiKeyMessage, formatNoModelsMessage } from "../../config/auth-guidance.js";
import type { InteractiveModeOptions } from "./app-options.js";
import { keyText } from "./keybindings.js";

export function bannerData(
	o: Pick<InteractiveModeOptions, "agentDir" | "version" | "warnings" | "contextFiles" | "skills">,
	session: AgentSession,
	kb: KeybindingsManager,
	/** keybindings.json and theme problems. */
	moreWarnings: string[],
) {
	const warnings = [...(o.warnings ?? []), ...moreWarnings];
	const model = session.model;
	const registry = session.modelRegistry;
	if (!model) warnings.push(formatNoModelsMessage(o.agentDir));
	else if (!registry.hasAuth(model)) warnings.push(formatNoApiKeyMessage(model.provider, o.agentDir));
	return {
		version: o.version,
		model: model ? `${model.provider}/${model.id} • thinking ${session.thinkingLevel}` : undefined,
		contextFiles: o.contextFiles ?? [],
		skills: o.skills ?? [],
		hints: [
			[keyText(kb, "app.interrupt"), "interrupt"],
			[`${keyText(kb, "app.clear")}/${keyText(kb, "app.exit")}`, "clear/exit"],
			["/", "commands"],
			["!", "bash"],
			[keyText(kb, "app.tools.expand"), "expand tools"],
		] as [string, string][],
		warnings,
		quiet: session.settings.getQuietStartup(),
	};
}
