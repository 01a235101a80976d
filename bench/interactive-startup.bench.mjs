// Time from process start to an input-ready interactive prompt, ours (built
// dist/cli.js) and the reference 0.73.1, side by side. Each app runs in its
// own tmux server (100×30); the pane is polled every 5 ms until the footer
// shows the model (drawn in the same frame as the empty editor). Temporary
// HOME/agent dir, a models.json with one model on a closed local port,
// PI_OFFLINE=1. One warm-up each, then N runs alternating ours/reference.
//
//   npm run build && node bench/interactive-startup.bench.mjs [runs]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const RUNS = Number(process.argv[2]) || 7;
const ours = resolve(import.meta.dirname, "../packages/coding-agent/dist/cli.js");
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
const reference = join(refDir, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js");

const root = mkdtempSync(join(tmpdir(), "pi-istart-"));
const home = join(root, "home");
const agentDir = join(home, ".pi", "agent");
const cwd = join(root, "work");
mkdirSync(agentDir, { recursive: true });
mkdirSync(cwd, { recursive: true });
writeFileSync(
	join(agentDir, "models.json"),
	JSON.stringify({
		providers: {
			fake: {
				baseUrl: "http://127.0.0.1:9/v1",
				api: "openai-completions",
				apiKey: "fake-key",
				models: [{ id: "fake-model", contextWindow: 100000 }],
			},
		},
	}),
);

const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
let n = 0;
async function once(cli) {
	const socket = `pi-istart-${process.pid}-${++n}`;
	const tmux = (...a) => execFileSync("tmux", ["-L", socket, ...a], { encoding: "utf8" });
	const env = `env HOME=${q(home)} PI_CODING_AGENT_DIR=${q(agentDir)} PI_OFFLINE=1 TERM=xterm-256color PATH=${q(process.env.PATH)}`;
	const start = performance.now();
	tmux(
		"-f",
		"/dev/null",
		"new-session",
		"-d",
		"-x",
		"100",
		"-y",
		"30",
		"-c",
		cwd,
		`${env} ${q(process.execPath)} ${q(cli)} --no-session; echo "[exited $?]"; sleep 30`,
	);
	try {
		for (;;) {
			const pane = tmux("capture-pane", "-p", "-t", "0");
			if (/fake-model\s*$/m.test(pane)) return performance.now() - start;
			if (pane.includes("[exited ")) throw new Error(`exited before the prompt:\n${pane}`);
			if (performance.now() - start > 30_000) throw new Error(`no prompt after 30 s:\n${pane}`);
			await new Promise((r) => setTimeout(r, 5));
		}
	} finally {
		try {
			tmux("kill-server");
		} catch {
			// the server is already gone
		}
		rmSync(join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${process.getuid()}`, socket), { force: true });
	}
}

/** One timed start; a tmux server failing under load (not the app) is retried. */
async function timed(cli) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await once(cli);
		} catch (error) {
			if (attempt >= 3 || String(error).includes("exited before the prompt")) throw error;
		}
	}
}

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
};
await timed(ours);
await timed(reference);
const times = { ours: [], reference: [] };
for (let i = 0; i < RUNS; i++) {
	times.ours.push(await timed(ours));
	times.reference.push(await timed(reference));
}
rmSync(root, { recursive: true, force: true });
const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(" ");
const mo = median(times.ours);
const mr = median(times.reference);
console.log(`runs: ${RUNS} each, alternating`);
console.log(`ours       median ${mo.toFixed(0)} ms   (${fmt(times.ours)})`);
console.log(`reference  median ${mr.toFixed(0)} ms   (${fmt(times.reference)})`);
console.log(`ratio ours/reference: ${(mo / mr).toFixed(3)} (bar <= 0.2)`);
