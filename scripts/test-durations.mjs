// Writes test/durations.json (each test file's duration in seconds, for the
// longest-first ordering in test/sequencer.ts) from a vitest JSON report:
//   npx vitest run --reporter=json --outputFile=/tmp/report.json
//   node scripts/test-durations.mjs /tmp/report.json
// With --merge, only the files in the report get new figures and the others
// keep theirs (after re-running just the files a change touched):
//   node scripts/test-durations.mjs --merge /tmp/report.json
// A file added since is guessed at one second by the sequencer.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";

const args = process.argv.slice(2);
const merge = args.includes("--merge");
const report = args.find((a) => a !== "--merge");
if (!report) {
	console.error("usage: node scripts/test-durations.mjs [--merge] <vitest json report>");
	process.exit(1);
}
const root = resolve(import.meta.dirname, "..");
const target = resolve(root, "test/durations.json");
const { testResults } = JSON.parse(readFileSync(report, "utf8"));
const fresh = testResults.map((file) => [
	relative(root, file.name),
	Math.round((file.endTime - file.startTime) / 100) / 10,
]);
const kept = merge && existsSync(target) ? JSON.parse(readFileSync(target, "utf8")) : {};
const rows = Object.entries({ ...kept, ...Object.fromEntries(fresh) }).sort((a, b) => b[1] - a[1]);
writeFileSync(target, `${JSON.stringify(Object.fromEntries(rows), null, "\t")}\n`);
console.log(`test/durations.json: ${rows.length} files (${fresh.length} from the report)`);
