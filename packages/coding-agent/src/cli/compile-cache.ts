// Loads the CLI's CommonJS bundle (dist/cli-main.cjs) with V8's compiled code
// kept on disk between runs (issue 25). Compiling the bundle is most of a short
// run's start-up: Node >= 22.1 has a cache for that (module.enableCompileCache);
// Node 20 has none, so there the bundle is compiled through vm.Script with V8's
// cached data, which is what Node's own cache does underneath.
//
// V8 checks only the source's length, its flags and its version against cached
// data, so a file is used only when its header names this exact bundle (the
// build id embedded at build time, size, mtime), this Node version, arch and
// execArgv. Every read or write problem (read-only or full disk, a directory
// that is not ours) only means "no cache"; a file V8 rejects is rewritten.
//
// Cached data holds the functions the run that wrote it compiled, and all of it
// is deserialized by every run that uses it. So there is one file per kind of
// run (the app, print/json, rpc): a `-p` run's cache lacks the app's code (an
// app started with it compiled the TUI lazily, every time, since a usable full
// cache is never rewritten), and the app's cache would make every `-p` run
// deserialize the TUI.
import {
	closeSync,
	fstatSync,
	mkdirSync,
	openSync,
	readFileSync,
	readSync,
	renameSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isatty } from "node:tty";
import vm from "node:vm";

/** What the bundle exports: the `pi` command. */
export interface CliBundle {
	main(argv: string[]): Promise<number>;
}

/**
 * The cache directory: `PI_COMPILE_CACHE` (a path; `0`/`off`/`false` turn the cache off, as does
 * Node's own NODE_DISABLE_COMPILE_CACHE=1), else a directory of this user's in the OS temp dir
 * (where Node keeps its own compile cache by default). Undefined: no cache.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
	const setting = env.PI_COMPILE_CACHE?.trim();
	if (env.NODE_DISABLE_COMPILE_CACHE === "1" || /^(0|off|false|no)$/i.test(setting ?? "")) return undefined;
	if (setting) return setting;
	return join(tmpdir(), `pi-compile-cache-${process.getuid?.() ?? "user"}`);
}

/** The kinds of run that get a code cache of their own: each runs mostly code of its own. */
export type RunKind = "interactive" | "print" | "rpc";

/**
 * Which kind of run `argv` starts, told from the arguments alone (the bundle is not compiled yet),
 * as the CLI decides it (args.ts resolveMode): `--mode rpc`; `--mode json`, `-p`/`--print` or a
 * stdin that is not a terminal print; otherwise the app (interactive). A wrong guess costs only speed.
 */
export function runKind(argv: readonly string[], stdinIsTTY: boolean): RunKind {
	let mode: string | undefined;
	let print = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === "--") break;
		if (arg === "-p" || arg === "--print") print = true;
		else if (arg === "--mode") mode = argv[++i];
	}
	if (mode === "rpc") return "rpc";
	return mode === "json" || print || !stdinIsTTY ? "print" : "interactive";
}

/** For a start of the app (the interactive kind of run): the cache directory, made and checked private. */
export function appStartCacheDir(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
	if (runKind(argv, isatty(0)) !== "interactive") return undefined;
	const dir = compileCacheDir(env);
	return dir !== undefined && privateDir(dir) ? dir : undefined;
}

/**
 * Makes `dir` (0700) and checks it is a directory of this user that nobody
 * else can write: cached data is code this process runs, so a directory in a
 * shared temp dir that another user made (or can write to) is not used.
 */
function privateDir(dir: string): boolean {
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const fd = openSync(dir, "r");
		try {
			const st = fstatSync(fd);
			const uid = process.getuid?.();
			return st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
		} finally {
			closeSync(fd);
		}
	} catch {
		return false;
	}
}

/**
 * The first line of a cache file: which bundle, Node and flags its code was compiled for, then
 * whether the run that wrote it ran a session ("full") or stopped early ("part": --help, a
 * subcommand), whose cache lacks most of a session's functions.
 */
function cacheKey(buildId: string, size: number, mtimeMs: number): string {
	return `${buildId} ${size} ${mtimeMs} ${process.version} ${process.arch} ${JSON.stringify(process.execArgv)}`;
}
const header = (key: string, full: boolean) => `pi-code-cache 2 ${key} ${full ? "full" : "part"}\n`;

