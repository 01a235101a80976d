// The seam between the registry and pi-ai's model data: built-in models plus
// what models.json adds or overrides. Kept behind an interface so the SDK and
// tests can supply their own catalog.
import type { Model } from "@pi/ai";

export interface AppliedModels {
	models: Model[];
	/** Problems in models.json (each names the provider/model and field). */
	errors: string[];
}

export interface ModelCatalog {
	/** The built-in models, fresh copies. */
	builtins(): Model[];
	/** Applies a parsed models.json to `builtins` (custom providers, overrides). */
	applyModelsConfig(builtins: Model[], config: unknown, options: { source: string }): AppliedModels;
}
