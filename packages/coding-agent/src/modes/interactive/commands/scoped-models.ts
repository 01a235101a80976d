// /scoped-models: choose the models Ctrl+P cycles through. Changes apply to
// this run at once; Ctrl+S also saves them as `enabledModels` (global
// settings), which later runs use unless --models is given.
import type { ScopedModel } from "../../../config/model-resolver.js";
import { SelectorFrame } from "../selectors/frame.js";
import { ensureSelectorKeybindings } from "../selectors/keybindings.js";
import { modelKey } from "../selectors/model-selector.js";
import { SCOPED_MODELS_HINTS, ScopedModelsSelector } from "../selectors/scoped-models-selector.js";
import type { SlashCommand } from "./registry.js";

export const scopedModelsCommand: SlashCommand = {
	name: "scoped-models",
	description: "Choose the models Ctrl+P cycles through",
	run(_args, ctx) {
		ensureSelectorKeybindings(ctx.keybindings);
		const session = ctx.session;
		const models = session.modelRegistry.getAvailable();
		const byKey = new Map(models.map((m) => [modelKey(m), m]));
		const previous = new Map(session.getScopedModels().map((s) => [modelKey(s.model), s]));
		const toScope = (keys: string[]): ScopedModel[] =>
			keys.flatMap((k) => {
				const model = byKey.get(k);
				if (!model) return [];
				const level = previous.get(k)?.thinkingLevel;
				return [level ? { model, thinkingLevel: level } : { model }];
			});
		const selector = new ScopedModelsSelector(() => ctx.theme, {
			all: models.map(modelKey).sort(),
			enabled: [...previous.keys()],
			keybindings: ctx.keybindings,
			maxVisible: Math.max(5, Math.min(15, ctx.tui.terminal.rows - 12)),
			onChange: (keys) => session.setScopedModels(toScope(keys)),
			onSave: (keys) => {
				const scope = toScope(keys);
				ctx.settings.set(
					"enabledModels",
					scope.length > 0
						? scope.map((s) => (s.thinkingLevel ? `${modelKey(s.model)}:${s.thinkingLevel}` : modelKey(s.model)))
						: undefined,
				);
			},
			onClose: () => {
				restore();
				const n = session.getScopedModels().length;
				ctx.showStatus(
					n > 0
						? `Ctrl+P cycles through ${n} model${n === 1 ? "" : "s"}`
						: "Ctrl+P cycles through every model with credentials",
				);
			},
		});
		const restore = ctx.showInEditorArea(
			new SelectorFrame(
				() => ctx.theme,
				() => "Scoped models",
				selector,
				() => SCOPED_MODELS_HINTS,
			),
		);
	},
};
