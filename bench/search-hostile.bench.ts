/**
 * grep over hostile input (issue 21):
 *
 * 1. peak RSS of one `grep` call over a tree holding a 2 GB sparse file and a
 *    200 MB file that is a single line (the match at its end), per engine; each
 *    run is a fresh child process, so `maxRSS` is that search's peak; with
 *    /usr/bin/time present, the peak of the largest process of the run
 *    (node, or the rg it started) is shown too;
 * 2. how long `abort` takes to settle a grep stuck in a catastrophic regex
 *    (`(a+)+$` over a 33-character line, JS engine, which runs in a worker), and
 *    the longest event-loop stall seen while the search ran.
 *
 *   npx tsx bench/search-hostile.bench.ts [--rounds 5] [--dir /tmp/pi-bench-hostile]
 *
 * The tree is generated under /tmp (the sparse file takes no disk; the long
 * line takes 200 MB) and removed at the end.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, rmSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGrepTool } from "../packages/coding-agent/src/tools/grep.js";
import { findRipgrep } from "../packages/coding-agent/src/tools/search/executables.js";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
	const i = argv.indexOf(name);
	return i >= 0 ? argv[i + 1] : fallback;
};
const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? "").join("");

// -- child: one grep, then report this process's peak RSS ----------------------
if (argv[0] === "--child") {
	const [, engine, dir] = argv;
	const before = process.memoryUsage().rss;
	const t0 = performance.now();
	const tool = createGrepTool(dir, { engine: engine as "js" | "rg" });
	const out = textOf(await tool.execute("b", { pattern: "NEEDLE_AT_THE_END" }, undefined, undefined));
	const ms = performance.now() - t0;
	console.log(
		JSON.stringify({
			ms,
			startRssMb: before / 1024 / 1024,
			maxRssMb: process.resourceUsage().maxRSS / 1024,
			found: out.includes("one-line.txt"),
		}),
	);
	process.exit(0);
}

const rounds = Number(opt("--rounds", "5"));
const dir = opt("--dir", "/tmp/pi-bench-hostile");
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(dir, "src"), { recursive: true });
for (let i = 0; i < 50; i++) writeFileSync(join(dir, "src", `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(200));
const sparse = join(dir, "sparse.bin");
writeFileSync(sparse, "");
truncateSync(sparse, 2 * 1024 ** 3);
const longLine = join(dir, "one-line.txt");
const fd = openSync(longLine, "w");
const block = Buffer.alloc(1024 * 1024, "a");
for (let i = 0; i < 200; i++) writeSync(fd, block);
writeSync(fd, "NEEDLE_AT_THE_END\n");
closeSync(fd);
writeFileSync(join(dir, "catastrophic.txt"), `${"a".repeat(32)}!\n`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const self = fileURLToPath(import.meta.url);
const load = () => spawnSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).stdout.trim();
console.log(`tree: ${dir} (50 small files, 2 GB sparse file, 200 MB one-line file); node ${process.version}`);
console.log(`load: ${load()}\n`);

console.log("### peak RSS of one grep call (fresh process per run)");
const gnuTime = existsSync("/usr/bin/time");
console.log(
	"| engine | wall ms (median) | node peak RSS MB (median / max) | largest process incl. rg, MB (max) | RSS at start MB | match found |",
);
console.log("|---|---|---|---|---|---|");
const engines = findRipgrep() ? ["js", "rg"] : ["js"];
for (const engine of engines) {
	const runs: { ms: number; startRssMb: number; maxRssMb: number; found: boolean }[] = [];
	const treePeaks: number[] = [];
	for (let r = 0; r < rounds; r++) {
		const nodeArgs = ["--import", "tsx", self, "--child", engine, dir];
		const child = gnuTime
			? spawnSync("/usr/bin/time", ["-f", "maxrss-kb %M", process.execPath, ...nodeArgs], {
					encoding: "utf8",
					maxBuffer: 1 << 20,
				})
			: spawnSync(process.execPath, nodeArgs, { encoding: "utf8", maxBuffer: 1 << 20 });
		if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`);
		runs.push(JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}"));
		const kb = /maxrss-kb (\d+)/.exec(child.stderr ?? "");
		if (kb) treePeaks.push(Number(kb[1]) / 1024);
	}
	const peaks = runs.map((r) => r.maxRssMb);
	console.log(
		`| ${engine} | ${median(runs.map((r) => r.ms)).toFixed(0)} | ${median(peaks).toFixed(0)} / ${Math.max(...peaks).toFixed(0)} | ${treePeaks.length > 0 ? Math.max(...treePeaks).toFixed(0) : "n/a"} | ${median(runs.map((r) => r.startRssMb)).toFixed(0)} | ${runs.every((r) => r.found)} |`,
	);
}

console.log("\n### abort during a catastrophic-regex grep ((a+)+$ over a 33-char line, JS engine)");
console.log("| round | abort → settled ms | longest event-loop stall during the search ms |");
console.log("|---|---|---|");
const latencies: number[] = [];
const stalls: number[] = [];
for (let r = 0; r < rounds; r++) {
	const tool = createGrepTool(dir, { engine: "js" });
	const controller = new AbortController();
	let last = performance.now();
	let stall = 0;
	const ticker = setInterval(() => {
		const now = performance.now();
		stall = Math.max(stall, now - last - 5);
		last = now;
	}, 5);
	const search = tool.execute("b", { pattern: "(a+)+$", path: "catastrophic.txt" }, controller.signal, undefined).then(
		() => "finished",
		(error: Error) => error.message,
	);
	await new Promise((resolve) => setTimeout(resolve, 500));
	const t0 = performance.now();
	controller.abort();
	await search;
	const latency = performance.now() - t0;
	clearInterval(ticker);
	latencies.push(latency);
	stalls.push(stall);
	console.log(`| ${r + 1} | ${latency.toFixed(1)} | ${stall.toFixed(1)} |`);
}
console.log(
	`\nabort → settled: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; longest stall ${Math.max(...stalls).toFixed(1)} ms`,
);
console.log(`load after: ${load()}`);
rmSync(dir, { recursive: true, force: true });
