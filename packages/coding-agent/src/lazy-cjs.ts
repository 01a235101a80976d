// picomatch and ignore are CommonJS. Bundled, every chunk importing them ran
// their whole module bodies (V8 compiling all ~90 KB of them) as soon as it
// loaded, and a plain `pi -p` run loads those chunks (extension discovery,
// resource paths, permissions) without ever matching a glob. Required on
// first use instead, from node_modules (both are dependencies of this package).
import { createRequire } from "node:module";
import type ignoreModule from "ignore";
import type picomatchModule from "picomatch";

// Bundled to CommonJS (the search worker run from source: tools/search/in-worker.ts) import.meta
// is empty; there the bundle's own require is the one to use.
const load: NodeJS.Require = import.meta.url ? createRequire(import.meta.url) : require;
let picomatchLoaded: typeof picomatchModule | undefined;
let ignoreLoaded: typeof ignoreModule | undefined;

/** The picomatch module, loaded on the first call. */
export function picomatch(): typeof picomatchModule {
	picomatchLoaded ??= load("picomatch") as typeof picomatchModule;
	return picomatchLoaded;
}

/** The ignore module's factory, loaded on the first call. */
export function ignoreFactory(): typeof ignoreModule {
	ignoreLoaded ??= load("ignore") as typeof ignoreModule;
	return ignoreLoaded;
}

/**
 * A Node built-in module, loaded on the first call. Some built-ins cost a module
 * compile and init of their own (node:worker_threads, node:fs/promises): a module
 * that needs one only in some calls loads it there, not when it is imported.
 */
export function nodeBuiltin<T>(name: `node:${string}`): T {
	return load(name) as T;
}
