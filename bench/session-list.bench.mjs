// Listing 5,000 session files across 50 projects (first message, name,
// counts, mtime), ours vs the reference's SessionManager.listAll, each in a
// fresh child process (cold = first listing in the process; warm = again).
//
//   node bench/session-list.bench.mjs [files=5000] [runs=3]
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleOurs, median, REF_SESSION_MANAGER, repoRoot } from "./session-bundle.mjs";

const files = Number(process.argv[2] ?? 5000);
const runs = Number(process.argv[3] ?? 3);
const agentDir = mkdtempSync(join(tmpdir(), "pi-bench-list-"));
const root = join(agentDir, "sessions");
const usage = {
	input: 1,
	output: 1,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 2,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
let bytes = 0;
for (let f = 0; f < files; f++) {
	const project = `/home/user/project-${f % 50}`;
	const dir = join(root, `--${project.slice(1).replace(/\//g, "-")}--`);
	mkdirSync(dir, { recursive: true });
	const id = `0190${f.toString(16).padStart(4, "0")}-0000-7000-8000-000000000000`;
	const ts = new Date(Date.UTC(2026, 0, 1) + f * 60_000).toISOString();
	const lines = [JSON.stringify({ type: "session", version: 3, id, timestamp: ts, cwd: project })];
	let parent = null;
	const turns = 5 + (f % 10);
	for (let i = 0; i < turns * 2; i++) {
		const eid = `${f.toString(16).padStart(4, "0")}${i.toString(16).padStart(4, "0")}`;
		const message =
			i % 2 === 0
				? {
						role: "user",
						content: [
							{ type: "text", text: `task ${f}.${i}: please refactor the module ${"and more words ".repeat(10)}` },
						],
						timestamp: i,
					}
				: {
						role: "assistant",
						content: [{ type: "text", text: `done ${"explanation ".repeat(60)}` }],
						api: "anthropic-messages",
						provider: "p",
						model: "m",
						usage,
						stopReason: "stop",
						timestamp: i,
					};
		lines.push(JSON.stringify({ type: "message", id: eid, parentId: parent, timestamp: ts, message }));
		parent = eid;
	}
	if (f % 7 === 0)
		lines.push(
			JSON.stringify({
				type: "session_info",
				id: `${f}`.padStart(8, "f"),
				parentId: parent,
				timestamp: ts,
				name: `named ${f}`,
			}),
		);
	const text = `${lines.join("\n")}\n`;
	bytes += text.length;
	writeFileSync(join(dir, `${ts.replace(/[:.]/g, "-")}_${id}.jsonl`), text);
}
const ours = bundleOurs();
const child = join(repoRoot, "bench", "session-list-child.mjs");
const measure = (impl, mod) =>
	JSON.parse(execFileSync(process.execPath, [child, impl, mod, root], { encoding: "utf8" }));
const dropIndexes = () => rmSync(join(root, ".pi-index"), { recursive: true, force: true });
const res = { ours: [], oursIndexed: [], ref: [] };
for (let i = 0; i < runs; i++) {
	res.ref.push(measure("ref", REF_SESSION_MANAGER));
	dropIndexes();
	res.ours.push(measure("ours", ours)); // first listing ever: reads every file, writes the indexes
	res.oursIndexed.push(measure("ours", ours)); // a later pi process: indexes + one stat per file
}
const s = (rs) => ({
	coldMs: Math.round(median(rs.map((r) => r.coldMs))),
	warmMs: Math.round(median(rs.map((r) => r.warmMs))),
	count: rs[0].count,
});
console.log(`${files} files in 50 project dirs, ${(bytes / 1e6).toFixed(1)} MB total, ${runs} runs each`);
console.log("reference listAll:", JSON.stringify(s(res.ref)));
console.log("ours, no index yet (reads every file):", JSON.stringify(s(res.ours)));
console.log("ours, fresh process with index:", JSON.stringify(s(res.oursIndexed)), "(bar <= 300 ms)");
