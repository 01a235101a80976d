// Re-reading dynamic model catalogs (extension providers' refreshModels)
// from the interactive app: when /model opens (the selector shows the known
// list at once and is updated when the refresh comes back) and after a
// successful /login of such a provider (its credential may unlock models).
// Bounded at 15 s; a failure keeps the models known before and is said so.
import type { ModelRegistry } from "../../config/model-registry.js";

export const CATALOG_REFRESH_TIMEOUT_MS = 15_000;

export interface CatalogRefreshOutcome {
	/** Nothing to refresh: no provider of the set has a refresher. */
	skipped: boolean;
	/** One line for the user, undefined when there is nothing to say. */
	message?: string;
	ok: boolean;
}

export async function refreshModelCatalogs(
	registry: ModelRegistry,
	providers?: readonly string[],
	timeoutMs = CATALOG_REFRESH_TIMEOUT_MS,
): Promise<CatalogRefreshOutcome> {
	const wanted = registry.refreshers.ids().filter((p) => !providers || providers.includes(p));
	if (wanted.length === 0) return { skipped: true, ok: true };
	const result = await registry.refresh({ providers: wanted, signal: AbortSignal.timeout(timeoutMs) });
	if (result.aborted)
		return { skipped: false, ok: false, message: "model refresh timed out; showing the models known before" };
	const failed = [...result.errors.keys()];
	if (failed.length === 1) {
		return { skipped: false, ok: false, message: `could not refresh ${failed[0]}; showing the models known before` };
	}
	if (failed.length > 1) {
		return {
			skipped: false,
			ok: false,
			message: `could not refresh ${failed.length} model catalogs (${failed.join(", ")}); showing the models known before`,
		};
	}
	return { skipped: false, ok: true, message: "model catalogs refreshed" };
}
