// Which extension files to load (after the trust decision), loading them,
// the flags they register, and how their errors are written. Imported with
// import() by the session services and the CLI's help; the loader (and jiti)
// only when there is at least one extension to load.
import { join } from "node:path";
import { findReplacedBuiltins } from "../extensions/builtin-replacement.js";
import { type DiscoverOptions, discoverExtensions, type ExtensionSource } from "../extensions/discovery.js";
import type { ExtensionRuntime, LoadedExtension } from "../extensions/extension.js";
import type { LoadError } from "../extensions/loader.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type { ExtensionError, ExtensionFactory, ExtensionFlag } from "../extensions/types.js";

/** What discovery takes, with the built-ins given as factories and the inline factories to load after it. */
export interface ExtensionSetupOptions extends Omit<DiscoverOptions, "builtins"> {
	/**
	 * The bundled extensions this host offers (`builtin:<name>`), by name in
	 * load order: the CLI passes its own (cli/builtin-extensions.ts); the SDK none.
	 */
	builtins?: Readonly<Record<string, () => Promise<ExtensionFactory>>>;
	/** Factories given in code (SDK), loaded after the discovered files, named `<inline:N>` in messages. */
	factories?: readonly ExtensionFactory[];
}

export interface ExtensionSetup {
	/** Undefined when nothing was loaded. */
	runner?: ExtensionRunner;
	/** Files that could not load (fatal outside interactive mode). */
	errors: LoadError[];
	/** Discovery notes and registration conflicts. */
	warnings: string[];
}

export async function setupExtensions(o: ExtensionSetupOptions): Promise<ExtensionSetup> {
	return finishExtensions(await loadUserExtensions({ ...o, projectTrusted: false, projectSetting: undefined }), o);
}

/**
 * The first of the two loading steps: what may load before the project is
 * trusted (built-ins, the global dir and settings, `-e`). These extensions
 * answer `project_trust`; `finishExtensions` then adds the project's own.
 */
export interface UserExtensions {
	extensions: LoadedExtension[];
	runtime?: ExtensionRuntime;
	errors: LoadError[];
	warnings: string[];
}

export async function loadUserExtensions(o: ExtensionSetupOptions): Promise<UserExtensions> {
	return loadMore(
		{ extensions: [], errors: [], warnings: [] },
		{ ...o, projectTrusted: false, projectSetting: undefined },
	);
}

/**
 * Adds what the trust decision allows (the project's `.pi/extensions/` and
 * its `extensions` setting) to the extensions `loadUserExtensions` loaded,
 * in discovery order (which is dispatch order). One the project's settings
 * leave out (`!glob`, `-path`) was already loaded: it is dropped here.
 */
export async function finishExtensions(first: UserExtensions, o: ExtensionSetupOptions): Promise<ExtensionSetup> {
	const all = o.projectTrusted ? await loadMore(first, o) : first;
	// Nothing was ever to load: no runner (and none of the loader).
	if (!all.runtime) return { errors: all.errors, warnings: all.warnings };
	const { ExtensionRunner } = await import("../extensions/runner.js");
	const kept = withoutReplacedBuiltins(all.extensions);
	const runner = new ExtensionRunner(kept.extensions, all.runtime);
	return {
		runner,
		errors: all.errors,
		warnings: [...all.warnings, ...kept.warnings, ...runner.warnings.map((w) => `Warning: ${w}`)],
	};
}

/** The extensions without the built-ins others replace (builtin-replacement.ts), and a warning for each. */
function withoutReplacedBuiltins(extensions: LoadedExtension[]): { extensions: LoadedExtension[]; warnings: string[] } {
	const replaced = findReplacedBuiltins(extensions);
	if (replaced.length === 0) return { extensions, warnings: [] };
	const gone = new Set(replaced.map((r) => r.path));
	return { extensions: extensions.filter((e) => !gone.has(e.path)), warnings: replaced.map((r) => r.warning) };
}

/** Discovers for `o` and loads the sources `have` has not loaded yet, keeping discovery order. */
async function loadMore(have: UserExtensions, o: ExtensionSetupOptions): Promise<UserExtensions> {
	const discovered = discoverExtensions({
		cwd: o.cwd,
		agentDir: o.agentDir,
		projectTrusted: o.projectTrusted,
		globalSetting: o.globalSetting,
		projectSetting: o.projectSetting,
		cliPaths: o.cliPaths,
		noExtensions: o.noExtensions,
		builtins: Object.keys(o.builtins ?? {}),
		disabledBuiltins: o.disabledBuiltins,
		packageExtensions: o.packageExtensions,
	});
	const { diagnostics } = discovered;
	// Factories given in code load last, in the order given (they have no file to discover).
	const sources: (ExtensionSource & { loadFactory?: () => Promise<ExtensionFactory> })[] = [
		...discovered.sources,
		...(o.factories ?? []).map((factory, i) => {
			const path = `<inline:${i + 1}>`;
			return {
				path,
				sourceInfo: { path, source: "sdk", scope: "temporary" as const, origin: "top-level" as const },
				loadFactory: async () => factory,
			};
		}),
	];
	const seen = new Set(have.warnings);
	const warnings = [...have.warnings, ...diagnostics.map((d) => `Warning: ${d.message}`).filter((w) => !seen.has(w))];
	const loadedBefore = new Map(have.extensions.map((e) => [e.path, e]));
	const failedBefore = new Set(have.errors.map((e) => e.path));
	const fresh = sources.filter((s) => !loadedBefore.has(s.path) && !failedBefore.has(s.path));
	let runtime = have.runtime;
	const loadedNow = new Map<string, LoadedExtension>();
	const errors = [...have.errors];
	if (fresh.length > 0) {
		const { loadExtensions } = await import("../extensions/loader.js");
		const loaded = await loadExtensions({
			cwd: o.cwd,
			runtime,
			// Transpiled TypeScript is kept between runs, private to the user (see loader.ts).
			cacheDir: join(o.agentDir, "cache", "jiti"),
			sources: fresh.map((s) => {
				const builtin = s.builtin ? o.builtins?.[s.builtin] : undefined;
				return builtin ? { ...s, loadFactory: builtin } : s;
			}),
		});
		runtime = loaded.runtime;
		for (const e of loaded.extensions) loadedNow.set(e.path, e);
		errors.push(...loaded.errors);
	}
	const extensions: LoadedExtension[] = [];
	for (const s of sources) {
		const e = loadedBefore.get(s.path) ?? loadedNow.get(s.path);
		if (e) extensions.push(e);
	}
	return { extensions, runtime, errors, warnings };
}

/** Flag name → how it takes a value, for re-parsing the command line. */
export function flagKinds(flags: ExtensionFlag[]): Map<string, ExtensionFlag["type"]> {
	return new Map(flags.map((f) => [f.name, f.type]));
}

/** One line for stderr (print mode, interactive notices). */
export function formatExtensionError(e: ExtensionError): string {
	return `Extension error (${e.extensionPath}, ${e.event}): ${e.error}`;
}
