// Instruction counts (valgrind callgrind, all threads) of the interactive first screen of
// bench/floor.bench.mjs (tmux 120×40, `pi --no-session --model fake/fake-model`), up to the moment
// the footer shows the model (callgrind_control -d then), for judging a change on a shared machine
// where wall time moves by 2× run to run. Builds alternate run by run, each in its own home with its
// own warm code cache (one unmeasured warm-up start each, ended like the bench's: its tmux server is
// killed once the footer shows). `floor` as a cli runs bench/floor/screen.mjs instead.
//
//   npm run build && node bench/screen-instr.mjs [runs=3] <cli.js | floor> [<other cli.js> …]
//
// SESSION=<entries>: each start resumes a generated session of that many entries (`--session <a fresh
// copy>` instead of `--no-session`): the first screen of a resumed conversation, its history rendered.
// AFTER_PRINT=1: each home's first run is a `-p` run (its answer from a local fake provider), then
// the warm-up start: the code cache as a user has it whose first run after an install was `-p`.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateSession } from "./session-gen.mjs";
import { chunk, makeFloorHome } from "./support/floor-home.mjs";

const runs = Number(process.argv[2] ?? 3);
const floorScript = resolve(import.meta.dirname, "floor/screen.mjs");
const clis = process.argv.slice(3).map((p) => (p === "floor" ? floorScript : resolve(p)));
if (clis.length === 0) throw new Error("usage: node bench/screen-instr.mjs [runs] <cli.js | floor> …");
const afterPrint = process.env.AFTER_PRINT === "1";
// KEEP=<dir>: each run's callgrind dump is copied there (<dir>/<build index>-<run>.cg) for callgrind_annotate.
const keep = process.env.KEEP ? resolve(process.env.KEEP) : undefined;
// AT_FRAME=1: count up to the first write that shows the footer, not up to the moment this script sees it in
// the pane (by then the app has gone on with work after its first frame: marked, the extensions' start). A
// --require probe ends the process (process.reallyExit, no exit handlers: the code cache is not rewritten)
// at that write; callgrind's count at exit is the figure. The warm-up starts run without the probe.
const atFrame = process.env.AT_FRAME === "1";
const frameProbe = join(import.meta.dirname, "support", "exit-at-footer.cjs");

const server = createServer((req, res) => {
	req.resume();
	req.on("end", () => {
		res.writeHead(200, { "content-type": "text/event-stream" });
		res.end(`${chunk({ role: "assistant", content: "ok" })}${chunk({}, "stop")}data: [DONE]\n\n`);
	});
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));

const root = mkdtempSync(join(tmpdir(), "pi-screen-instr-"));
// PI_FRAME_CACHE=off: the app's own first frame (without it, a start after the warm-up paints the early
// frame, and AT_FRAME counts only up to that paint).
const makeHome = (i) => {
	const home = makeFloorHome(root, `h${i}`, `http://127.0.0.1:${server.address().port}/v1`);
	if (process.env.PI_FRAME_CACHE) home.env.PI_FRAME_CACHE = process.env.PI_FRAME_CACHE;
	return home;
};

const sessionEntries = Number(process.env.SESSION ?? 0);
const sessionSource = sessionEntries > 0 ? join(root, `session-${sessionEntries}.jsonl`) : undefined;
if (sessionSource) generateSession(sessionSource, sessionEntries, 1800);

