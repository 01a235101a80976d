// Bundles our session layer (TypeScript sources) into one plain ESM file so
// benchmark children load it with `node` alone, like the reference's dist.
import { mkdirSync, mkdtempSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const REF_SESSION_MANAGER = join(
	process.env.PI_REFERENCE_DIR ?? "/work/ref073",
	"node_modules/@mariozechner/pi-coding-agent/dist/core/session-manager.js",
);

export function bundleOurs() {
	// Inside the repo, with npm packages left external: they resolve from node_modules as in the
	// CLI (bundling them pulled in node-llama-cpp's optional per-platform binaries and failed).
	const cache = join(repoRoot, "node_modules", ".cache");
	mkdirSync(cache, { recursive: true });
	const out = join(mkdtempSync(join(cache, "pi-bench-session-")), "session.mjs");
	buildSync({
		stdin: {
			contents: [
				'export { SessionManager } from "./packages/coding-agent/src/session/session-manager.ts";',
				'export { listAllSessions, listSessions } from "./packages/coding-agent/src/session/listing.ts";',
				'export { setSessionIndexDir } from "./packages/coding-agent/src/session/index-cache.ts";',
				// The open's own parts, for benches that time them one by one (session-scan-warmup.bench.mjs).
				'export { loadFromFd, newLoadState } from "./packages/coding-agent/src/session/load.ts";',
				'export { scanFd } from "./packages/coding-agent/src/session/scan.ts";',
				'export { ContentHash } from "./packages/coding-agent/src/session/content-hash.ts";',
				'export { SessionTree } from "./packages/coding-agent/src/session/tree.ts";',
			].join("\n"),
			resolveDir: repoRoot,
			loader: "ts",
		},
		bundle: true,
		platform: "node",
		format: "esm",
		target: "node20",
		conditions: ["development"],
		packages: "external",
		outfile: out,
		logLevel: "silent",
	});
	return out;
}

export function median(xs) {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function percentile(xs, p) {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
