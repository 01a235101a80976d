// /trust: shows this folder's trust decision and what its `.pi/` brings, and
// changes the saved decision (trust.json). A change applies from the next
// start: resources that loaded stay loaded, ones that did not are not
// loaded into the running session.
import { describeProjectResources } from "../../../config/project-resources-summary.js";
import {
	hasTrustRequiringProjectResources,
	readSavedProjectTrust,
	saveProjectTrust,
} from "../../../config/project-trust.js";
import { askChoice } from "../selectors/prompts.js";
import type { SlashCommand } from "./registry.js";

type TrustChoice = "always" | "never" | "forget";

export const trustCommand: SlashCommand = {
	name: "trust",
	description: "Review and change whether this folder's .pi/ resources load",
	async run(_args, ctx) {
		const resources = describeProjectResources(ctx.cwd);
		if (!hasTrustRequiringProjectResources(ctx.cwd)) {
			ctx.showStatus(`${ctx.cwd} has no .pi/ resources that need trust.`);
			return;
		}
		const saved = readSavedProjectTrust(ctx.agentDir, ctx.cwd);
		const state = saved === true ? "trusted (saved)" : saved === false ? "not trusted (saved)" : "no saved decision";
		ctx.showStatus(`Project trust for ${ctx.cwd}: ${state}. It has: ${resources.join("; ")}`);
		const choice = await askChoice<TrustChoice>(
			ctx,
			"Trust this folder?",
			[
				{ value: "always", label: "Trust always", description: "load .pi/ resources from the next start" },
				{ value: "never", label: "Never trust", description: "never load them, never ask" },
				{ value: "forget", label: "Forget the decision", description: "ask again next time" },
			],
			saved === true ? "always" : saved === false ? "never" : "forget",
		);
		if (!choice) return;
		saveProjectTrust(ctx.agentDir, ctx.cwd, choice === "always" ? true : choice === "never" ? false : null);
		const now = choice === "always" ? "trusted" : choice === "never" ? "never trusted" : "asked again next time";
		ctx.showStatus(`This folder is now ${now} (${ctx.agentDir}/trust.json); it applies from the next start.`);
	},
};
