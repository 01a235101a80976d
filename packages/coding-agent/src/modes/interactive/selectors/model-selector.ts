// The model selector (/model, Ctrl+L): models that have credentials, the
// current one first and marked, filtered as you type ("sonnet", "openai/gpt").
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

export function createModelSelector(theme: ThemeSource, o: ModelSelectorOptions): SelectorFrame {
	const sorted = sortModels(o.models, o.current);
	const byKey = new Map(sorted.map((m) => [modelKey(m), m]));
	const cur = o.current ? modelKey(o.current) : undefined;
	const items: SelectItem[] = sorted.map((m) => ({
		value: modelKey(m),
		label: `${modelKey(m)}${modelKey(m) === cur ? " ✓" : ""}`,
		description: m.name && m.name !== m.id ? m.name : undefined,
	}));
	const search = new SearchSelect(theme, {
		items,
		initialQuery: o.initialQuery,
		initialValue: cur,
		maxVisible: o.maxVisible ?? 10,
		emptyText: o.models.length === 0 ? "No models with credentials. Set an API key or edit models.json." : "No matches",
		onSelect: (item) => {
			const model = byKey.get(item.value);
			if (model) o.onSelect(model);
		},
		onCancel: () => o.onCancel(),
	});
	return new SelectorFrame(
		theme,
		() => "Select model",
		search,
		() => "type to search · ↑↓ move · enter select · esc cancel · only models with credentials are listed",
	);
}
