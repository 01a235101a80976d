// Instruction counts (valgrind callgrind, all threads) of the `pi -p --no-session` 3-request tool
// loop of bench/floor.bench.mjs, for judging a start-up or loop change on a shared machine where
// wall time moves by 2× run to run. Builds alternate run by run (old/new interleaved), each in its
// own home with its own warm code cache (one unmeasured warm-up run each first).
//
//   npm run build && node bench/loop-instr.mjs [runs=3] <cli.js | floor> [<other cli.js> …]
//
// `floor` runs bench/floor/loop.mjs (bare node:http, no atomic write, no sync) the same way.
//
// Per run: instructions up to the first request (callgrind_control -d the moment it arrives,
// before it is answered), then the whole run. Medians in millions at the end. The counters are
// also dumped when the second and third requests arrive, so each run is split into: start →
// first request, the loop (first request → third request: two replies handled, two tools run, two
// requests built and sent), and the end (third request → exit: the last reply, the answer printed,
// the process's exit). KEEP_CG=<dir> keeps each run's dumps (cg.out.1 … cg.out.3, cg.out);
// PI_ARGS adds arguments, PI_SETTINGS a settings.json (below).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { makeFloorHome, textReply, toolReply } from "./support/floor-home.mjs";

const runs = Number(process.argv[2] ?? 3);
const floorScript = resolve(import.meta.dirname, "floor/loop.mjs");
const clis = process.argv.slice(3).map((p) => (p === "floor" ? floorScript : resolve(p)));
if (clis.length === 0) throw new Error("usage: node bench/loop-instr.mjs [runs] <cli.js | floor> …");

let script = [];
let served = 0;
/** Called with the request's index (0-based) when a request of a run arrives, before it is answered. */
let onRequest = (_n) => {};
const server = createServer((req, res) => {
	req.resume();
	req.on("end", () => {
		const n = served++;
		onRequest(n);
		res.writeHead(200, { "content-type": "text/event-stream" });
		res.end(script[n] ?? textReply("(no script)"));
	});
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

const root = mkdtempSync(join(tmpdir(), "pi-loop-instr-"));
// PI_SETTINGS='<json>' is written to each home's settings.json (e.g. '{"extensions":["-builtin:checkpoints"]}').
const makeHome = (i) => {
	const home = makeFloorHome(root, `h${i}`, baseUrl);
	if (process.env.PI_SETTINGS) writeFileSync(join(home.agentDir, "settings.json"), process.env.PI_SETTINGS);
	return home;
};

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
		cli === floorScript
			? [...args, baseUrl]
			: [
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
	onRequest = () => {
		if (measured && process.env.NO_DUMP !== "1")
			execFileSync("callgrind_control", ["-d", String(child.pid)], { stdio: "ignore" });
	};
	const code = await new Promise((r) => child.on("exit", r));
	if (code !== 0 || stdout.trim() !== "Done.") throw new Error(`${cli} failed (${code}): ${stdout}\n${stderr}`);
	if (!measured) return undefined;
	// cg.out.1 is the dump at the first request (counts since start), cg.out.2 / cg.out.3 the counts
	// since the previous dump at the second / third request, cg.out the rest (to exit).
	const files = readdirSync(outDir);
	const part = (suffix) => {
		const f = files.find((x) => x.endsWith(suffix));
		return f ? totalOf(readFileSync(join(outDir, f), "utf8")) : Number.NaN;
	};
	const first = part(".1");
	const loop = part(".2") + part(".3");
	const end = part("cg.out");
	const all = /Collected : (\d+)/.exec(stderr)?.[1];
	if (process.env.KEEP_CG) execFileSync("cp", ["-r", outDir, process.env.KEEP_CG]);
	rmSync(outDir, { recursive: true, force: true });
	return { before: first / 1e6, loop: loop / 1e6, end: end / 1e6, all: Number(all) / 1e6 };
}

const homes = clis.map((_, i) => makeHome(i));
for (let c = 0; c < clis.length; c++) await run(clis[c], homes[c], 0, false);
const samples = clis.map(() => []);
for (let i = 1; i <= runs; i++) {
	for (let c = 0; c < clis.length; c++) {
		const s = await run(clis[c], homes[c], i, true);
		samples[c].push(s);
		console.log(
			`${clis[c]} run ${i}: before first request ${s.before.toFixed(0)}M, loop ${s.loop.toFixed(1)}M, end ${s.end.toFixed(1)}M, all ${s.all.toFixed(0)}M`,
		);
	}
}
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(
	"\n| cli | before first request Mi | loop (1st → 3rd request) Mi | end (3rd request → exit) Mi | whole run Mi |\n|---|---|---|---|---|",
);
for (let c = 0; c < clis.length; c++) {
	const s = samples[c];
	console.log(
		`| ${clis[c]} | ${median(s.map((x) => x.before)).toFixed(0)} | ${median(s.map((x) => x.loop)).toFixed(1)} | ${median(s.map((x) => x.end)).toFixed(1)} | ${median(s.map((x) => x.all)).toFixed(0)} |`,
	);
}
server.close();
rmSync(root, { recursive: true, force: true });
