// /model [search] (also Ctrl+L): an exact "provider/id" or id switches at
// once; anything else opens the selector with the text as its search.
import type { Model } from "@pi/ai";
import { findExactModel } from "../../../config/model-resolver.js";
import type { InteractiveContext } from "../context.js";
import { createModelSelector, modelKey } from "../selectors/model-selector.js";
import type { SlashCommand } from "./registry.js";

function switchTo(ctx: InteractiveContext, model: Model): void {
	try {
		ctx.session.setModel(model);
		ctx.refreshStatus();
		ctx.showStatus(`Model: ${modelKey(model)} • thinking ${ctx.session.thinkingLevel}`);
	} catch (error) {
		ctx.showStatus(error instanceof Error ? error.message : String(error), "error");
	}
}

export const modelCommand: SlashCommand = {
	name: "model",
	description: "Select a model",
	argumentHint: "[search]",
	run(args, ctx) {
		const models = ctx.session.modelRegistry.getAvailable();
		if (args) {
			const exact = findExactModel(args, models);
			if (exact) {
				switchTo(ctx, exact);
				return;
			}
		}
		const restore = ctx.showInEditorArea(
			createModelSelector(() => ctx.theme, {
				models,
				current: ctx.session.model,
				initialQuery: args || undefined,
				onSelect: (model) => {
					restore();
					switchTo(ctx, model);
				},
				onCancel: () => restore(),
			}),
		);
	},
};
