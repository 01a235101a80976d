// Builds every package with esbuild. Libraries keep third-party imports external;
// the CLI bundles the workspace packages (from source) so start-up reads few files,
// and code splitting keeps lazily imported modules (provider adapters, TUI) in
// their own chunks so they load only when used.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { init as lexerInit, parse as lexModule } from "es-module-lexer";
import { build, transformSync } from "esbuild";

// `import text from "./file?raw"` inlines a file's contents as a string (the
// HTML export's template, styles and page script); Vite reads the same form in tests.
const rawText = {
	name: "raw-text",
	setup(b) {
		b.onResolve({ filter: /\?raw$/ }, (args) => ({
			path: resolve(args.resolveDir, args.path.slice(0, -"?raw".length)),
			namespace: "raw-text",
		}));
		b.onLoad({ filter: /.*/, namespace: "raw-text" }, (args) => ({
			contents: readFileSync(args.path, "utf8"),
			loader: "text",
		}));
	},
};

const common = {
	platform: "node",
	format: "esm",
	target: "node20",
	bundle: true,
	splitting: true,
	sourcemap: "linked",
	logLevel: "warning",
	legalComments: "none",
	conditions: ["development"],
	plugins: [rawText],
};

// Imported by a library's code but shipped in another package: stay external.
const workspace = ["@pi/ai", "@pi/agent-core", "@pi/tui", "@pi/coding-agent", "@pi/fleet"];

const libraries = [
	{ dir: "packages/ai", entries: ["src/index.ts", "src/internal.ts"] },
	// validation: TypeBox's compiler behind it, kept out of the index so importing the loop does not load it.
	{ dir: "packages/agent", entries: ["src/index.ts", "src/validation.ts"] },
	// text, terminal-background: small parts for code outside the app (tools' renderers; the CLI's early OSC 11 query).
	{ dir: "packages/tui", entries: ["src/index.ts", "src/text.ts", "src/terminal-background.ts"] },
	// The search and codemode workers are loaded by file name (worker_threads), so each is an entry of its own at the dist root.
	// ES modules as .mjs: dist/ is a CommonJS scope (see below) so that the `pi` bin, dist/cli.js, starts as CommonJS.
	{
		dir: "packages/coding-agent",
		ext: ".mjs",
		entries: {
			index: "src/index.ts",
			internal: "src/internal.ts",
			"search-worker": "src/tools/search/search-worker.ts",
			"codemode-worker": "src/builtins/codemode/sandbox/worker.ts",
		},
	},
	// Loaded by `pi fleet …` at run time (an optional package above coding-agent); the child
	// extension is loaded by file name into each run's `pi --mode rpc`.
	{
		dir: "packages/fleet",
		entries: { index: "src/index.ts", "child-extension": "src/child-extension.ts" },
	},
];

for (const lib of libraries) {
	rmSync(`${lib.dir}/dist`, { recursive: true, force: true });
	await build({
		...common,
		entryPoints: Array.isArray(lib.entries)
			? lib.entries.map((e) => `${lib.dir}/${e}`)
			: Object.fromEntries(Object.entries(lib.entries).map(([name, e]) => [name, `${lib.dir}/${e}`])),
		outdir: `${lib.dir}/dist`,
		...(lib.ext ? { outExtension: { ".js": lib.ext } } : {}),
		packages: "external",
		external: workspace,
	});
}

// The `pi` executable: workspace code bundled in, npm dependencies external,
// except the pure-JS ones on the start-up path: resolving and reading hundreds
// of small files (typebox alone has ~700) costs more than parsing one chunk.
const bareImport = /^[^./]/;
// get-east-asian-width, marked and Mistral's config constants are ESM-only: imported statically,
// the CommonJS bundle below must carry them (see assertRequirable).
const bundledDeps = [
	"typebox",
	"openai",
	"diff",
	"picomatch",
	"ignore",
	"partial-json",
	"get-east-asian-width",
	"marked",
	"@mistralai/mistralai/lib/config.js",
];
const isBundledDep = (path) => bundledDeps.some((d) => path === d || path.startsWith(`${d}/`));
const externalizeNpmDeps = {
	name: "externalize-npm-deps",
	setup(b) {
		b.onResolve({ filter: bareImport }, (args) =>
			args.path.startsWith("@pi/") || args.path.startsWith("node:") || isBundledDep(args.path)
				? undefined
				: { path: args.path, external: true },
		);
	},
};
const cliDist = "packages/coding-agent/dist";
// The bin must stay dist/cli.js, and an ES module entry costs Node ~25M instructions more than a
// CommonJS one (its loader starts): `pi --version` would be ~1.05x `node -e 0`. So dist/ is a
// CommonJS scope of its own; the package's ES modules there are .mjs (exports point at them).
writeFileSync(`${cliDist}/package.json`, `${JSON.stringify({ type: "commonjs" })}\n`);

