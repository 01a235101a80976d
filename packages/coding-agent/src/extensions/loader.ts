// Loads extension modules (TypeScript or JavaScript, no build step) with
// jiti and runs their factories. jiti and the host modules are imported only
// when there is something to load, so a run without extensions pays nothing.
// Each problem comes back as a LoadError naming the file (and the line when
// there is one); the caller decides whether it is fatal (print/json/rpc) or a
// notice (interactive). A factory gets `timeoutMs` to finish; one that never
// resolves is reported and left behind.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createExtensionAPI } from "./api.js";
import { satisfiesRange } from "./api-version.js";
import type { ExtensionSource } from "./discovery.js";
import { createExtensionRecord, ExtensionRuntime, type LoadedExtension } from "./extension.js";
import { EXTENSION_API_VERSION, type ExtensionFactory } from "./types.js";

export interface LoadError {
	path: string;
	/** One line, names the file (and line when known). */
	message: string;
	line?: number;
}

/** A source to load; built-ins (bundled with pi) bring their factory instead of a file. */
export interface LoadableSource extends ExtensionSource {
	loadFactory?: () => Promise<ExtensionFactory>;
}

export interface LoadExtensionsOptions {
	sources: LoadableSource[];
	/** The session's working directory (pi.exec's default cwd). */
	cwd: string;
	/** Shared state; a new one by default. */
	runtime?: ExtensionRuntime;
	/** How long a factory may take (default 10 s). */
	timeoutMs?: number;
	/** The API version the extensions are checked against (tests). */
	apiVersion?: string;
	/**
	 * Where transpiled TypeScript is kept between runs (the CLI passes
	 * `<agentDir>/cache/jiti`); without it every run transpiles again.
	 */
	cacheDir?: string;
}

export interface LoadExtensionsResult {
	extensions: LoadedExtension[];
	errors: LoadError[];
	runtime: ExtensionRuntime;
}

const DEFAULT_TIMEOUT_MS = 10_000;

type Jiti = { import(id: string): Promise<unknown> };
/** One jiti per transpile-cache directory (a process may run sessions of several agent dirs: SDK, tests). */
const jitis = new Map<string, Promise<Jiti>>();

/**
 * Makes the directory for jiti's transpile cache, private to the user (0700);
 * false (transpile every time) when it cannot be made. jiti's own default is
 * a shared `<tmp>/jiti`, where another local user could plant a "compiled"
 * file for an extension whose source they can read (an entry is keyed by the
 * path and the source's hash only). An entry is used only while the source
 * is unchanged.
 */
function privateCacheDir(dir: string | undefined): string | false {
	if (!dir) return false;
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		return dir;
	} catch {
		return false;
	}
}

/**
 * One jiti instance per cache directory, created on first use with the host
 * modules mapped in.
 */
function getJiti(cacheDir: string | undefined): Promise<Jiti> {
	const key = cacheDir ?? "";
	const existing = jitis.get(key);
	if (existing) return existing;
	const jitiPromise = (async () => {
		const [{ createJiti }, { loadHostModules }] = await Promise.all([import("jiti"), import("./host-modules.js")]);
		return createJiti(import.meta.url, {
			virtualModules: await loadHostModules(),
			moduleCache: false,
			fsCache: privateCacheDir(cacheDir),
			interopDefault: true,
		}) as Jiti;
	})();
	jitis.set(key, jitiPromise);
	return jitiPromise;
}

/** The line of `path` an error points at: from a parser's location, or the first stack frame in the file. */
function lineOf(error: unknown, path: string): number | undefined {
	const e = error as { loc?: { line?: number }; lineNumber?: number; stack?: string; message?: string };
	if (typeof e?.loc?.line === "number") return e.loc.line;
	if (typeof e?.lineNumber === "number") return e.lineNumber;
	const text = `${e?.message ?? ""}\n${e?.stack ?? ""}`;
	const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	const m = new RegExp(`${escaped}:(\\d+)`).exec(text) ?? /\((\d+):\d+\)/.exec(e?.message ?? "");
	return m ? Number(m[1]) : undefined;
}

function describe(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	return error.message.split("\n")[0] ?? error.message;
}

function fail(path: string, what: string, error?: unknown): LoadError {
	const line = error === undefined ? undefined : lineOf(error, path);
	const where = line === undefined ? path : `${path}:${line}`;
	return { path, line, message: `Extension ${where}: ${what}${error === undefined ? "" : `: ${describe(error)}`}` };
}

