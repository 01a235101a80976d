/**
 * grep and find over a generated tree (50,000 files, ~500 MB, under /tmp, not
 * in the repo): our tools with the native engine (rg / fd), our tools with the
 * pure-JS engine, the raw native binary with the same flags, and the
 * reference 0.73.1 tools — interleaved round by round in the same run.
 *
 *   npx tsx bench/tools-search.bench.ts [--rounds N] [--dir /tmp/pi-bench-tools-tree] [--files 50000]
 *
 * Reports median wall time and median CPU time (user+sys, including child
 * processes) per case. The tree is generated once and reused (see
 * bench/tools-tree.mjs).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createFindTool, type FindToolInput } from "../packages/coding-agent/src/tools/find.js";
import { createGrepTool, type GrepToolInput } from "../packages/coding-agent/src/tools/grep.js";
import { findFd, findRipgrep } from "../packages/coding-agent/src/tools/search/executables.js";
import { fdArgs } from "../packages/coding-agent/src/tools/search/find-engines.js";
import { ripgrepArgs } from "../packages/coding-agent/src/tools/search/grep-rg.js";
// @ts-expect-error plain ESM script without types
import { generateSearchTree } from "./tools-tree.mjs";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
	const i = argv.indexOf(name);
	return i >= 0 ? argv[i + 1] : fallback;
};
const rounds = Number(opt("--rounds", "5"));
const dir = opt("--dir", "/tmp/pi-bench-tools-tree");
const files = Number(opt("--files", "50000"));
generateSearchTree(dir, files, 10);

process.env.PI_OFFLINE = "1"; // the reference must never try to download rg/fd
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
type ToolLike = { execute: (...a: unknown[]) => Promise<{ content: { type: string; text?: string }[] }> };
let ref: { createGrepTool: (cwd: string) => ToolLike; createFindTool: (cwd: string) => ToolLike } | undefined;
try {
	ref = await import(
		pathToFileURL(join(refDir, "node_modules/@mariozechner/pi-coding-agent/dist/core/tools/index.js")).href
	);
} catch (error) {
	console.error(`reference tools not loaded (${(error as Error).message}); skipping them`);
}

/** CPU ms of this process's waited-for children (from /proc/self/stat), to count rg/fd time. */
function childCpuMs(): number {
	const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
	return (Number(f[13]) + Number(f[14])) * 10;
}

/** Runs a binary, counting output lines; stops it after maxLines (like `| head -n maxLines`). */
function runRaw(bin: string, args: string[], cwd: string, maxLines = Number.POSITIVE_INFINITY): Promise<number> {
	return new Promise((resolve, reject) => {
		const child = spawn(bin, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
		let lines = 0;
		child.stdout.on("data", (d: Buffer) => {
			for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
			if (lines >= maxLines) child.kill("SIGKILL");
		});
		child.on("error", reject);
		child.on("close", () => resolve(lines));
	});
}

interface Variant {
	name: string;
	run: () => Promise<string>;
}
interface Case {
	title: string;
	variants: Variant[];
}

const rg = findRipgrep();
const fd = findFd();
const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? "").join("");

/** The reference may fail where its tool flags don't fit the installed binary; report that instead of aborting. */
async function runReference(tool: ToolLike, args: object): Promise<string> {
	try {
		return textOf(await tool.execute("b", args, undefined, undefined));
	} catch (error) {
		return `error: ${(error as Error).message.split("\n")[0]} lines`;
	}
}

function grepCase(title: string, args: GrepToolInput): Case {
	const variants: Variant[] = [];
	const oursNative = createGrepTool(dir, { engine: "rg" });
	const oursJs = createGrepTool(dir, { engine: "js" });
	if (rg) {
		variants.push({
			name: args.limit === undefined ? "raw rg (same flags), stopped after 101 lines" : "raw rg (same flags)",
			run: async () => {
				const q = {
					target: dir,
					targetIsFile: false,
					pattern: String(args.pattern),
					literal: Boolean(args.literal),
					ignoreCase: Boolean(args.ignoreCase),
					maxMatches: 0,
				};
				const max = args.limit === undefined ? 101 : Number.POSITIVE_INFINITY;
				return `${await runRaw(rg, await ripgrepArgs(q, false), dir, max)} lines`;
			},
		});
		variants.push({
			name: "pi grep (rg engine)",
			run: async () => textOf(await oursNative.execute("b", args, undefined, undefined)),
		});
	}
	variants.push({
		name: "pi grep (JS engine)",
		run: async () => textOf(await oursJs.execute("b", args, undefined, undefined)),
	});
	if (ref && rg) {
		const tool = ref.createGrepTool(dir);
		variants.push({ name: "reference 0.73.1 grep", run: () => runReference(tool, args) });
	}
	return { title, variants };
}

