// /model [search] (also Ctrl+L): an exact "provider/id" or id switches at
// once; anything else opens the selector with the text as its search.
import type { Model } from "@pi/ai";
import { findExactModel } from "../../../config/model-resolver.js";
import type { InteractiveContext } from "../context.js";
import { refreshModelCatalogs } from "../model-catalog-refresh.js";
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
		let open = true;
		const close = () => {
			open = false;
			restore();
		};
		const selector = createModelSelector(() => ctx.theme, {
			models,
			current: ctx.session.model,
			initialQuery: args || undefined,
			onSelect: (model) => {
				close();
				switchTo(ctx, model);
			},
			onCancel: close,
		});
		const restore = ctx.showInEditorArea(selector);
		// Dynamic catalogs are re-read while the known list is already shown (as 1.6.0).
		const registry = ctx.session.modelRegistry;
		if (registry.refreshers.ids().length === 0) return;
		selector.setNotice("refreshing model catalogs…");
		void refreshModelCatalogs(registry).then(
			(outcome) => {
				if (!open) return;
				selector.setNotice(outcome.message);
				selector.setModels(registry.getAvailable());
				ctx.requestRender();
			},
			(error: unknown) => {
				if (!open) return;
				selector.setNotice(
					`could not refresh model catalogs: ${error instanceof Error ? error.message : String(error)}`,
				);
				ctx.requestRender();
			},
		);
	},
};
