// Open + first projection of a generated 100k-entry (~100 MB, v3) session:
// ours vs the reference 0.73.1 SessionManager, each in a fresh child process,
// alternating, same file, same run. INDEX=1 adds ours with the session index
// (index-cache.ts): "unchanged" (the file untouched since its index was
// written: nothing of the session is read) and "verified" (the file's times
// changed, as after an append: the indexed bytes' CRC is checked), each on its
// own copy of the file.
//
//   node bench/session-open.bench.mjs [runs=5] [entries=100000]
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, statSync, utimesSync } from "node:fs";
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
const measure = (mod, f = file, indexDir) =>
	JSON.parse(execFileSync(process.execPath, [child, mod, f, ...(indexDir ? [indexDir] : [])], { encoding: "utf8" }));

const withIndex = process.env.INDEX === "1";
const indexed = {};
if (withIndex) {
	// Each case's own copy and index; after the first open writes the index, the file is left alone
	// until its last change is past index-cache.ts's RACY_MS (2 s), and opened again so the index
	// holds a stamp that is trusted on its own.
	for (const kind of ["unchanged", "verified"]) {
		const copy = join(dir, `${kind}.jsonl`);
		copyFileSync(file, copy);
		const indexDir = join(dir, `index-${kind}`);
		measure(ours, copy, indexDir);
		indexed[kind] = { copy, indexDir };
	}
	await new Promise((r) => setTimeout(r, 2100));
	for (const { copy, indexDir } of Object.values(indexed)) measure(ours, copy, indexDir);
}
const results = { ours: [], ref: [], "ours, index unchanged": [], "ours, index verified": [] };
if (!existsSync(REF_SESSION_MANAGER)) throw new Error(`reference not installed at ${REF_SESSION_MANAGER}`);
for (let i = 0; i < runs; i++) {
	results.ref.push(measure(REF_SESSION_MANAGER));
	results.ours.push(measure(ours));
	if (withIndex) {
		results["ours, index unchanged"].push(measure(ours, indexed.unchanged.copy, indexed.unchanged.indexDir));
		const now = new Date();
		utimesSync(indexed.verified.copy, now, now);
		results["ours, index verified"].push(measure(ours, indexed.verified.copy, indexed.verified.indexDir));
	}
}
const summary = (rs) => ({
	medianMs: Math.round(median(rs.map((r) => r.ms))),
	medianCpuMs: Math.round(median(rs.map((r) => r.cpuMs ?? Number.NaN))),
	medianPeakRssMiB: Math.round(median(rs.map((r) => r.rssMiB))),
	messages: rs[0].messages,
});
const o = summary(results.ours);
const r = summary(results.ref);
console.log(`file: ${(statSync(file).size / 1e6).toFixed(1)} MB, ${entries} entries, ${runs} runs each (alternating)`);
console.log("reference 0.73.1:", JSON.stringify(r));
console.log("ours:            ", JSON.stringify(o));
if (withIndex) {
	for (const kind of ["ours, index unchanged", "ours, index verified"]) {
		const s = summary(results[kind]);
		console.log(`${kind}:`, JSON.stringify(s));
		if (s.messages !== o.messages) console.log(`WARNING: ${kind} projects ${s.messages} messages, ours ${o.messages}`);
	}
}
console.log(
	`time ratio ${(o.medianMs / r.medianMs).toFixed(2)}x (bar <= 0.5x), memory ratio ${(o.medianPeakRssMiB / r.medianPeakRssMiB).toFixed(2)}x (bar <= 0.7x)`,
);
if (o.messages !== r.messages) console.log(`WARNING: projected message counts differ (${o.messages} vs ${r.messages})`);
