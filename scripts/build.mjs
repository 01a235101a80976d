// Builds every package with esbuild. Libraries keep third-party imports external;
// the CLI bundles the workspace packages (from source) so start-up reads few files,
// and code splitting keeps lazily imported modules (provider adapters, TUI) in
// their own chunks so they load only when used.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
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
	{ dir: "packages/tui", entries: ["src/index.ts", "src/text.ts"] },
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
	"uuid",
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

// The CLI itself (issue 25): one CommonJS file, dist/cli-main.cjs, so that Node 20 can compile it
// through vm.Script with V8's cached data (it has no compile cache for ES modules) and Node 22
// through its own compile cache. Lazily imported code stays lazy inside it (esbuild wraps each
// such module in a function run on first import()). import.meta.url is the bundle's file URL,
// so files found next to it (the workers, jiti's base) resolve as from the ESM chunks before.
const cliBundle = await build({
	...common,
	format: "cjs",
	splitting: false,
	metafile: true,
	entryPoints: { "cli-main": "packages/coding-agent/src/cli/main.ts" },
	outdir: cliDist,
	outExtension: { ".js": ".cjs" },
	define: { "import.meta.url": "__pi_import_meta_url" },
	// One line, before esbuild's own "use strict" (which a banner would turn into a plain expression):
	// the bundle runs in strict mode like the ES modules it is made of. __imp_ is import(), see routeDynamicImports.
	banner: {
		js: '"use strict"; const __pi_import_meta_url = require("node:url").pathToFileURL(__filename).href; const __imp_ = globalThis.__pi_dynamic_import ?? ((specifier, options) => import(specifier, options));',
	},
	plugins: [rawText, externalizeNpmDeps],
});
assertRequirable(cliBundle.metafile);
asciiOnly(`${cliDist}/cli-main.cjs`);
await routeDynamicImports(`${cliDist}/cli-main.cjs`);

// dist/cli.js, the bin: answers --version by itself, else loads the bundle through the code cache,
// keyed (among others) by the bundle's hash embedded here.
const bundleId = createHash("sha256")
	.update(readFileSync(`${cliDist}/cli-main.cjs`))
	.digest("hex")
	.slice(0, 16);
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
			if (!imp.external || imp.kind === "dynamic-import" || imp.path.startsWith("node:")) continue;
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
