// Which prompt-cache retention tier a request asks for. A request's own
// `cacheRetention` wins; without one, PI_CACHE_RETENTION=long (1.6.0's
// environment switch, docs/environment-variables.md) selects the long tier
// for every request that does not say otherwise, and anything else means the
// provider's default ("short"). Adapters and the cache-warming lifetime both
// read it here so the tier warmed is the tier written.
import type { CacheRetention, StreamOptions } from "./types.js";

export function resolveCacheRetention(
	options: Pick<StreamOptions, "cacheRetention"> = {},
	env: NodeJS.ProcessEnv = process.env,
): CacheRetention {
	if (options.cacheRetention) return options.cacheRetention;
	return env.PI_CACHE_RETENTION?.trim() === "long" ? "long" : "short";
}
