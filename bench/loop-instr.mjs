// Instruction counts (valgrind callgrind, all threads) of the `pi -p --no-session` 3-request tool
// loop of bench/floor.bench.mjs, for judging a start-up or loop change on a shared machine where
// wall time moves by 2× run to run. Builds alternate run by run (old/new interleaved), each in its
// own home with its own warm code cache (one unmeasured warm-up run each first).
//
//   npm run build && node bench/loop-instr.mjs [runs=3] <cli.js> [<other cli.js> …]
//
// Per run: instructions up to the first request (callgrind_control -d the moment it arrives,
// before it is answered), then the whole run. Medians in millions at the end.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { makeFloorHome, textReply, toolReply } from "./support/floor-home.mjs";

const runs = Number(process.argv[2] ?? 3);
const clis = process.argv.slice(3).map((p) => resolve(p));
if (clis.length === 0) throw new Error("usage: node bench/loop-instr.mjs [runs] <cli.js> …");

let script = [];
let served = 0;
/** Called with nothing when the first request of a run arrives, before it is answered. */
let onFirst = () => {};
const server = createServer((req, res) => {
	req.resume();
	req.on("end", () => {
		const n = served++;
		if (n === 0) onFirst();
		res.writeHead(200, { "content-type": "text/event-stream" });
		res.end(script[n] ?? textReply("(no script)"));
	});
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

const root = mkdtempSync(join(tmpdir(), "pi-loop-instr-"));
const makeHome = (i) => makeFloorHome(root, `h${i}`, baseUrl);

const totalOf = (text) => Number(/^(?:summary|totals):\s*(\d+)/m.exec(text)?.[1] ?? Number.NaN);

async function run(cli, home, i, measured) {
	served = 0;
	script = [
		toolReply(1, "write", { path: "notes.txt", content: `run ${i}\n` }),
		toolReply(2, "read", { path: "notes.txt" }),
		textReply("Done."),
	];
	const outDir = join(root, `cg-${i}-${Math.random().toString(36).slice(2)}`);
	mkdirSync(outDir);
	const args = measured
		? [
				"--tool=callgrind",
				`--callgrind-out-file=${outDir}/cg.out`,
				...(process.env.CG_ARGS ?? "").split(" ").filter(Boolean),
				process.execPath,
				cli,
			]
		: [cli];
	const cmd = measured ? "valgrind" : process.execPath;
	const child = spawn(
		cmd,
		[
			...args,
			"-p",
			"--no-session",
			"--model",
			"fake/fake-model",
			...(process.env.PI_ARGS ?? "").split(" ").filter(Boolean),
			"hi",
		],
		{
			env: home.env,
			cwd: home.cwd,
			stdio: ["ignore", "pipe", "pipe"],
		},
	);
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (d) => {
		stdout += d;
	});
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	onFirst = () => {
		if (measured && process.env.NO_DUMP !== "1")
			execFileSync("callgrind_control", ["-d", String(child.pid)], { stdio: "ignore" });
	};
	const code = await new Promise((r) => child.on("exit", r));
	if (code !== 0 || stdout.trim() !== "Done.") throw new Error(`${cli} failed (${code}): ${stdout}\n${stderr}`);
	if (!measured) return undefined;
	// cg.out.1 is the dump at the first request (counts since start); cg.out the rest.
	const files = readdirSync(outDir);
	const first = totalOf(readFileSync(join(outDir, files.find((f) => f.endsWith(".1")) ?? "cg.out"), "utf8"));
	const all = /Collected : (\d+)/.exec(stderr)?.[1];
	if (process.env.KEEP_CG) execFileSync("cp", ["-r", outDir, process.env.KEEP_CG]);
	rmSync(outDir, { recursive: true, force: true });
	return { before: first / 1e6, all: Number(all) / 1e6 };
}

const homes = clis.map((_, i) => makeHome(i));
for (let c = 0; c < clis.length; c++) await run(clis[c], homes[c], 0, false);
const samples = clis.map(() => []);
for (let i = 1; i <= runs; i++) {
	for (let c = 0; c < clis.length; c++) {
		const s = await run(clis[c], homes[c], i, true);
		samples[c].push(s);
		console.log(`${clis[c]} run ${i}: before first request ${s.before.toFixed(0)}M, all ${s.all.toFixed(0)}M`);
	}
}
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log("\n| cli | before first request Mi | whole run Mi |\n|---|---|---|");
for (let c = 0; c < clis.length; c++) {
	const s = samples[c];
	console.log(
		`| ${clis[c]} | ${median(s.map((x) => x.before)).toFixed(0)} | ${median(s.map((x) => x.all)).toFixed(0)} |`,
	);
}
server.close();
rmSync(root, { recursive: true, force: true });
