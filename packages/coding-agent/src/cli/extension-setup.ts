// The CLI's side of extensions: which files to load (after the trust
// decision), loading them, the flags they register, and how their errors are
// written in each mode. Imported with import() by run.ts and main.ts; the
// loader (and jiti) only when there is at least one extension to load.
import { discoverExtensions } from "../extensions/discovery.js";
import type { LoadError } from "../extensions/loader.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type { ExtensionError, ExtensionFlag } from "../extensions/types.js";
import type { ExtensionFlagKind } from "./args.js";
import { BUILTIN_EXTENSION_NAMES, BUILTIN_EXTENSIONS } from "./builtin-extensions.js";

export interface ExtensionSetupOptions {
	cwd: string;
	agentDir: string;
	projectTrusted: boolean;
	globalSetting?: unknown;
	projectSetting?: unknown;
	cliPaths?: string[];
	noExtensions?: boolean;
	/** Built-ins turned off for this run (`--no-mcp` → "mcp"). */
	disabledBuiltins?: string[];
	/** Built-in names to consider (default: all bundled ones; tests pass fewer). */
	builtins?: readonly string[];
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
	const { sources, diagnostics } = discoverExtensions({
		cwd: o.cwd,
		agentDir: o.agentDir,
		projectTrusted: o.projectTrusted,
		globalSetting: o.globalSetting,
		projectSetting: o.projectSetting,
		cliPaths: o.cliPaths,
		noExtensions: o.noExtensions,
		builtins: o.builtins ?? BUILTIN_EXTENSION_NAMES,
		disabledBuiltins: o.disabledBuiltins,
	});
	const warnings = diagnostics.map((d) => `Warning: ${d.message}`);
	if (sources.length === 0) return { errors: [], warnings };
	const [{ loadExtensions }, { ExtensionRunner }] = await Promise.all([
		import("../extensions/loader.js"),
		import("../extensions/runner.js"),
	]);
	const loaded = await loadExtensions({
		cwd: o.cwd,
		sources: sources.map((s) => (s.builtin ? { ...s, loadFactory: BUILTIN_EXTENSIONS[s.builtin] } : s)),
	});
	const runner = new ExtensionRunner(loaded.extensions, loaded.runtime);
	return { runner, errors: loaded.errors, warnings: [...warnings, ...runner.warnings.map((w) => `Warning: ${w}`)] };
}

/** Flag name → how it takes a value, for re-parsing the command line. */
export function flagKinds(flags: ExtensionFlag[]): Map<string, ExtensionFlagKind> {
	return new Map(flags.map((f) => [f.name, f.type]));
}

/** One line for stderr (print mode, interactive notices). */
export function formatExtensionError(e: ExtensionError): string {
	return `Extension error (${e.extensionPath}, ${e.event}): ${e.error}`;
}