/** The cached data of a file made for `key`, and whether a full run made it. */
function readCache(file: string, key: string): { data: Buffer; full: boolean } | undefined {
	try {
		const data = readFileSync(file);
		for (const full of [true, false]) {
			const head = Buffer.from(header(key, full));
			if (data.length > head.length && data.subarray(0, head.length).equals(head)) {
				return { data: data.subarray(head.length), full };
			}
		}
		return undefined;
	} catch {
		return undefined;
	}
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
function writeCache(file: string, header: string, data: Buffer): void {
	const tmp = `${file}.${process.pid}.tmp`;
	try {
		writeFileSync(tmp, Buffer.concat([Buffer.from(header), data]), { mode: 0o600 });
		renameSync(tmp, file);
	} catch {
		rmSync(tmp, { force: true });
	}
}

/**
 * The bundle's source inside CommonJS's function wrapper, read into one buffer
 * and decoded once: concatenating the wrapper to a read string (Module.wrap)
 * makes a second 3 MB copy that lives until the next full GC, and counts in
 * the run's peak memory. The build makes the bundle pure ASCII, so latin1 is
 * exact, and V8 holds it as a one-byte string.
 */
function wrappedSource(fd: number, size: number): string {
	const [head, tail] = (module as unknown as { wrapper: [string, string] }).wrapper;
	const buf = Buffer.allocUnsafe(head.length + size + tail.length);
	buf.write(head, 0, "latin1");
	let at = head.length;
	for (let n = 1; n > 0 && at < head.length + size; at += n) n = readSync(fd, buf, at, head.length + size - at, null);
	buf.write(tail, at, "latin1");
	return buf.toString("latin1", 0, at + tail.length);
}

/** What the CommonJS wrapper of a file of the CLI is called with. */
type Wrapper = (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;

/** Node 20: compiles `file` with V8 cached data from `cacheFile`, writing it at exit when missing, rejected or partial. */
function compileWithCachedData(file: string, buildId: string, cacheFile: string | undefined): Wrapper {
	const fd = openSync(file, "r");
	let source: string;
	let st: ReturnType<typeof fstatSync>;
	try {
		st = fstatSync(fd);
		source = wrappedSource(fd, st.size);
	} finally {
		closeSync(fd);
	}
	const key = cacheKey(buildId, st.size, st.mtimeMs);
	const cached = cacheFile ? readCache(cacheFile, key) : undefined;
	const script = new vm.Script(source, {
		filename: file,
		cachedData: cached?.data,
	});
	const usable = cached !== undefined && script.cachedDataRejected !== true;
	const wasFull = cached?.full === true;
	if (cacheFile && !(usable && wasFull)) {
		// At exit the cache holds the code of every function this run compiled, not just the top level.
		// A usable cache from a run that stopped early is replaced by the first run that ran a session
		// (main.ts sets __pi_full_run before it starts one).
		process.once("exit", () => {
			const full = (globalThis as { __pi_full_run?: boolean }).__pi_full_run === true;
			if (usable && !full) return;
			try {
				writeCache(cacheFile, header(key, full), script.createCachedData());
				// The one file of earlier builds (before a file per kind of run): never read again.
				rmSync(join(dirname(cacheFile), `cli-main-${process.arch}.cache`), { force: true });
			} catch {
				// No cache this time.
			}
		});
	}
	return script.runInThisContext() as Wrapper;
}

/**
 * Node built-ins that cost a lot to load (callgrind, on top of node:http: node:crypto ~26M
 * instructions, node:child_process ~12M) and that many modules import at their top for a call
 * some runs never make (a hash, a random name, a git or shell process). Their require() in the
 * CLI's files answers a stand-in that loads the module on the first use of any of its exports.
 */
const LAZY_BUILTINS = new Set(["node:crypto", "crypto", "node:child_process", "child_process"]);
const lazyBuiltins = new Map<string, object>();

/** A stand-in for built-in `id`: every property read (and key listing) goes to the module, loaded then. */
function lazyBuiltin(id: string, nodeRequire: NodeJS.Require): object {
	let stand = lazyBuiltins.get(id);
	if (stand === undefined) {
		let loaded: Record<string | symbol, unknown> | undefined;
		const real = () => {
			loaded ??= nodeRequire(id) as Record<string | symbol, unknown>;
			return loaded;
		};
		stand = new Proxy(
			{},
			{
				get: (_, key) => real()[key],
				has: (_, key) => key in real(),
				ownKeys: () => Reflect.ownKeys(real()),
				// Reported configurable: the stand-in's own target has none of these properties.
				getOwnPropertyDescriptor: (_, key) => {
					const desc = Reflect.getOwnPropertyDescriptor(real(), key);
					return desc && { ...desc, configurable: true };
				},
			},
		);
		lazyBuiltins.set(id, stand);
	}
	return stand;
}

/** What each file of the CLI exports: the namespace of each of its modules that code in other files imports. */
interface CliFile {
	__pi_mod(id: string): unknown;
}

/**
 * The CLI's files (scripts/build.mjs splitCli): dist/cli-main.cjs, the start path, and one file per
 * part only some runs use (cli-<part>.cjs: the app and the TUI, rpc, the subcommands, export, each
 * provider adapter...). An import of a module another file holds is built as
 * "pi-mod:<file>:<module>": the file is loaded on first use (once; synchronously, so a static import
 * runs when the importing module is initialised, as in one file) and its __pi_mod hands out the
 * module's namespace. Each file has a code cache of its own per kind of run.
 */
class CliFiles {
	private readonly loaded = new Map<string, CliFile>();

	constructor(
		private readonly dir: string,
		private readonly buildId: string,
		/** Node 20's vm cache: the directory and the kind of run; undefined: Node compiles (its own cache, or none). */
		private readonly vmCache: { dir: string | undefined; kind: RunKind } | undefined,
	) {}

	/** The exports of file `name` ("main": cli-main.cjs), loaded on first use. */
	load(name: string): CliFile {
		let exports = this.loaded.get(name);
		if (exports === undefined) {
			exports = this.run(name);
			this.loaded.set(name, exports);
		}
		return exports;
	}

	/** A "pi-mod:<file>:<module>" specifier's namespace. */
	module(specifier: string): unknown {
		const at = specifier.indexOf(":", 7);
		return this.load(specifier.slice(7, at)).__pi_mod(specifier.slice(at + 1));
	}

	/**
	 * The require() of a file: "pi-mod:" specifiers here, a few of Node's built-ins on first use
	 * (lazyBuiltin), everything else Node's, relative to the file.
	 */
	private requireFor(file: string): NodeJS.Require {
		const nodeRequire = createRequire(file);
		const require = ((id: string) =>
			id.startsWith("pi-mod:")
				? this.module(id)
				: LAZY_BUILTINS.has(id)
					? lazyBuiltin(id, nodeRequire)
					: nodeRequire(id)) as unknown as NodeJS.Require;
		return Object.assign(require, {
			resolve: nodeRequire.resolve,
			cache: nodeRequire.cache,
			main: nodeRequire.main,
			extensions: nodeRequire.extensions,
		});
	}

	private run(name: string): CliFile {
		const file = join(this.dir, `cli-${name}.cjs`);
		const require = this.requireFor(file);
		if (this.vmCache === undefined) {
			// Node's own loader, so that its compile cache (Node >= 22.1) and --enable-source-maps apply.
			const Module = module as unknown as new (
				id: string,
			) => {
				filename: string;
				paths: string[];
				exports: CliFile;
				loaded: boolean;
				require(id: string): unknown;
				_compile(source: string, filename: string): void;
			};
			const mod = new Module(file);
			mod.filename = file;
			mod.paths = (module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(this.dir);
			mod.require = require;
			mod._compile(readFileSync(file, "latin1"), file);
			mod.loaded = true;
			return mod.exports;
		}
		const { dir, kind } = this.vmCache;
		const cacheFile = dir ? join(dir, `cli-${name}-${kind}-${process.arch}.cache`) : undefined;
		const wrapper = compileWithCachedData(file, this.buildId, cacheFile);
		const mod = { exports: {} as CliFile, filename: file, id: file, loaded: false };
		wrapper.call(mod.exports, mod.exports, require, mod, file, this.dir);
		mod.loaded = true;
		return mod.exports;
	}
}

/**
 * Loads the CLI (`file`: dist/cli-main.cjs, the other files next to it) to run `argv`: on Node >= 22.1
 * with Node's compile cache (kept in the same directory), on Node 20 through vm.Script with the
 * cached data of this kind of run (runKind), one cache file per file of the CLI; without a cache
 * directory (turned off) or with --enable-source-maps, compiled by Node without a cache.
 */
export function loadCliBundle(
	file: string,
	buildId: string,
	argv: readonly string[],
	env: NodeJS.ProcessEnv = process.env,
): CliBundle {
	const cacheDir = compileCacheDir(env);
	const enable = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
	// With --enable-source-maps, stack traces map to the sources only for code Node's loader compiled itself.
	const plain = cacheDir === undefined || process.sourceMapsEnabled;
	const usableDir = plain ? undefined : privateDir(cacheDir) ? cacheDir : undefined;
	if (enable && usableDir !== undefined) enable(usableDir);
	const files = new CliFiles(
		dirname(file),
		buildId,
		enable || plain ? undefined : { dir: usableDir, kind: runKind(argv, isatty(0)) },
	);
	// Compiled from cached data, a script's own import() has lost its loader (Node 20, V8 11.3): the
	// build routes every import() of the CLI's files through this one, made in this file (dist/cli.js,
	// next to them, so specifiers resolve the same); an import() of a module another file holds
	// ("pi-mod:") loads that file.
	(globalThis as { __pi_dynamic_import?: unknown }).__pi_dynamic_import = (
		specifier: string,
		options?: ImportCallOptions,
	) =>
		specifier.startsWith("pi-mod:")
			? Promise.resolve().then(() => files.module(specifier))
			: import(specifier, options);
	return files.load("main") as unknown as CliBundle;
}
