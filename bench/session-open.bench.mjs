// Open + first projection of a generated 100k-entry (~100 MB, v3) session:
// ours vs the reference 0.73.1 SessionManager, each in a fresh child process,
// alternating, same file, same run.
//
//   node bench/session-open.bench.mjs [runs=5] [entries=100000]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleOurs, median, REF_SESSION_MANAGER, repoRoot } from "./session-bundle.mjs";
import { generateSession } from "./session-gen.mjs";

const runs = Number(process.argv[2] ?? 5);
const entries = Number(process.argv[3] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), "pi-bench-open-"));
const file = join(dir, "big.jsonl");
generateSession(file, entries, 1800);
const ours = bundleOurs();
const child = join(repoRoot, "bench", "session-open-child.mjs");
const measure = (mod) => JSON.parse(execFileSync(process.execPath, [child, mod, file], { encoding: "utf8" }));

const results = { ours: [], ref: [] };
if (!existsSync(REF_SESSION_MANAGER)) throw new Error(`reference not installed at ${REF_SESSION_MANAGER}`);
for (let i = 0; i < runs; i++) {
	results.ref.push(measure(REF_SESSION_MANAGER));
	results.ours.push(measure(ours));
}
const summary = (rs) => ({
	medianMs: Math.round(median(rs.map((r) => r.ms))),
	medianPeakRssMiB: Math.round(median(rs.map((r) => r.rssMiB))),
	messages: rs[0].messages,
});
const o = summary(results.ours);
const r = summary(results.ref);
console.log(`file: ${(statSync(file).size / 1e6).toFixed(1)} MB, ${entries} entries, ${runs} runs each (alternating)`);
console.log("reference 0.73.1:", JSON.stringify(r));
console.log("ours:            ", JSON.stringify(o));
console.log(
	`time ratio ${(o.medianMs / r.medianMs).toFixed(2)}x (bar <= 0.5x), memory ratio ${(o.medianPeakRssMiB / r.medianPeakRssMiB).toFixed(2)}x (bar <= 0.7x)`,
);
if (o.messages !== r.messages) console.log(`WARNING: projected message counts differ (${o.messages} vs ${r.messages})`);
