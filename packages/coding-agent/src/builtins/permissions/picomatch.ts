// Built-ins may import only the public extension API and their own files, so the
// permissions extension keeps its own first-use loader of picomatch (CommonJS,
// not needed by a run that never checks a rule) instead of the core's lazy-cjs.ts.
import { createRequire } from "node:module";
import type picomatchModule from "picomatch";

const load = createRequire(import.meta.url);
let loaded: typeof picomatchModule | undefined;

/** The picomatch module, loaded on the first call. */
export function picomatch(): typeof picomatchModule {
	loaded ??= load("picomatch") as typeof picomatchModule;
	return loaded;
}