// The search and codemode workers run in worker threads, loaded by file name from the dist root: ES modules.
await build({
	...common,
	entryPoints: {
		"search-worker": "packages/coding-agent/src/tools/search/search-worker.ts",
		"codemode-worker": "packages/coding-agent/src/builtins/codemode/sandbox/worker.ts",
	},
	outdir: cliDist,
	outExtension: { ".js": ".mjs" },
	entryNames: "[name]",
	chunkNames: "chunks/[name]-[hash]",
	plugins: [rawText, externalizeNpmDeps],
});

// The CLI itself (issue 25): CommonJS files, so that Node 20 can compile them through vm.Script
// with V8's cached data (it has no compile cache for ES modules) and Node 22 through its own
// compile cache. A run deserialises the cached code of every file it loads, and the cost is set by
// the file's size, not by what the run uses (~40M instructions for one 3.3 MB file). So the CLI is
// split (splitCli below): dist/cli-main.cjs, the start path every run needs, and one file per part
// used by some runs only (cli-<part>.cjs: the app and the TUI, rpc, the subcommands, export, the
// login flows, each provider adapter...), loaded on first use through the same cache
// (compile-cache.ts). Lazily imported code stays lazy inside each file (esbuild wraps each such
// module in a function run on first import()). import.meta.url is the file's URL, so files found
// next to it (the workers, jiti's base) resolve as from the ESM chunks before.
const cliMain = "packages/coding-agent/src/cli/main.ts";
// Modules several parts share but the start path does not, fewer bytes than this in all, go to cli-main.cjs.
const SHARED_MIN_BYTES = 32 * 1024;
const cliShared = {
	...common,
	format: "cjs",
	splitting: false,
	define: { "import.meta.url": "__pi_import_meta_url" },
};
const graph = await build({
	...cliShared,
	entryPoints: { "cli-main": cliMain },
	outdir: cliDist,
	write: false,
	sourcemap: false,
	metafile: true,
	plugins: [rawText, externalizeNpmDeps],
});
const split = splitCli(graph.metafile, cliMain, cliParts());
const exported = await exportNames([...split.registry.values()].flat());
const cliFiles = [];
for (const name of split.bundles) {
	const out = `${cliDist}/cli-${name}.cjs`;
	const result = await build({
		...cliShared,
		metafile: true,
		entryPoints: { [`cli-${name}`]: `pi-split-entry:${name}` },
		outdir: cliDist,
		outExtension: { ".js": ".cjs" },
		// One line, before esbuild's own "use strict" (which a banner would turn into a plain expression):
		// the bundle runs in strict mode like the ES modules it is made of. __imp_ is import(), see
		// routeDynamicImports; __pi_nss holds the module namespaces other files use, __piESM see splitPlugin.
		banner: {
			js: '"use strict"; const __pi_import_meta_url = require("node:url").pathToFileURL(__filename).href; const __imp_ = globalThis.__pi_dynamic_import ?? ((specifier, options) => import(specifier, options)); const __pi_nss = Object.create(null); const __piESM = (m) => m;',
		},
		plugins: [splitPlugin(split, name, exported), rawText, externalizeNpmDeps],
	});
	assertRequirable(result.metafile);
	const inputs = Object.keys(Object.values(result.metafile.outputs).find((o) => o.entryPoint)?.inputs ?? {});
	const strays = inputs.filter((i) => split.owner.has(i) && split.owner.get(i) !== name);
	if (strays.length > 0) throw new Error(`${out}: holds modules of other files: ${strays.slice(0, 5).join(", ")}`);
	asciiOnly(out);
	await routeDynamicImports(out);
	foreignImportsAsIs(out);
	wrappersWithoutMaps(out);
	cliFiles.push(out);
}

