/**
 * Embedded llama.cpp on CPU: model load, time to first token and tokens/s for
 * a generated GGUF (llama architecture, fixed-seed weights; see
 * packages/ai/test/support/gguf), through pi-ai's `llama-cpp` adapter vs
 * node-llama-cpp alone (the floor: the same LlamaChat calls, no pi). Each side
 * runs in its own child process, alternating, so both pay the same cold start.
 *
 *   npx tsx bench/llama-cpp.bench.ts [--rounds 5] [--tokens 128] [--threads 1]
 *
 * Reported per side: median load (import + native binding + model + context
 * + chat wrapper), median TTFT (request → first token; the prompt differs per
 * request so part of it is evaluated), median decode tokens/s (after the first
 * token), and pi's overhead per generated token (pi's ms/token − the floor's).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeTinyLlama } from "../packages/ai/test/support/gguf/tiny-llama.js";

interface SideResult {
	loadMs: number;
	ttftMs: number[];
	tokensPerSecond: number[];
	tokens: number[];
}

/** The benchmark model: bigger than the test model so that a token costs real compute. */
const MODEL_SHAPE = { layers: 4, embedding: 256, heads: 8, kvHeads: 4, feedForward: 768, contextLength: 4096 };
const REQUESTS = 4;

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
	const at = args.indexOf(name);
	return at >= 0 ? Number(args[at + 1]) : fallback;
};

function prompt(i: number): string {
	return `Request ${i}: write a short note about files, tools and the world.`;
}

async function runPi(path: string, tokens: number): Promise<SideResult> {
	const { stream } = await import("../packages/ai/src/stream.js");
	const { acquireModel } = await import("../packages/ai/src/llama-cpp/runtime.js");
	const { tinyLlamaModel } = await import("../packages/ai/test/support/gguf/tiny-model.js");
	const model = tinyLlamaModel(path, { contextWindow: 4096, maxTokens: tokens });
	const loadStart = performance.now();
	await acquireModel(model);
	const loadMs = performance.now() - loadStart;
	const out: SideResult = { loadMs, ttftMs: [], tokensPerSecond: [], tokens: [] };
	for (let i = 0; i < REQUESTS; i++) {
		const started = performance.now();
		let first = 0;
		let last = 0;
		const s = stream(
			model,
			{ systemPrompt: "You are terse.", messages: [{ role: "user", content: prompt(i), timestamp: 0 }] },
			{ maxTokens: tokens, temperature: 0 },
		);
		for await (const event of s) {
			if (event.type !== "text_delta") continue;
			last = performance.now();
			if (!first) first = last;
		}
		const message = await s.result();
		if (message.stopReason === "error") throw new Error(message.errorMessage);
		out.ttftMs.push(first - started);
		out.tokensPerSecond.push(((message.usage.output - 1) * 1000) / (last - first));
		out.tokens.push(message.usage.output);
	}
	return out;
}

async function runFloor(path: string, tokens: number, threads: number): Promise<SideResult> {
	const loadStart = performance.now();
	const lib = await import("node-llama-cpp");
	const llama = await lib.getLlama({
		build: "never",
		gpu: false,
		progressLogs: false,
		logLevel: lib.LlamaLogLevel.error,
		logger: () => {},
	});
	const model = await llama.loadModel({ modelPath: path, gpuLayers: 0 });
	const context = await model.createContext({ contextSize: 4096, sequences: 1, threads });
	const chat = new lib.LlamaChat({
		contextSequence: context.getSequence(),
		chatWrapper: lib.resolveChatWrapper(model, { type: "jinjaTemplate" }) ?? "auto",
	});
	const loadMs = performance.now() - loadStart;
	const out: SideResult = { loadMs, ttftMs: [], tokensPerSecond: [], tokens: [] };
	for (let i = 0; i < REQUESTS; i++) {
		const meter = chat.sequence.tokenMeter;
		const before = meter.usedOutputTokens;
		const started = performance.now();
		let first = 0;
		let last = 0;
		await chat.generateResponse(
			[
				{ type: "system", text: "You are terse." },
				{ type: "user", text: prompt(i) },
				{ type: "model", response: [] },
			],
			{
				maxTokens: tokens,
				temperature: 0,
				onTextChunk: () => {
					last = performance.now();
					if (!first) first = last;
				},
			},
		);
		const generated = meter.usedOutputTokens - before;
		out.ttftMs.push(first - started);
		out.tokensPerSecond.push(((generated - 1) * 1000) / (last - first));
		out.tokens.push(generated);
	}
	return out;
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function child(): Promise<void> {
	const side = args[args.indexOf("--child") + 1];
	const path = args[args.indexOf("--model") + 1];
	const tokens = flag("--tokens", 128);
	const threads = flag("--threads", 1);
	const result = side === "pi" ? await runPi(path, tokens) : await runFloor(path, tokens, threads);
	process.stdout.write(`${JSON.stringify(result)}\n`);
	process.exit(0);
}

async function main(): Promise<void> {
	const rounds = flag("--rounds", 5);
	const tokens = flag("--tokens", 128);
	const threads = flag("--threads", 1);
	const dir = mkdtempSync(join(tmpdir(), "pi-bench-gguf-"));
	const path = writeTinyLlama(join(dir, "bench.gguf"), MODEL_SHAPE);
	const self = fileURLToPath(import.meta.url);
	const results: Record<"pi" | "floor", SideResult[]> = { pi: [], floor: [] };
	try {
		for (let round = 0; round < rounds; round++) {
			for (const side of round % 2 ? (["floor", "pi"] as const) : (["pi", "floor"] as const)) {
				const run = spawnSync(
					process.execPath,
					[
						"--import",
						"tsx",
						"--conditions",
						"development",
						self,
						"--child",
						side,
						"--model",
						path,
						"--tokens",
						String(tokens),
						"--threads",
						String(threads),
					],
					{ encoding: "utf8", env: { ...process.env, PI_LLAMA_THREADS: String(threads), PI_LLAMA_GPU: "off" } },
				);
				if (run.status !== 0) throw new Error(`${side} failed: ${run.stderr}`);
				results[side].push(JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as SideResult);
			}
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	const summary = (side: "pi" | "floor") => {
		const r = results[side];
		return {
			load: median(r.map((x) => x.loadMs)),
			ttft: median(r.flatMap((x) => x.ttftMs)),
			tps: median(r.flatMap((x) => x.tokensPerSecond)),
			tokens: median(r.flatMap((x) => x.tokens)),
		};
	};
	const pi = summary("pi");
	const floor = summary("floor");
	const overheadUs = (1000 / pi.tps - 1000 / floor.tps) * 1000;
	console.log(
		`model: generated llama GGUF, ${MODEL_SHAPE.layers} layers, ${MODEL_SHAPE.embedding} dims, f16; CPU, ${threads} thread(s); ${rounds} rounds × ${REQUESTS} requests × ${tokens} tokens`,
	);
	console.log("| side | load (ms) | TTFT (ms) | decode tokens/s | tokens/request |");
	console.log("|---|---:|---:|---:|---:|");
	for (const [name, s] of [
		["pi (llama-cpp adapter)", pi],
		["node-llama-cpp alone", floor],
	] as const) {
		console.log(`| ${name} | ${s.load.toFixed(0)} | ${s.ttft.toFixed(1)} | ${s.tps.toFixed(0)} | ${s.tokens} |`);
	}
	console.log(
		`pi overhead per generated token: ${overheadUs.toFixed(0)} µs (${((pi.tps / floor.tps) * 100).toFixed(0)}% of the floor's tokens/s)`,
	);
}

if (args.includes("--child")) await child();
else await main();
