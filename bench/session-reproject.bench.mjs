// Re-projection after appending one entry to a 10k-entry branch (the work
// done before every model request), ours vs the reference's
// buildSessionContext, plus the cost of one durable append.
//
//   node bench/session-reproject.bench.mjs [branchEntries=10000] [samples=500]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleOurs, median, percentile, REF_SESSION_MANAGER } from "./session-bundle.mjs";

const size = Number(process.argv[2] ?? 10_000);
const samples = Number(process.argv[3] ?? 500);
const ours = await import(bundleOurs());
const ref = await import(REF_SESSION_MANAGER);

const usage = {
	input: 1,
	output: 1,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 2,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const msg = (i) =>
	i % 2 === 0
		? { role: "user", content: [{ type: "text", text: `question ${i} ${"x".repeat(200)}` }], timestamp: i }
		: {
				role: "assistant",
				content: [{ type: "text", text: `answer ${i} ${"y".repeat(400)}` }],
				api: "openai-completions",
				provider: "p",
				model: "m",
				usage,
				stopReason: "stop",
				timestamp: i,
			};

function run(name, sm) {
	for (let i = 0; i < size; i++) sm.appendMessage(msg(i));
	sm.buildSessionContext(); // warm: the projection of the branch so far is cached
	const project = [];
	const append = [];
	for (let i = 0; i < samples; i++) {
		const a0 = performance.now();
		sm.appendMessage(msg(size + i));
		const a1 = performance.now();
		const ctx = sm.buildSessionContext();
		const a2 = performance.now();
		if (ctx.messages.length !== size + i + 1) throw new Error(`${name}: wrong projection`);
		append.push(a1 - a0);
		project.push(a2 - a1);
	}
	return { project, append };
}

const dir = mkdtempSync(join(tmpdir(), "pi-bench-reproject-"));
const fmt = (xs) => `median ${median(xs).toFixed(3)} ms, p95 ${percentile(xs, 95).toFixed(3)} ms`;
const oursMem = run("ours in-memory", ours.SessionManager.inMemory("/bench"));
const oursFsync = run(
	"ours file fsync",
	ours.SessionManager.create("/bench", join(dir, "fsync"), {}, { durability: "fsync" }),
);
const oursWrite = run(
	"ours file write",
	ours.SessionManager.create("/bench", join(dir, "write"), {}, { durability: "write" }),
);
const refFile = run("reference file", ref.SessionManager.create("/bench", join(dir, "ref")));
console.log(`branch of ${size} entries, ${samples} samples (append one message, then project)`);
console.log(`ours, re-projection:            ${fmt(oursMem.project)}   (bar <= 1 ms median)`);
console.log(`reference buildSessionContext:  ${fmt(refFile.project)}`);
console.log(`ours, append (durability fsync): ${fmt(oursFsync.append)}`);
console.log(`ours, append (durability write): ${fmt(oursWrite.append)}`);
console.log(`reference append (appendFileSync): ${fmt(refFile.append)}`);