// dist/cli.js, the bin: answers --version by itself, else loads the bundle through the code cache,
// keyed (among others) by a hash of all the CLI's files, embedded here.
const bundleHash = createHash("sha256");
for (const file of cliFiles) bundleHash.update(readFileSync(file));
const bundleId = bundleHash.digest("hex").slice(0, 16);
await build({
	...common,
	format: "cjs",
	splitting: false,
	entryPoints: { cli: "packages/coding-agent/src/cli/cli.ts" },
	outdir: cliDist,
	define: {
		__PI_VERSION__: JSON.stringify(JSON.parse(readFileSync("packages/coding-agent/package.json", "utf8")).version),
		__PI_BUNDLE_ID__: JSON.stringify(bundleId),
		"import.meta.dirname": "__dirname",
	},
	// compile-cache.ts's import(specifier) is meant to stay a run-time import().
	logOverride: { "unsupported-dynamic-import": "silent" },
	banner: { js: "#!/usr/bin/env node" },
});
chmodSync(`${cliDist}/cli.js`, 0o755);

// dist/cli-early-frame.cjs: the early frame (src/cli/early-frame.ts, docs/startup.md), required by cli.js
// for app starts only, so that `pi --version` compiles none of it.
await build({
	...common,
	format: "cjs",
	splitting: false,
	entryPoints: { "cli-early-frame": "packages/coding-agent/src/cli/early-frame.ts" },
	outdir: cliDist,
	outExtension: { ".js": ".cjs" },
});
wrappersWithoutMaps(`${cliDist}/cli-early-frame.cjs`);

/**
 * The parts of the CLI that only some runs use, each named by the modules a run imports to use it
 * (their import() from the start path). Every module belongs to one file: to dist/cli-main.cjs when
 * the start path (main.ts) reaches it without entering a part; else to the one part that reaches it;
 * a module several parts reach but the start path does not goes to a file of its own named after
 * them ("a+b"), or to cli-main.cjs when small.
 */
function cliParts() {
	const agent = (...files) => files.map((f) => `packages/coding-agent/src/${f}`);
	const adapter = (...names) => names.map((n) => `packages/ai/src/adapters/${n}.ts`);
	return {
		// The TUI: the app, the MCP menu and the extension host (extensions' UIs) use it.
		tui: ["packages/tui/src/index.ts"],
		interactive: agent(
			"modes/interactive/interactive-mode.ts",
			"modes/interactive/trust-prompt.ts",
			"modes/interactive/package-config.ts",
		),
		rpc: agent("modes/rpc/rpc-cli.ts"),
		commands: agent(
			"cli/commands/packages.ts",
			"cli/commands/config.ts",
			"cli/commands/mcp.ts",
			"cli/commands/auth.ts",
			"cli/commands/models.ts",
			"cli/commands/fleet.ts",
		),
		export: agent("cli/export-command.ts", "export/live-session.ts", "export/import-session.ts", "export/share.ts"),
		"mcp-ui": agent("builtins/mcp/menu.ts", "builtins/mcp/oauth.ts"),
		// MCP servers' connections (only with servers configured), codemode's script sandbox.
		"mcp-connection": agent("builtins/mcp/connection.ts"),
		"codemode-sandbox": agent("builtins/codemode/sandbox/run-script.ts"),
		// TypeBox's compiler and value engine, behind the tool-argument check's slow path.
		validation: ["packages/agent/src/validation.ts"],
		"extension-host": agent("extensions/host-modules.ts"),
		login: agent("auth/builtin-flows.ts"),
		"openai-completions": adapter("openai-completions"),
		// The three share the openai SDK.
		"openai-responses": adapter("openai-responses", "openai-codex-responses", "azure-openai-responses"),
		anthropic: adapter("anthropic-messages"),
		google: adapter("google-generative-ai", "google-vertex"),
		"llama-cpp": adapter("llama-cpp"),
		mistral: adapter("mistral-conversations"),
		bedrock: adapter("bedrock-converse-stream"),
	};
}

/**
 * Assigns each module of the CLI's graph (an esbuild metafile of main.ts) to a file: `owner` maps a
 * module (its metafile path) to a file name ("main" for cli-main.cjs, else a part's name), `registry`
 * lists per file the modules that code in other files imports (their namespaces are handed out by
 * the file's __pi_mod, see splitPlugin), `bundles` the files, "main" first.
 */