function findCase(title: string, args: FindToolInput): Case {
	const variants: Variant[] = [];
	const oursNative = createFindTool(dir, { engine: "fd" });
	const oursJs = createFindTool(dir, { engine: "js" });
	if (fd) {
		variants.push({
			name: "raw fd (same flags)",
			run: async () => {
				const a = await fdArgs({ root: dir, pattern: String(args.pattern) }, false);
				if (!a) throw new Error("fd unusable here");
				return `${await runRaw(fd, a, dir)} lines`;
			},
		});
		variants.push({
			name: "pi find (fd engine)",
			run: async () => textOf(await oursNative.execute("b", args, undefined, undefined)),
		});
	}
	variants.push({
		name: "pi find (JS engine)",
		run: async () => textOf(await oursJs.execute("b", args, undefined, undefined)),
	});
	if (ref && fd) {
		const tool = ref.createFindTool(dir);
		variants.push({ name: "reference 0.73.1 find", run: () => runReference(tool, args) });
	}
	return { title, variants };
}

const cases: Case[] = [
	grepCase("grep literal, rare (183 matches, full scan)", { pattern: "XYZZY", literal: true, limit: 1000 }),
	grepCase("grep regex, rare (full scan)", { pattern: "XYZ+Y_\\d+", limit: 1000 }),
	grepCase("grep ignoreCase, rare (full scan)", { pattern: "xyzzy", ignoreCase: true, limit: 1000 }),
	grepCase("grep common word, default limit 100", { pattern: "promise" }),
	findCase("find *.ts (all ~8k, full walk)", { pattern: "*.ts", limit: 100000 }),
	findCase("find path glob pkg3/**/*.md", { pattern: "pkg3/**/*.md", limit: 100000 }),
];

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
};

console.log(`tree: ${dir} (${files} files); rounds: ${rounds}; load: ${readFileSync("/proc/loadavg", "utf8").trim()}`);
console.log(`rg: ${rg ?? "absent"}; fd: ${fd ?? "absent"}; node ${process.version}\n`);
for (const c of cases) {
	const wall = new Map<string, number[]>();
	const cpu = new Map<string, number[]>();
	const outputs = new Map<string, string>();
	for (const v of c.variants) await v.run(); // warm-up (page cache, JIT)
	for (let r = 0; r < rounds; r++) {
		for (const v of c.variants) {
			const c0 = process.cpuUsage();
			const k0 = childCpuMs();
			const t0 = performance.now();
			const out = await v.run();
			const t = performance.now() - t0;
			const cu = process.cpuUsage(c0);
			const k = childCpuMs() - k0;
			if (!wall.has(v.name)) {
				wall.set(v.name, []);
				cpu.set(v.name, []);
			}
			wall.get(v.name)?.push(t);
			cpu.get(v.name)?.push((cu.user + cu.system) / 1000 + k);
			outputs.set(v.name, out);
		}
	}
	console.log(`### ${c.title}`);
	console.log("| variant | wall ms (median) | cpu ms (median) | output |");
	console.log("|---|---|---|---|");
	for (const v of c.variants) {
		const out = outputs.get(v.name) ?? "";
		const summary = out.endsWith("lines") ? out : `${out.split("\n").length} lines`;
		console.log(
			`| ${v.name} | ${median(wall.get(v.name) ?? []).toFixed(0)} | ${median(cpu.get(v.name) ?? []).toFixed(0)} | ${summary} |`,
		);
	}
	const js = c.variants.find((v) => v.name.includes("JS engine"));
	const native = c.variants.find((v) => v.name.includes("rg engine") || v.name.includes("fd engine"));
	if (js && native) {
		const same = outputs.get(js.name) === outputs.get(native.name);
		console.log(`\nJS and native engine outputs identical: ${same}`);
	}
	console.log("");
}
