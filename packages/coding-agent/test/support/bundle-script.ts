// Bundles a TypeScript test helper to plain JS, so each child process a test
// spawns starts in tens of milliseconds (no TS loader in the child). Code split:
// what the helper reaches only through import() (pi-ai's provider SDKs, about
// 5 MB) goes to chunks loaded when imported, not parsed at every child's start.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { buildSync } from "esbuild";
import { inject } from "vitest";

declare module "vitest" {
	export interface ProvidedContext {
		/** The run's scratch folder (test/global-setup.ts creates it, and removes it when the run ends). */
		testBuildDir: string;
	}
}

const bundled = new Map<string, string>();

export interface BundleOptions {
	/** Give the bundle a CommonJS `require` (for dependencies that call it from ESM). */
	withRequire?: boolean;
}

/** The bundle of `entry` (an absolute .ts path), built once per test process. */
export function bundleTestScript(entry: string, options: BundleOptions = {}): string {
	const hit = bundled.get(entry);
	if (hit) return hit;
	const name = basename(entry).replace(/\.ts$/, "");
	// Inside the run's scratch folder (test/global-setup.ts removes it at the end); the system
	// temp folder only when no run provides one.
	const dir = mkdtempSync(join(inject("testBuildDir") ?? tmpdir(), `pi-test-${name}-`));
	const out = join(dir, `${name}.mjs`);
	buildSync({
		entryPoints: [entry],
		bundle: true,
		splitting: true,
		outExtension: { ".js": ".mjs" },
		platform: "node",
		format: "esm",
		target: "node20",
		conditions: ["development"],
		// pi-ai imports it only for local models; its native prebuilts cannot be bundled.
		external: ["node-llama-cpp"],
		outdir: dir,
		logLevel: "silent",
		...(options.withRequire
			? {
					banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
				}
			: {}),
	});
	bundled.set(entry, out);
	return out;
}