function splitCli(metafile, main, parts) {
	const edges = new Map();
	for (const [id, input] of Object.entries(metafile.inputs)) {
		if (!id.startsWith("raw-text:")) {
			edges.set(
				id,
				input.imports.filter((i) => !i.external && !i.path.startsWith("raw-text:")).map((i) => i.path),
			);
		}
	}
	const bytes = new Map(
		Object.entries(Object.values(metafile.outputs)[0].inputs).map(([k, v]) => [k, v.bytesInOutput]),
	);
	const partOf = new Map();
	for (const [name, entries] of Object.entries(parts)) {
		for (const e of entries) {
			if (!edges.has(e)) throw new Error(`CLI part ${name}: ${e} is not in the CLI's module graph`);
			partOf.set(e, name);
		}
	}
	const reach = (starts, stop) => {
		const seen = new Set();
		const todo = [...starts];
		while (todo.length > 0) {
			const id = todo.pop();
			if (seen.has(id)) continue;
			seen.add(id);
			for (const next of edges.get(id) ?? []) if (!stop(next)) todo.push(next);
		}
		return seen;
	};
	const core = reach([main], (id) => partOf.has(id));
	for (const [entry, name] of partOf)
		if (core.has(entry)) throw new Error(`CLI part ${name}: ${entry} is on the start path`);
	// Which parts reach each module that is not on the start path.
	const reachedBy = new Map();
	for (const [name, entries] of Object.entries(parts)) {
		for (const id of reach(entries, (next) => partOf.has(next) && partOf.get(next) !== name)) {
			if (core.has(id)) continue;
			if (!reachedBy.has(id)) reachedBy.set(id, []);
			reachedBy.get(id).push(name);
		}
	}
	const groups = new Map();
	for (const [id, names] of reachedBy) {
		const key = names.sort().join("+");
		if (!groups.has(key)) groups.set(key, []);
		groups.get(key).push(id);
	}
	const owner = new Map([...core].map((id) => [id, "main"]));
	for (const [key, ids] of groups) {
		const small = key.includes("+") && ids.reduce((n, id) => n + (bytes.get(id) ?? 0), 0) < SHARED_MIN_BYTES;
		for (const id of ids) owner.set(id, small ? "main" : key);
	}
	const registry = new Map();
	for (const [id, targets] of edges) {
		for (const target of targets) {
			const file = owner.get(target);
			if (file === owner.get(id)) continue;
			if (!registry.has(file)) registry.set(file, []);
			if (!registry.get(file).includes(target)) registry.get(file).push(target);
		}
	}
	const bundles = ["main", ...[...new Set(owner.values())].filter((b) => b !== "main").sort()];
	return { owner, registry, bundles };
}

/** The export names of each module in `ids` (metafile paths), from an esbuild build that writes nothing. */
async function exportNames(ids) {
	const result = await build({
		...common,
		entryPoints: ids,
		outdir: "packages/coding-agent/node_modules/.cache/cli-exports",
		write: false,
		sourcemap: false,
		metafile: true,
		plugins: [rawText, externalizeNpmDeps],
	});
	const names = new Map();
	for (const [file, output] of Object.entries(result.metafile.outputs)) {
		if (!output.entryPoint) continue;
		const text = result.outputFiles.find((f) => f.path === resolve(file))?.text ?? "";
		if (/^export \* from /m.test(text))
			throw new Error(`${output.entryPoint}: re-exports a package not bundled (export *), its names are unknown`);
		names.set(output.entryPoint, output.exports);
	}
	for (const id of ids) if (!names.has(id)) throw new Error(`no exports found for ${id}`);
	return names;
}

/**
 * The esbuild plugin building the CLI file `name`: its entry is generated (pi-split-entry:), and an
 * import of a module that another file holds becomes an external "pi-mod:<file>:<module>", which
 * compile-cache.ts resolves by loading that file (once, through its code cache) and asking its
 * __pi_mod for the module's namespace. __pi_mod(module) initialises the module (esbuild's lazy
 * wrapper, as an import() in one file would) through a generated shim (pi-split-shim:) that
 * imports the module's exports by name and makes an object of getters over them (live bindings);
 * a namespace import (import * as) would make esbuild build every such namespace when the file
 * loads. The entry of cli-main.cjs also re-exports main.ts.
 */
