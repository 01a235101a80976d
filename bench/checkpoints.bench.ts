/**
 * builtin:checkpoints: what a snapshot costs per tool call in a 50,000-file
 * project (generated under /tmp, ~1 KB per file, not in the repo).
 *
 *   npx tsx bench/checkpoints.bench.ts [--rounds N] [--dir /tmp/pi-bench-checkpoints-tree] [--files 50000]
 *
 * Cases (each round changes one file first, as a tool call would):
 *   - cold: the first snapshot of the tree into an empty store (once);
 *   - before edit/write: the touched file only (`snapshot(msg, [path])`);
 *   - before bash: the whole tree, incrementally (one changed file);
 *   - before bash, nothing changed;
 *   - before bash, 100 new files in a new folder.
 * Bar (issue 24): median incremental snapshot <= 50 ms.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
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

const cold = await time(() => store.snapshot("cold"));
const results: Record<string, number[]> = { "before edit/write (one file)": [], "before bash (one file changed)": [] };
results["before bash (nothing changed)"] = [];
results["before bash (100 new files)"] = [];
const target = join(dir, "bench-edited.txt");
for (let i = 0; i < rounds; i++) {
	writeFileSync(target, `round ${i}\n`);
	results["before edit/write (one file)"]?.push(await time(() => store.snapshot("edit", ["bench-edited.txt"])));
	writeFileSync(target, `round ${i} again\n`);
	results["before bash (one file changed)"]?.push(await time(() => store.snapshot("bash")));
	results["before bash (nothing changed)"]?.push(await time(() => store.snapshot("bash")));
	const fresh = join(dir, `bench-new-${i}`);
	mkdirSync(fresh, { recursive: true });
	for (let f = 0; f < 100; f++) writeFileSync(join(fresh, `f${f}.txt`), `new ${i}/${f}\n`);
	results["before bash (100 new files)"]?.push(await time(() => store.snapshot("bash")));
	rmSync(fresh, { recursive: true, force: true });
}
rmSync(target, { force: true });
const bytes = await store.sizeBytes();

console.log(`tree: ${files} files under ${dir}; ${rounds} rounds; store ${(bytes / 1024 / 1024).toFixed(1)} MB`);
console.log(`cold first snapshot: ${cold.toFixed(0)} ms`);
console.log("| case | median ms | p90 ms |");
console.log("|---|---|---|");
for (const [name, xs] of Object.entries(results))
	console.log(`| ${name} | ${median(xs).toFixed(1)} | ${p90(xs).toFixed(1)} |`);
rmSync(storeDir, { recursive: true, force: true });
