// Bundles a helper script of this folder to plain JS once per test file, so
// each spawned child starts in tens of milliseconds (no TS loader).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const cache = new Map<string, string>();

export function bundledScript(name: string): string {
	const hit = cache.get(name);
	if (hit) return hit;
	const out = join(mkdtempSync(join(tmpdir(), "pi-rel-script-")), `${name}.mjs`);
	buildSync({
		entryPoints: [join(here, `${name}.ts`)],
		bundle: true,
		platform: "node",
		format: "esm",
		target: "node20",
		conditions: ["development"],
		// Loaded only for local models (import() in pi-ai); its native prebuilts cannot be bundled.
		external: ["node-llama-cpp"],
		outfile: out,
		logLevel: "silent",
		banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
	});
	cache.set(name, out);
	return out;
}