function splitPlugin(split, name, exported) {
	const root = process.cwd();
	const ident = (s) => /^[A-Za-z_$][\w$]*$/.test(s);
	return {
		name: "pi-split",
		setup(b) {
			b.onResolve({ filter: /^pi-split-(entry|shim):/ }, (args) => {
				const at = args.path.indexOf(":");
				return { path: args.path.slice(at + 1), namespace: args.path.slice(0, at) };
			});
			b.onLoad({ filter: /.*/, namespace: "pi-split-entry" }, () => {
				const ids = split.registry.get(name) ?? [];
				const cases = ids.map(
					(id) => `\t\tcase ${JSON.stringify(id)}: require(${JSON.stringify(`pi-split-shim:${id}`)}); break;`,
				);
				return {
					contents: [
						name === "main" ? `export * from ${JSON.stringify(`./${cliMain}`)};` : "",
						"export function __pi_mod(id) {",
						"\tswitch (id) {",
						...cases,
						`\t\tdefault: throw new Error("pi: no module " + id + " in cli-${name}.cjs");`,
						"\t}",
						"\treturn __pi_nss[id];",
						"}",
					].join("\n"),
					resolveDir: root,
					loader: "js",
				};
			});
			b.onLoad({ filter: /.*/, namespace: "pi-split-shim" }, (args) => {
				const names = exported.get(args.path) ?? [];
				const local = names.map((_, i) => `$${i}`);
				const key = (n) => (ident(n) ? n : JSON.stringify(n));
				return {
					contents: [
						names.length > 0
							? `import { ${names.map((n, i) => `${key(n)} as ${local[i]}`).join(", ")} } from ${JSON.stringify(`./${args.path}`)};`
							: `import ${JSON.stringify(`./${args.path}`)};`,
						`__pi_nss[${JSON.stringify(args.path)}] = { __proto__: null, ${names.map((n, i) => `get ${key(n)}() { return ${local[i]}; }`).join(", ")} };`,
					].join("\n"),
					resolveDir: root,
					loader: "js",
				};
			});
			b.onResolve({ filter: /.*/ }, async (args) => {
				if (args.pluginData?.piSplit || args.kind === "entry-point") return undefined;
				const r = await b.resolve(args.path, {
					kind: args.kind,
					importer: args.importer,
					resolveDir: args.resolveDir,
					pluginData: { piSplit: true },
				});
				if (r.errors.length > 0) return { errors: r.errors };
				if (r.external || r.namespace !== "file") {
					return { path: r.path, external: r.external, namespace: r.namespace, pluginData: r.pluginData };
				}
				const id = relative(root, r.path).split(sep).join("/");
				const file = split.owner.get(id);
				if (file === undefined)
					throw new Error(`${id} (imported by ${args.importer}) is not in the CLI's module graph`);
				if (file === name) return { path: r.path, sideEffects: r.sideEffects };
				return { path: `pi-mod:${file}:${id}`, external: true };
			});
		},
	};
}

/**
 * esbuild wraps a default or namespace import of an external module in __toESM(require(x), 1),
 * which in Node's mode makes `default` the whole module object. A "pi-mod:" import is a namespace
 * of our own, default included: its __toESM becomes __piESM (the banner's identity function, same
 * length, so columns and the source map stay right).
 */
function foreignImportsAsIs(file) {
	const text = readFileSync(file, "latin1");
	writeFileSync(file, text.replaceAll('__toESM(require("pi-mod:', '__piESM(require("pi-mod:'), "latin1");
}

/**
 * esbuild wraps each lazily initialised module in `__esm({ "<path>"() { ... } })` (CommonJS ones in
 * `__commonJS`), and hands each namespace's getters to `__export(ns, { name: () => ..., ... })`: an
 * object literal per module whose one key (or key list) no other literal has. V8 gives every new
 * literal shape a map of its own, linked from a root map shared by all literals of that many
 * properties, whose transition array grows by one sorted entry per shape (each insertion copies
 * it): ~1,500 wrappers made that quadratic, ~20M instructions of every start (issue 25). A literal
 * that starts `__proto__: null` is made in dictionary mode instead: no maps, no transitions. The
 * helpers only read the objects' own properties (Object.getOwnPropertyNames, for-in), so a null
 * prototype changes nothing for them. The text is added at the end of the line: columns, and so
 * the source map, stay right.
 */
