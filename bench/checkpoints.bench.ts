/**
 * builtin:checkpoints: what a snapshot costs per tool call in a 50,000-file
 * project (generated under /tmp, ~1 KB per file, not in the repo).
 *
 *   npx tsx bench/checkpoints.bench.ts [--rounds N] [--dir /tmp/pi-bench-checkpoints-tree] [--files 50000]
 *
 * Cases (each round changes one file first, as a tool call would):
 *   - cold: the first snapshot of the tree into an empty store (once; git's
 *     full scan, with the file watcher started before it);
 *   - before edit/write: one file changed (`snapshot(msg, [path])`);
 *   - before bash: the whole tree, incrementally (one changed file);
 *   - before bash, nothing changed;
 *   - before bash, 100 new files in a new folder.
 * Every incremental case says how many of its snapshots the watcher served
 * (the rest fell back to git's scan). Bar (issue 24): median incremental
 * snapshot <= 50 ms.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ShadowStore } from "../packages/coding-agent/src/builtins/checkpoints/store.js";
// @ts-expect-error plain ESM script without types
import { generateSearchTree } from "./tools-tree.mjs";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
	const i = argv.indexOf(name);
	return i >= 0 ? argv[i + 1] : fallback;
};
const rounds = Number(opt("--rounds", "30"));
const dir = opt("--dir", "/tmp/pi-bench-checkpoints-tree");
const files = Number(opt("--files", "50000"));
generateSearchTree(dir, files, 1);
const storeDir = `${dir}-store`;
rmSync(storeDir, { recursive: true, force: true });
const store = new ShadowStore(storeDir, dir, { maxFileBytes: 10 * 1024 * 1024 });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)] ?? 0;
const time = async (fn: () => Promise<unknown>) => {
	const t = performance.now();
	await fn();
	return performance.now() - t;
};

function load(): string {
	try {
		return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
	} catch {
		return "n/a";
	}
}
const loadBefore = load();
const cold = await time(() => store.snapshot("cold"));
const storeAfterCold = await store.sizeBytes();
const served: Record<string, number> = {};
const timed = async (name: string, fn: () => Promise<{ incremental?: boolean }>) => {
	const t = performance.now();
	const r = await fn();
	results[name]?.push(performance.now() - t);
	if (r.incremental) served[name] = (served[name] ?? 0) + 1;
};
const results: Record<string, number[]> = { "before edit/write (one file)": [], "before bash (one file changed)": [] };
results["before bash (nothing changed)"] = [];
results["before bash (100 new files)"] = [];
const target = join(dir, "bench-edited.txt");
for (let i = 0; i < rounds; i++) {
	writeFileSync(target, `round ${i}\n`);
	await timed("before edit/write (one file)", () => store.snapshot("edit", ["bench-edited.txt"]));
	writeFileSync(target, `round ${i} again\n`);
	await timed("before bash (one file changed)", () => store.snapshot("bash"));
	await timed("before bash (nothing changed)", () => store.snapshot("bash"));
	const fresh = join(dir, `bench-new-${i}`);
	mkdirSync(fresh, { recursive: true });
	for (let f = 0; f < 100; f++) writeFileSync(join(fresh, `f${f}.txt`), `new ${i}/${f}\n`);
	await timed("before bash (100 new files)", () => store.snapshot("bash"));
	rmSync(fresh, { recursive: true, force: true });
}
rmSync(target, { force: true });
const bytes = await store.sizeBytes();

const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
console.log(`tree: ${files} files under ${dir}; ${rounds} rounds; load average before ${loadBefore}, after ${load()}`);
console.log(
	`cold first snapshot: ${cold.toFixed(0)} ms; store ${mb(storeAfterCold)} MB after it, ${mb(bytes)} MB at the end`,
);
console.log(`watcher: ${store.fastPathOff ? `off (${store.fastPathOff})` : "on"}`);
console.log("| case | median ms | p90 ms | served by the watcher |");
console.log("|---|---|---|---|");
for (const [name, xs] of Object.entries(results))
	console.log(`| ${name} | ${median(xs).toFixed(1)} | ${p90(xs).toFixed(1)} | ${served[name] ?? 0}/${xs.length} |`);
store.close();
rmSync(storeDir, { recursive: true, force: true });