const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
/** The arguments of a start in `home`; with SESSION, a fresh copy of the session for it to resume. */
const argsOf = (cli, home) => {
	if (cli === floorScript) return [cli];
	if (!sessionSource) return [cli, "--no-session", "--model", "fake/fake-model"];
	const copy = join(home.home, "resume.jsonl");
	copyFileSync(sessionSource, copy);
	return [cli, "--session", copy, "--model", "fake/fake-model"];
};
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** One start in tmux up to the footer; under callgrind (dumped there) when `out` is given. */
async function start(cli, home, out) {
	const socket = `pi-screen-instr-${process.pid}-${Math.random().toString(36).slice(2)}`;
	const tmux = (...a) => execFileSync("tmux", ["-L", socket, ...a], { encoding: "utf8" });
	const env = Object.entries({ ...home.env, ...(out && atFrame ? { NODE_OPTIONS: `--require ${frameProbe}` } : {}) })
		.map(([k, v]) => `${k}=${q(v)}`)
		.join(" ");
	const cmd = out
		? ["valgrind", "--tool=callgrind", `--callgrind-out-file=${out}`, process.execPath, ...argsOf(cli, home)]
		: [process.execPath, ...argsOf(cli, home)];
	const shell = `env -i ${env} ${cmd.map(q).join(" ")} 2>/dev/null; echo "[exited $?]"; sleep 60`;
	tmux("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-c", home.cwd, shell);
	try {
		const deadline = Date.now() + 120_000;
		for (;;) {
			const pane = tmux("capture-pane", "-p", "-t", "0");
			if (out && atFrame) {
				if (!pane.includes("[exited ")) {
					if (Date.now() > deadline) throw new Error(`no first screen:\n${pane}`);
					await pause(5);
					continue;
				}
				const total = /^totals:\s*(\d+)/m.exec(readFileSync(out, "utf8"))?.[1];
				if (!pane.includes("[exited 0]") || !total) throw new Error(`no first screen:\n${pane}`);
				return Number(total) / 1e6;
			}
			if (/fake-model/.test(pane)) break;
			if (pane.includes("[exited ") || Date.now() > deadline) throw new Error(`no first screen:\n${pane}`);
			await pause(5);
		}
		if (!out) return undefined;
		// valgrind itself (its wrapper may exec valgrind.bin), not the tmux or shell lines that name it quoted.
		const pattern = `^\\S*valgrind\\S* --tool=callgrind --callgrind-out-file=${out} `;
		const pid = execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim().split("\n")[0];
		execFileSync("callgrind_control", ["-d", pid], { stdio: "ignore" });
		// The dump is complete once its totals line is there.
		for (let i = 0; i < 500; i++) {
			const total = existsSync(`${out}.1`) && /^totals:\s*(\d+)/m.exec(readFileSync(`${out}.1`, "utf8"))?.[1];
			if (total) return Number(total) / 1e6;
			await pause(20);
		}
		throw new Error(`no callgrind dump at ${out}.1`);
	} finally {
		try {
			tmux("kill-server");
		} catch {
			// already gone
		}
	}
}

const homes = clis.map((_, i) => makeHome(i));
for (let c = 0; c < clis.length; c++) {
	if (afterPrint && clis[c] !== floorScript) {
		// Asynchronously: the fake provider answers from this process.
		const child = spawn(process.execPath, [clis[c], "-p", "--no-session", "--model", "fake/fake-model", "hi"], {
			env: homes[c].env,
			cwd: homes[c].cwd,
			stdio: ["ignore", "ignore", "inherit"],
		});
		const code = await new Promise((r) => child.on("exit", r));
		if (code !== 0) throw new Error(`${clis[c]} -p failed (${code})`);
	}
	await start(clis[c], homes[c]);
	await pause(500); // the killed warm-up writes its code cache at exit
}
const samples = clis.map(() => []);
for (let i = 1; i <= runs; i++) {
	for (let c = 0; c < clis.length; c++) {
		const outDir = join(root, `cg-${c}-${i}`);
		mkdirSync(outDir);
		const m = await start(clis[c], homes[c], join(outDir, "cg.out"));
		samples[c].push(m);
		if (keep) {
			mkdirSync(keep, { recursive: true });
			copyFileSync(join(outDir, atFrame ? "cg.out" : "cg.out.1"), join(keep, `${c}-${i}.cg`));
		}
		console.log(`${clis[c]} run ${i}: ${m.toFixed(1)}M to the footer`);
		await pause(300);
	}
}
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(
	`\n| cli${afterPrint ? " (first run -p)" : ""} | instructions to the footer, Mi (median) | runs |\n|---|---|---|`,
);
for (let c = 0; c < clis.length; c++) {
	console.log(`| ${clis[c]} | ${median(samples[c]).toFixed(0)} | ${samples[c].map((x) => x.toFixed(0)).join(" ")} |`);
}
server.close();
rmSync(root, { recursive: true, force: true });
