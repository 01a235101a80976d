// Writes test/durations.json (each test file's duration in seconds, for the
// longest-first ordering in test/sequencer.ts) from a vitest JSON report:
//   npx vitest run --reporter=json --outputFile=/tmp/report.json
//   node scripts/test-durations.mjs /tmp/report.json
// A file added since is guessed at one second by the sequencer.
import { readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";

const report = process.argv[2];
if (!report) {
	console.error("usage: node scripts/test-durations.mjs <vitest json report>");
	process.exit(1);
}
const root = resolve(import.meta.dirname, "..");
const { testResults } = JSON.parse(readFileSync(report, "utf8"));
const rows = testResults
	.map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
	.sort((a, b) => b[1] - a[1]);
writeFileSync(resolve(root, "test/durations.json"), `${JSON.stringify(Object.fromEntries(rows), null, "\t")}\n`);
console.log(`test/durations.json: ${rows.length} files`);
