// Agent loop overhead per turn: an Agent run where every turn is one
// zero-latency fake response calling a no-op tool, ours vs the reference
// @mariozechner/pi-agent-core@0.73.1, measured side by side in one run.
//
//   node bench/agent-loop.bench.mjs            (orchestrator: alternates fresh worker processes)
//
// Ours is bundled from source with esbuild (no build step needed); the
// reference is imported from its published dist. Each worker warms up, then
// times RUNS runs of TURNS turns (turns/s), then measures allocation: with a
// young generation large enough that no GC runs, the heap growth over a batch
// of turns is the bytes allocated per turn (GC events are counted to check).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
const TURNS = 50; // turns per run (49 tool turns + a final answer)
const RUNS = 400; // timed runs per worker
const BATCHES = 10;
const WARMUP_RUNS = 150;
const ALLOC_TURNS = 2000;
const ROUNDS = Number(process.env.ROUNDS ?? 3);

if (process.argv[2] === "worker") {
	await worker(process.argv[3], process.argv[4], process.argv[5]);
} else {
	await orchestrate();
}

async function orchestrate() {
	const { build } = await import("esbuild");
	// Inside the repo so the bundle's external imports resolve from its node_modules.
	mkdirSync(join(root, "node_modules/.cache"), { recursive: true });
	const dir = mkdtempSync(join(root, "node_modules/.cache/pi-agent-bench-"));
	try {
		const entry = join(dir, "entry.ts");
		writeFileSync(
			entry,
			[
				`export { Agent } from ${JSON.stringify(join(root, "packages/agent/src/index.ts"))};`,
				`export { AssistantMessageEventStream } from ${JSON.stringify(join(root, "packages/ai/src/index.ts"))};`,
				`export { Type } from "typebox";`,
			].join("\n"),
		);
		const bundle = join(dir, "ours.mjs");
		await build({
			entryPoints: [entry],
			outfile: bundle,
			bundle: true,
			format: "esm",
			platform: "node",
			target: "node20",
			conditions: ["development"],
			logLevel: "error",
			nodePaths: [join(root, "node_modules")],
			plugins: [
				{
					name: "external-npm",
					setup(b) {
						b.onResolve({ filter: /^[^./]/ }, (args) =>
							args.path.startsWith("@pi/") || args.path === "typebox" || args.path.startsWith("typebox/")
								? undefined
								: { path: args.path, external: true },
						);
					},
				},
			],
		});
		const results = { ours: [], reference: [] };
		for (let round = 0; round < ROUNDS; round++) {
			for (const impl of round % 2 === 0 ? ["ours", "reference"] : ["reference", "ours"]) {
				// Timing runs with default GC settings; allocation runs with a young generation big enough for no GC.
				const run = (mode, flags) => {
					const child = spawnSync(
						process.execPath,
						[...flags, fileURLToPath(import.meta.url), "worker", impl, bundle, mode],
						{
							encoding: "utf8",
							cwd: root,
						},
					);
					if (child.status !== 0) {
						console.error(child.stderr);
						process.exit(1);
					}
					return JSON.parse(child.stdout.trim().split("\n").at(-1));
				};
				const timing = run("time", []);
				const alloc = run("alloc", ["--expose-gc", "--min-semi-space-size=256", "--max-semi-space-size=256"]);
				results[impl].push({ ...timing, bytesPerTurn: alloc.bytesPerTurn, gcCount: alloc.gcCount });
			}
		}
		const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
		const fmt = (x) => Math.round(x).toLocaleString("en-US");
		const summary = {};
		for (const impl of ["ours", "reference"]) {
			const r = results[impl];
			summary[impl] = {
				best: Math.max(...r.map((x) => x.best)),
				median: median(r.map((x) => x.median)),
				cpu: median(r.map((x) => x.cpuMedian)),
				elu: median(r.map((x) => x.utilization)),
				bytes: median(r.map((x) => x.bytesPerTurn)),
				gcs: r.map((x) => x.gcCount).join(", "),
			};
		}
		console.log(
			`Node ${process.version}; ${ROUNDS} rounds, alternating fresh processes; each: ${WARMUP_RUNS} warm-up runs, then ${BATCHES} batches of ${RUNS / BATCHES} runs x ${TURNS} turns`,
		);
		console.log(
			"| implementation | turns per CPU-second (median) | turns/s wall, best batch | turns/s wall, median batch | CPU µs per turn | allocated bytes per turn | GCs during alloc batch | event-loop utilisation |",
		);
		console.log("|---|---|---|---|---|---|---|---|");
		for (const impl of ["ours", "reference"]) {
			const s = summary[impl];
			const name = impl === "ours" ? "@pi/agent-core" : "@mariozechner/pi-agent-core 0.73.1";
			console.log(
				`| ${name} | ${fmt(s.cpu)} | ${fmt(s.best)} | ${fmt(s.median)} | ${(1e6 / s.cpu).toFixed(1)} | ${fmt(s.bytes)} | ${s.gcs} | ${s.elu.toFixed(3)} |`,
			);
		}
		console.log(
			`\nours / reference: CPU ${(summary.ours.cpu / summary.reference.cpu).toFixed(2)}x, wall best ${(summary.ours.best / summary.reference.best).toFixed(2)}x, median ${(summary.ours.median / summary.reference.median).toFixed(2)}x, bytes/turn ${(summary.ours.bytes / summary.reference.bytes).toFixed(2)}x`,
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

async function worker(impl, bundle, mode) {
	const { PerformanceObserver } = await import("node:perf_hooks");
	let lib;
	if (impl === "ours") {
		lib = await import(pathToFileURL(bundle).href);
	} else {
		const agent = await import(
			pathToFileURL(join(refDir, "node_modules/@mariozechner/pi-agent-core/dist/index.js")).href
		);
		const ai = await import(pathToFileURL(join(refDir, "node_modules/@mariozechner/pi-ai/dist/index.js")).href);
		lib = { Agent: agent.Agent, AssistantMessageEventStream: ai.AssistantMessageEventStream, Type: ai.Type };
	}
	const { Agent, AssistantMessageEventStream, Type } = lib;
	const model = {
		id: "bench",
		name: "bench",
		api: "bench",
		provider: "bench",
		baseUrl: "",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1_000_000,
		maxTokens: 1000,
	};
	const usage = () => ({
		input: 1,
		output: 1,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 2,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	});
	// Zero-latency fake: the same event sequence a real adapter emits, pushed synchronously.
	let turn = 0;
	const streamFn = () => {
		const stream = new AssistantMessageEventStream();
		const last = ++turn % TURNS === 0;
		const message = {
			role: "assistant",
			content: [],
			api: "bench",
			provider: "bench",
			model: "bench",
			usage: usage(),
			stopReason: last ? "stop" : "toolUse",
			timestamp: Date.now(),
		};
		stream.push({ type: "start", partial: message });
		if (last) {
			const block = { type: "text", text: "" };
			message.content.push(block);
			stream.push({ type: "text_start", contentIndex: 0, partial: message });
			block.text = "done";
			stream.push({ type: "text_delta", contentIndex: 0, delta: "done", partial: message });
			stream.push({ type: "text_end", contentIndex: 0, content: "done", partial: message });
			stream.push({ type: "done", reason: "stop", message });
		} else {
			const call = { type: "toolCall", id: `call_${turn}`, name: "noop", arguments: {} };
			message.content.push(call);
			stream.push({ type: "toolcall_start", contentIndex: 0, partial: message });
			call.arguments = { n: 1 };
			stream.push({ type: "toolcall_delta", contentIndex: 0, delta: '{"n":1}', partial: message });
			stream.push({ type: "toolcall_end", contentIndex: 0, toolCall: call, partial: message });
			stream.push({ type: "done", reason: "toolUse", message });
		}
		return stream;
	};
	const result = { content: [{ type: "text", text: "ok" }], details: {} };
	const noop = {
		name: "noop",
		label: "noop",
		description: "does nothing",
		parameters: Type.Object({ n: Type.Number() }),
		execute: async () => result,
	};
	let events = 0;
	const agent = new Agent({ initialState: { model, systemPrompt: "bench", tools: [noop] }, streamFn });
	agent.subscribe(() => {
		events++;
	});
	const runOnce = async () => {
		agent.reset();
		await agent.prompt("go");
	};
	for (let i = 0; i < WARMUP_RUNS; i++) await runOnce();
	if (agent.state.messages.length !== 1 + 2 * (TURNS - 1) + 1) {
		throw new Error(`unexpected transcript length ${agent.state.messages.length}`);
	}
	if (mode === "time") {
		// Short batches: on a shared machine the best batch shows the loop's own cost, the median the typical one.
		// CPU time (user + system, all threads) is less disturbed by other processes than wall time.
		const rates = [];
		const cpuRates = [];
		const elu = performance.eventLoopUtilization();
		for (let batch = 0; batch < BATCHES; batch++) {
			const start = performance.now();
			const cpuStart = process.cpuUsage();
			for (let i = 0; i < RUNS / BATCHES; i++) await runOnce();
			const cpu = process.cpuUsage(cpuStart);
			const turns = (RUNS / BATCHES) * TURNS;
			rates.push(turns / ((performance.now() - start) / 1000));
			cpuRates.push(turns / ((cpu.user + cpu.system) / 1e6));
		}
		const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
		console.log(
			JSON.stringify({
				impl,
				best: Math.max(...rates),
				median: mid(rates),
				cpuMedian: mid(cpuRates),
				// Near 1 when the loop never waits on timers or I/O (all work is promise-driven).
				utilization: performance.eventLoopUtilization(elu).utilization,
				events,
			}),
		);
		return;
	}

	// Allocation: heap growth over a batch with no GC in between.
	let gcCount = 0;
	const observer = new PerformanceObserver((list) => {
		gcCount += list.getEntries().length;
	});
	const allocRuns = ALLOC_TURNS / TURNS;
	globalThis.gc?.();
	await new Promise((r) => setTimeout(r, 50));
	globalThis.gc?.();
	observer.observe({ entryTypes: ["gc"] });
	const before = process.memoryUsage().heapUsed;
	for (let i = 0; i < allocRuns; i++) await runOnce();
	const after = process.memoryUsage().heapUsed;
	await new Promise((r) => setTimeout(r, 10));
	observer.disconnect();
	console.log(JSON.stringify({ impl, bytesPerTurn: (after - before) / ALLOC_TURNS, gcCount }));
}
