// Runs every benchmark script in bench/ (or those whose name contains argv[2]).
// Scripts are `*.bench.mjs` (plain node) or `*.bench.ts` (run through tsx).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? "";
const scripts = readdirSync(here)
	.filter((f) => /\.bench\.(mjs|ts)$/.test(f) && f.includes(filter))
	.sort();
if (scripts.length === 0) {
	console.error(`no benchmark matches "${filter}"`);
	process.exit(1);
}
let failed = 0;
for (const script of scripts) {
	console.log(`\n## ${script}\n`);
	const args = script.endsWith(".ts") ? ["--import", "tsx", join(here, script)] : [join(here, script)];
	const result = spawnSync(process.execPath, args, { stdio: "inherit", env: process.env });
	if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
