// What the built-in model catalog costs: at import of pi-ai (cold process) and
// on the first catalog call, side by side with the reference pi-ai 0.73.1.
// Needs `npm run build` first (imports packages/ai/dist).
//   node bench/models-catalog.bench.mjs [runs]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { transformSync } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 15);
const ours = pathToFileURL(join(root, "packages/ai/dist/index.js")).href;
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
const refFile = join(refDir, "node_modules/@mariozechner/pi-ai/dist/index.js");
const ref = pathToFileURL(refFile).href;
if (!existsSync(fileURLToPath(ours))) {
	console.error("packages/ai/dist is missing: run `npm run build` first");
	process.exit(1);
}

// The generated data module alone, compiled as the build would, to isolate its evaluation cost.
const work = join(root, "bench/.work/models-catalog");
mkdirSync(work, { recursive: true });
const generated = readFileSync(join(root, "packages/ai/src/models/catalog.generated.ts"), "utf8");
writeFileSync(join(work, "catalog.generated.mjs"), transformSync(generated, { loader: "ts", format: "esm" }).code);
writeFileSync(join(work, "empty.mjs"), "export {};\n");
const dataOnly = pathToFileURL(join(work, "catalog.generated.mjs")).href;
const empty = pathToFileURL(join(work, "empty.mjs")).href;

/** Runs `code` in a fresh node `runs` times (plus one warm-up); returns the median of what it prints (ms). */
function median(code) {
	const values = [];
	for (let i = 0; i <= runs; i++) {
		const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
		if (r.status !== 0) throw new Error(r.stderr);
		if (i > 0) values.push(Number(r.stdout.trim()));
	}
	values.sort((a, b) => a - b);
	return values[values.length >> 1];
}
const timed = (body) => `const t0 = performance.now(); ${body}; console.log(performance.now() - t0);`;

const rows = [
	["empty module import (baseline)", median(timed(`await import(${JSON.stringify(empty)})`))],
	["catalog.generated module alone", median(timed(`await import(${JSON.stringify(dataOnly)})`))],
	["import @pi/ai", median(timed(`await import(${JSON.stringify(ours)})`))],
	[
		"import @pi/ai + first getModel()",
		median(timed(`const m = await import(${JSON.stringify(ours)}); m.getModel("anthropic", "claude-opus-4-7")`)),
	],
	[
		"first getModel() alone (after import)",
		median(
			`const m = await import(${JSON.stringify(ours)}); const t0 = performance.now(); m.getModel("anthropic", "claude-opus-4-7"); console.log(performance.now() - t0);`,
		),
	],
	[
		"applyModelsConfig(all built-ins, ollama + override)",
		median(
			`const m = await import(${JSON.stringify(ours)}); const all = m.getAllModels(); const t0 = performance.now(); m.applyModelsConfig(all, { providers: { ollama: { baseUrl: "http://localhost:11434/v1", api: "openai-completions", models: [{ id: "llama3.1:8b" }] }, anthropic: { baseUrl: "https://proxy.example.com" } } }, { source: "models.json" }); console.log(performance.now() - t0);`,
		),
	],
];
if (existsSync(refFile)) {
	rows.push(
		["reference: import pi-ai 0.73.1", median(timed(`await import(${JSON.stringify(ref)})`))],
		[
			"reference: import + first getModel()",
			median(timed(`const m = await import(${JSON.stringify(ref)}); m.getModel("anthropic", "claude-opus-4-7")`)),
		],
	);
}
const count = spawnSync(
	process.execPath,
	[
		"--input-type=module",
		"-e",
		`const m = await import(${JSON.stringify(ours)}); console.log(m.getAllModels().length)`,
	],
	{ encoding: "utf8" },
).stdout.trim();
console.log(`catalog: ${count} models; median of ${runs} fresh processes, in-process timers (ms)\n`);
console.log("| case | ms |\n|---|---|");
for (const [label, ms] of rows) console.log(`| ${label} | ${ms.toFixed(2)} |`);
