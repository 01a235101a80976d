// Builds every package with esbuild. Libraries keep third-party imports external;
// the CLI bundles the workspace packages (from source) so start-up reads few files,
// and code splitting keeps lazily imported modules (provider adapters, TUI) in
// their own chunks so they load only when used.
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "esbuild";

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
	{
		dir: "packages/coding-agent",
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
		packages: "external",
		external: workspace,
	});
}

// The `pi` executable: workspace code bundled in, npm dependencies external,
// except the pure-JS ones on the start-up path: resolving and reading hundreds
// of small files (typebox alone has ~700) costs more than parsing one chunk.
// Lazily imported code (provider SDKs) stays in its own lazily loaded chunk.
const bareImport = /^[^./]/;
const bundledDeps = ["typebox", "openai", "diff", "uuid", "picomatch", "ignore", "partial-json"];
const isBundledDep = (path) => bundledDeps.some((d) => path === d || path.startsWith(`${d}/`));
await build({
	...common,
	entryPoints: {
		cli: "packages/coding-agent/src/cli/cli.ts",
		"search-worker": "packages/coding-agent/src/tools/search/search-worker.ts",
		"codemode-worker": "packages/coding-agent/src/builtins/codemode/sandbox/worker.ts",
	},
	outdir: "packages/coding-agent/dist",
	entryNames: "[name]",
	chunkNames: "chunks/[name]-[hash]",
	plugins: [
		rawText,
		{
			name: "externalize-npm-deps",
			setup(b) {
				b.onResolve({ filter: bareImport }, (args) =>
					args.path.startsWith("@pi/") || args.path.startsWith("node:") || isBundledDep(args.path)
						? undefined
						: { path: args.path, external: true },
				);
			},
		},
	],
	banner: { js: "#!/usr/bin/env node" },
});
chmodSync("packages/coding-agent/dist/cli.js", 0o755);