function wrappersWithoutMaps(file) {
	const text = readFileSync(file, "latin1");
	const out = text
		.replace(/= (__esm|__commonJS)\(\{$/gm, "= $1({ __proto__: null,")
		.replace(/^(\s*__export\([\w$]+, )\{$/gm, "$1{ __proto__: null,");
	if (/(__esm|__commonJS)\(\{$/m.test(out) || /__export\([\w$]+, \{$/m.test(out)) {
		throw new Error(`${file}: an esbuild wrapper left with a map of its own`);
	}
	writeFileSync(file, out, "latin1");
}

/**
 * esbuild escapes non-ASCII characters in code (charset ascii) but keeps comments as they are,
 * and one "→" in a comment makes V8 hold the whole 3 MB source as a two-byte string: 3 MB more
 * resident memory for every run. Each non-ASCII UTF-16 unit becomes "?" (columns, and so the
 * source map, stay right); the file with its comments stripped must be unchanged by that.
 */
function asciiOnly(file) {
	const text = readFileSync(file, "utf8");
	const ascii = text.replace(/[^\x00-\x7f]/g, "?");
	if (ascii === text) return;
	const code = (source) => transformSync(source, { minifyWhitespace: true, legalComments: "none" }).code;
	if (code(ascii) !== code(text)) throw new Error(`${file}: non-ASCII characters outside comments`);
	writeFileSync(file, ascii);
}

/**
 * Node 20's vm.Script loses the dynamic-import callback of a script compiled from cached data
 * (V8 11.3 does not restore its host-defined options): every import() in it throws
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. So each import() of the bundle (npm packages loaded
 * on demand, ESM-only ones, @pi/fleet by name) calls __imp_ instead, which the loader sets to an
 * import() made in dist/cli.js: the same directory, so specifiers resolve exactly as before.
 * "import" and "__imp_" have the same length: columns and the source map stay right. The
 * lexer skips strings, comments, templates and regular expressions; line 1 is the banner.
 */
async function routeDynamicImports(file) {
	await lexerInit;
	const text = readFileSync(file, "latin1");
	if (text.includes("__imp_(")) throw new Error(`${file}: already uses __imp_`);
	const [imports] = lexModule(text);
	const bannerEnd = text.indexOf("\n");
	let out = "";
	let last = 0;
	for (const imp of imports) {
		if (imp.d === -2) throw new Error(`${file}: import.meta left at ${imp.ss}`);
		if (imp.d < 0 || imp.ss < bannerEnd) continue;
		if (text.slice(imp.ss, imp.ss + 6) !== "import") throw new Error(`${file}: unexpected import() at ${imp.ss}`);
		out += `${text.slice(last, imp.ss)}__imp_`;
		last = imp.ss + 6;
	}
	writeFileSync(file, out + text.slice(last), "latin1");
}

/**
 * A static import of an npm package is a require() in the CommonJS bundle, which fails for an
 * ESM-only package on the Node versions without require(esm) (Node 20 before 20.19): such
 * packages must be imported with import() (kept as is) or bundled. Fails the build otherwise.
 */
function assertRequirable(metafile) {
	const req = createRequire(resolve("packages/coding-agent/package.json"));
	const bad = new Set();
	for (const output of Object.values(metafile.outputs)) {
		for (const imp of output.imports ?? []) {
			if (!imp.external || imp.kind === "dynamic-import" || /^(node|pi-mod):/.test(imp.path)) continue;
			let file;
			try {
				file = req.resolve(imp.path);
			} catch {
				bad.add(`${imp.path} (no CommonJS entry)`);
				continue;
			}
			if (file.endsWith(".mjs") || (file.endsWith(".js") && nearestType(file) === "module")) bad.add(imp.path);
		}
	}
	if (bad.size > 0) {
		throw new Error(
			`ESM-only packages imported statically by the CLI (use import() or bundle them): ${[...bad].join(", ")}`,
		);
	}
}

function nearestType(file) {
	for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
		if (existsSync(join(dir, "package.json"))) return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).type;
	}
	return undefined;
}
