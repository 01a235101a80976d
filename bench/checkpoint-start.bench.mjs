// builtin:checkpoints' start snapshot and the first request: resume a generated
// session with `-p`, this build against BASE_CLI (another build's dist/cli.js,
// kept inside the repo so its imports resolve), alternating. A `git` first on
// PATH logs each command's start and end (bench/checkpoint-start-git.sh): how
// many ended before the fake provider saw the request, and their time.
//   BASE_CLI=<dist/cli.js> [DELAY_MS=100] node bench/checkpoint-start.bench.mjs [runs=9] [entries=100000]
// DELAY_MS: the provider answers after that long (a model's time to first byte).
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { createServer } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateSession } from "./session-gen.mjs";
import { makeFloorHome, textReply } from "./support/floor-home.mjs";

const runs = Number(process.argv[2] ?? 9);
const entries = Number(process.argv[3] ?? 100000);
const ours = resolve(import.meta.dirname, "../packages/coding-agent/dist/cli.js");
const base = process.env.BASE_CLI;
if (!base) throw new Error("BASE_CLI=<another build's dist/cli.js> is needed");
const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
let reqAt = [];
let respEnd = [];
const server = createServer((req, res) => {
	const t = Date.now();
	req.resume();
	req.on("end", () => {
		reqAt.push(t);
		setTimeout(
			() => {
				res.writeHead(200, { "content-type": "text/event-stream" });
				res.end(textReply("ok"), () => respEnd.push(Date.now()));
			},
			Number(process.env.DELAY_MS ?? 0),
		);
	});
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
const root = mkdtempSync(join(tmpdir(), "cpd-"));
mkdirSync("/tmp/bench-project", { recursive: true });
const src = join(root, "s.jsonl");
generateSession(src, entries, 1800);
const size = statSync(src).size;
const cases = [
	["new", ours],
	["base", base],
].map(([name, cli]) => {
	const home = makeFloorHome(root, name, baseUrl);
	const copy = join(home.home, "s.jsonl");
	copyFileSync(src, copy);
	return { name, cli, home, copy, rows: [] };
});
const log = join(root, "git.log");
const gitBin = join(root, "bin");
mkdirSync(gitBin);
copyFileSync(join(import.meta.dirname, "checkpoint-start-git.sh"), join(gitBin, "git"));
chmodSync(join(gitBin, "git"), 0o755);
for (let i = 0; i <= runs; i++) {
	for (const c of cases) {
		rmSync(log, { force: true });
		reqAt = [];
		respEnd = [];
		const env = { ...c.home.env, PATH: `${gitBin}:${process.env.PATH}`, CPD_GITLOG: log, CPD_REAL_GIT: realGit };
		const start = Date.now();
		const child = spawn(process.execPath, [c.cli, "-p", "--session", c.copy, "--model", "fake/fake-model", "hi"], {
			env,
			cwd: c.home.cwd,
			stdio: "ignore",
		});
		await new Promise((r) => child.on("exit", r));
		const end = Date.now();
		truncateSync(c.copy, size);
		let gits = [];
		try {
			gits = readFileSync(log, "utf8")
				.trim()
				.split("\n")
				.filter(Boolean)
				.map((l) => {
					const [a, b, s] = l.split(" ");
					return { a: Number(a) / 1e6, b: Number(b) / 1e6, s };
				});
		} catch {}
		const req = reqAt[0];
		const beforeReq = gits.filter((g) => g.b <= req);
		const gitMsBefore = beforeReq.reduce((x, g) => x + (g.b - g.a), 0);
		if (i > 0)
			c.rows.push({
				before: req - start,
				gitBefore: beforeReq.length,
				gitMsBefore,
				gitAll: gits.length,
				exit: end - respEnd.at(-1),
				wall: end - start,
				subs: gits.map((g) => g.s).join(","),
			});
	}
}
const med = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[(s.length - 1) >> 1];
};
console.log(`load ${loadavg()[0].toFixed(1)}; ${runs} alternating runs, ${entries}-entry session, median`);
console.log(
	"| build | before request ms | git commands ended before the request | their ms | git commands logged in the run | last response → exit ms | wall ms |",
);
console.log("|---|---|---|---|---|---|---|");
for (const c of cases)
	console.log(
		`| ${c.name} | ${med(c.rows.map((r) => r.before))} | ${med(c.rows.map((r) => r.gitBefore))} | ${med(c.rows.map((r) => r.gitMsBefore)).toFixed(1)} | ${med(c.rows.map((r) => r.gitAll))} | ${med(c.rows.map((r) => r.exit))} | ${med(c.rows.map((r) => r.wall))} |`,
	);
for (const c of cases) console.log(`${c.name}: git commands of the first run: ${c.rows[0].subs}`);
server.close();
rmSync(root, { recursive: true, force: true });
