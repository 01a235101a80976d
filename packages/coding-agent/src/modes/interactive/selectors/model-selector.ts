// The model selector (/model, Ctrl+L): models that have credentials, the
// current one first and marked, filtered as you type ("sonnet", "openai/gpt").
// The list can be replaced while it is open (a model catalog refresh came
// back); a notice line under the title says how that went.
import type { Model } from "@pi/ai";
import type { SelectItem } from "@pi/tui";
import { SelectorFrame, type ThemeSource } from "./frame.js";
import { SearchSelect } from "./search-select.js";

export interface ModelSelectorOptions {
	models: readonly Model[];
	current: Model | undefined;
	initialQuery?: string;
	maxVisible?: number;
	onSelect(model: Model): void;
	onCancel(): void;
}

export interface ModelSelector extends SelectorFrame {
	/** Replaces the listed models (filter and highlight kept). */
	setModels(models: readonly Model[]): void;
	/** Shown after the title ("refreshing model catalogs…"); undefined clears it. */
	setNotice(text: string | undefined): void;
}

export function modelKey(model: Pick<Model, "provider" | "id">): string {
	return `${model.provider}/${model.id}`;
}

/** Current model first, then by provider and id. */
export function sortModels(models: readonly Model[], current: Model | undefined): Model[] {
	const cur = current ? modelKey(current) : undefined;
	return [...models].sort((a, b) => {
		if (modelKey(a) === cur) return -1;
		if (modelKey(b) === cur) return 1;
		return a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id);
	});
}

export function createModelSelector(theme: ThemeSource, o: ModelSelectorOptions): ModelSelector {
	const cur = o.current ? modelKey(o.current) : undefined;
	let byKey = new Map<string, Model>();
	let count = 0;
	let notice: string | undefined;
	const itemsOf = (models: readonly Model[]): SelectItem[] => {
		const sorted = sortModels(models, o.current);
		byKey = new Map(sorted.map((m) => [modelKey(m), m]));
		count = sorted.length;
		return sorted.map((m) => ({
			value: modelKey(m),
			label: `${modelKey(m)}${modelKey(m) === cur ? " ✓" : ""}`,
			description: m.name && m.name !== m.id ? m.name : undefined,
		}));
	};
	const search = new SearchSelect(theme, {
		items: itemsOf(o.models),
		initialQuery: o.initialQuery,
		initialValue: cur,
		maxVisible: o.maxVisible ?? 10,
		get emptyText() {
			return count === 0 ? "No models with credentials. Set an API key or edit models.json." : "No matches";
		},
		onSelect: (item) => {
			const model = byKey.get(item.value);
			if (model) o.onSelect(model);
		},
		onCancel: () => o.onCancel(),
	});
	const frame = new SelectorFrame(
		theme,
		() => (notice ? `Select model · ${notice}` : "Select model"),
		search,
		() => "type to search · ↑↓ move · enter select · esc cancel · only models with credentials are listed",
	) as ModelSelector;
	frame.setModels = (models) => search.setItems(itemsOf(models));
	frame.setNotice = (text) => {
		notice = text;
	};
	return frame;
}