/** `engines.pi` from the package.json next to the extension's entry, if any. */
function declaredRange(entry: string): string | undefined {
	const manifest = join(dirname(entry), "package.json");
	if (!existsSync(manifest)) return undefined;
	try {
		const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { engines?: { pi?: unknown } };
		return typeof pkg.engines?.pi === "string" ? pkg.engines.pi : undefined;
	} catch {
		return undefined;
	}
}

function checkRange(path: string, range: string | undefined, where: string, apiVersion: string): LoadError | undefined {
	if (range === undefined) return undefined;
	const ok = satisfiesRange(apiVersion, range);
	if (ok === true) return undefined;
	const reason =
		ok === undefined
			? `declares an API range pi cannot read (${where} "${range}")`
			: `needs extension API ${range} (${where}), but this pi provides API ${apiVersion}`;
	return { path, message: `Extension ${path} ${reason}; it was not loaded.` };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
		timer = setTimeout(() => resolve(TIMED_OUT), ms);
		timer.unref();
	});
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
const TIMED_OUT = Symbol("timed out");

/** Loads one module and runs its factory into a fresh record. */
export async function loadExtension(
	source: LoadableSource,
	runtime: ExtensionRuntime,
	o: { cwd: string; timeoutMs: number; apiVersion: string; cacheDir?: string },
): Promise<{ extension?: LoadedExtension; error?: LoadError }> {
	const { path } = source;
	if (source.loadFactory) return runFactory(source, runtime, o, await source.loadFactory());
	if (!existsSync(path)) return { error: { path, message: `Extension file not found: ${path}` } };
	const rangeError = checkRange(path, declaredRange(path), "engines.pi in its package.json", o.apiVersion);
	if (rangeError) return { error: rangeError };

	let mod: Record<string, unknown>;
	try {
		const jiti = await getJiti(o.cacheDir);
		mod = (await jiti.import(path)) as Record<string, unknown>;
	} catch (error) {
		return { error: fail(path, "could not be loaded", error) };
	}
	const exported = typeof mod?.piApi === "string" ? (mod.piApi as string) : undefined;
	const exportError = checkRange(path, exported, "its piApi export", o.apiVersion);
	if (exportError) return { error: exportError };
	const factory = (typeof mod?.default === "function" ? mod.default : typeof mod === "function" ? mod : undefined) as
		| ExtensionFactory
		| undefined;
	if (!factory) return { error: { path, message: `Extension ${path} does not export a default function.` } };
	return runFactory(source, runtime, o, factory);
}

/** Runs a factory into a fresh extension record, with the time limit. */
async function runFactory(
	source: LoadableSource,
	runtime: ExtensionRuntime,
	o: { cwd: string; timeoutMs: number },
	factory: ExtensionFactory,
): Promise<{ extension?: LoadedExtension; error?: LoadError }> {
	const { path } = source;
	const extension = createExtensionRecord(path, path, source.sourceInfo);
	const api = createExtensionAPI(extension, runtime, { cwd: o.cwd });
	try {
		const result = await withTimeout(
			Promise.resolve().then(() => factory(api)),
			o.timeoutMs,
		);
		if (result === TIMED_OUT) {
			return {
				error: {
					path,
					message: `Extension ${path}: its factory did not finish within ${Math.round(o.timeoutMs / 1000)} s; it was not loaded.`,
				},
			};
		}
	} catch (error) {
		return { error: fail(path, "its factory threw", error) };
	}
	return { extension };
}

/** Loads every source in order. Problems do not stop the others from loading. */
export async function loadExtensions(o: LoadExtensionsOptions): Promise<LoadExtensionsResult> {
	const runtime = o.runtime ?? new ExtensionRuntime();
	const extensions: LoadedExtension[] = [];
	const errors: LoadError[] = [];
	const settings = {
		cwd: o.cwd,
		timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		apiVersion: o.apiVersion ?? EXTENSION_API_VERSION,
		cacheDir: o.cacheDir,
	};
	for (const source of o.sources) {
		const { extension, error } = await loadExtension(source, runtime, settings);
		if (extension) extensions.push(extension);
		if (error) errors.push(error);
	}
	return { extensions, errors, runtime };
}
