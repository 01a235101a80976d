// Cost of planning a compaction on a 10k-message branch: choosing the cut
// point on the projected context and preparing the summary request (the
// serialized transcript and prompt), ours vs the reference's
// prepareCompaction + serializeConversation(convertToLlm(...)), same branch.
// The model call itself is not included.
//
//   node bench/compaction-cut.bench.mjs [messages=10000] [samples=40]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { median, percentile, repoRoot } from "./session-bundle.mjs";

const size = Number(process.argv[2] ?? 10_000);
const samples = Number(process.argv[3] ?? 40);
const refRoot = join(
	process.env.PI_REFERENCE_DIR ?? "/work/ref073",
	"node_modules/@mariozechner/pi-coding-agent/dist/core",
);

function bundle() {
	const out = join(mkdtempSync(join(tmpdir(), "pi-bench-compaction-")), "compaction.mjs");
	const src = "./packages/coding-agent/src";
	buildSync({
		stdin: {
			contents: [
				`export { SessionManager } from "${src}/session/session-manager.ts";`,
				`export { buildSessionProjection } from "${src}/session/projection.ts";`,
				`export { prepareCompaction } from "${src}/agent-session/compaction/prepare.ts";`,
				`export { Compactor } from "${src}/agent-session/compaction/compactor.ts";`,
				`export { buildCompactionRequests } from "${src}/agent-session/compaction/summarize.ts";`,
			].join("\n"),
			resolveDir: repoRoot,
			loader: "ts",
		},
		bundle: true,
		platform: "node",
		format: "esm",
		target: "node20",
		conditions: ["development"],
		outfile: out,
		logLevel: "silent",
	});
	return out;
}

const ours = await import(bundle());
const refSession = await import(join(refRoot, "session-manager.js"));
const refCompaction = await import(join(refRoot, "compaction/index.js"));
const refMessages = await import(join(refRoot, "messages.js"));

const usage = (input) => ({
	input,
	output: 20,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: input + 20,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
// Turns of four messages: a prompt, a read call, its result, an answer.
function message(i) {
	const turn = Math.floor(i / 4);
	switch (i % 4) {
		case 0:
			return { role: "user", content: [{ type: "text", text: `task ${turn}: ${"q".repeat(300)}` }], timestamp: i };
		case 1:
			return {
				role: "assistant",
				content: [
					{ type: "toolCall", id: `call_${turn}`, name: "read", arguments: { path: `src/file${turn % 300}.ts` } },
				],
				api: "openai-completions",
				provider: "p",
				model: "m",
				usage: usage(1000 + i),
				stopReason: "toolUse",
				timestamp: i,
			};
		case 2:
			return {
				role: "toolResult",
				toolCallId: `call_${turn}`,
				toolName: "read",
				content: [{ type: "text", text: "r".repeat(1500) }],
				isError: false,
				timestamp: i,
			};
		default:
			return {
				role: "assistant",
				content: [{ type: "text", text: `done ${turn}: ${"a".repeat(400)}` }],
				api: "openai-completions",
				provider: "p",
				model: "m",
				usage: usage(1000 + i),
				stopReason: "stop",
				timestamp: i,
			};
	}
}

const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
const model = {
	id: "m",
	name: "m",
	api: "openai-completions",
	provider: "p",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 200_000,
	maxTokens: 32_000,
};

function measure(name, fn) {
	fn(); // warm-up
	const times = [];
	let last;
	for (let i = 0; i < samples; i++) {
		const t0 = performance.now();
		last = fn();
		times.push(performance.now() - t0);
	}
	return { name, median: median(times), p90: percentile(times, 90), last };
}

// Each side is measured with only its own branch in memory (the other's heap would slow its GCs).
const sm = ours.SessionManager.inMemory("/bench");
for (let i = 0; i < size; i++) sm.appendMessage(message(i));
sm.buildSessionProjection(); // the session keeps its projection warm between requests

// What AgentSession runs: Compactor.prepare (walk back to at least keepRecentTokens) + the request.
const compactor = new ours.Compactor({
	sessionManager: sm,
	getModel: () => model,
	getThinkingLevel: () => "off",
	getStreamFn: () => undefined,
	getApiKey: () => undefined,
	getCompactionSettings: () => settings,
	getBranchSummarySettings: () => ({ reserveTokens: 16384, skipPrompt: false }),
	emit: () => {},
});
const oursWarm = measure("ours: cut point + summary request (projection cached)", () => {
	const prep = compactor.prepare("threshold");
	const req = ours.buildCompactionRequests(prep, model);
	return { prep, chars: req.history.context.messages[0].content[0].text.length };
});
const entries = sm.getEntries();
const oursCold = measure("ours: projection from scratch + prepareCompaction + request", () => {
	const prep = ours.prepareCompaction(ours.buildSessionProjection(entries), settings);
	const req = ours.buildCompactionRequests(prep, model);
	return { prep, chars: req.history.context.messages[0].content[0].text.length };
});
const refSm = refSession.SessionManager.inMemory("/bench");
for (let i = 0; i < size; i++) refSm.appendMessage(message(i));
const ref = measure("reference 0.73.1: prepareCompaction + serializeConversation", () => {
	const prep = refCompaction.prepareCompaction(refSm.getBranch(), settings);
	const text = refCompaction.serializeConversation(refMessages.convertToLlm(prep.messagesToSummarize));
	return { prep, chars: text.length };
});

console.log(`branch: ${size} messages; keepRecentTokens ${settings.keepRecentTokens}; ${samples} samples\n`);
console.log("| case | median ms | p90 ms | summarized msgs | kept from | transcript chars |");
console.log("|---|---|---|---|---|---|");
for (const r of [oursWarm, oursCold, ref]) {
	const p = r.last.prep;
	console.log(
		`| ${r.name} | ${r.median.toFixed(2)} | ${r.p90.toFixed(2)} | ${p.messagesToSummarize.length} | ${p.firstKeptEntryId ? "entry" : "-"} | ${r.last.chars} |`,
	);
}
if (oursWarm.median > 20) {
	console.error(`over the 20 ms bar: ${oursWarm.median.toFixed(2)} ms`);
	process.exitCode = 1;
}
