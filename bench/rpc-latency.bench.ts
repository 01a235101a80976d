// RPC event latency: the time from the fake provider writing one token (an SSE
// chunk) to a client of `pi --mode rpc` receiving the `message_update` that
// carries it. Tokens go one at a time (the server writes token i+1 only after
// the client got token i), so each sample is the full path for one token:
// socket → pi's HTTP/SSE client → pi-ai events → agent loop → session →
// JSON line on stdout → pipe → the client's LF splitter and JSON.parse.
// All timestamps come from this process's monotonic clock.
//
//   npm run build && npx tsx bench/rpc-latency.bench.ts [tokens=10000] [--runs=3] [--reference]
//
// --reference also measures the reference 0.73.1 (PI_REFERENCE_DIR, default
// /work/ref073) in the same run, with the same server and client.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { sseBytes, startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { JsonlSplitter } from "../packages/coding-agent/src/modes/rpc/jsonl.js";

const args = process.argv.slice(2);
const tokens = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000);
const withReference = args.includes("--reference");
const runs = Number(args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const root = resolve(import.meta.dirname, "..");
const ours = join(root, "packages/coding-agent/dist/cli.js");
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
const refCli = join(refDir, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js");

interface Result {
	latencies: number[];
	wallMs: number;
}

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(cli: string, count: number): Promise<Result> {
	const fake = await startFakeProvider();
	const dir = mkdtempSync(join(tmpdir(), "pi-rpc-bench-"));
	const agentDir = join(dir, "agent");
	const cwd = join(dir, "work");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	writeFileSync(
		join(agentDir, "models.json"),
		JSON.stringify({
			providers: {
				fake: {
					baseUrl: `${fake.url}/v1`,
					api: "openai-completions",
					apiKey: "fake-key",
					compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
					models: [{ id: "fake-model", contextWindow: 1_000_000, maxTokens: 100_000 }],
				},
			},
		}),
	);

	const sentAt = new Float64Array(count);
	const gotAt = new Float64Array(count);
	let release: (() => void) | undefined;
	const head = new ChatStream({ model: "fake-model" }).role().build();
	const tail = new ChatStream({ model: "fake-model" })
		.finish("stop")
		.usage({ prompt_tokens: 10, completion_tokens: count })
		.done()
		.build();
	fake.enqueue({
		kind: "handler",
		handle: async (_req, res: ServerResponse) => {
			res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			res.write(sseBytes(head));
			for (let i = 0; i < count; i++) {
				const frame = sseBytes(new ChatStream({ model: "fake-model" }).text(`t${i} `).build());
				const next = new Promise<void>((r) => {
					release = r;
				});
				sentAt[i] = performance.now();
				res.write(frame);
				await next;
			}
			res.end(sseBytes(tail));
		},
	});

	const child = spawn(process.execPath, [cli, "--mode", "rpc", "--no-session", "--model", "fake/fake-model"], {
		cwd,
		env: { PATH: process.env.PATH, HOME: dir, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" },
		stdio: ["pipe", "pipe", "pipe"],
	});
	let stderr = "";
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	const started = performance.now();
	const settled = new Promise<void>((resolveSettled, reject) => {
		child.on("exit", (code) => reject(new Error(`pi exited ${code}: ${stderr}`)));
		const splitter = new JsonlSplitter((line) => {
			const event = JSON.parse(line) as {
				type: string;
				success?: boolean;
				error?: string;
				assistantMessageEvent?: { type: string; delta: string };
			};
			if (event.type === "message_update" && event.assistantMessageEvent?.type === "text_delta") {
				const now = performance.now();
				const i = Number(event.assistantMessageEvent.delta.slice(1, -1));
				gotAt[i] = now;
				release?.();
			} else if (event.type === "response" && event.success === false) {
				reject(new Error(event.error));
			} else if (event.type === "agent_end") {
				resolveSettled();
			}
		});
		child.stdout.on("data", (chunk: Buffer) => splitter.push(chunk));
	});
	child.stdin.write(`${JSON.stringify({ type: "prompt", message: "stream please" })}\n`);
	await settled;
	const wallMs = performance.now() - started;
	child.removeAllListeners("exit");
	child.stdin.end();
	await new Promise((r) => child.once("close", r));
	await fake.close();
	rmSync(dir, { recursive: true, force: true });
	const latencies = Array.from(gotAt, (t, i) => t - sentAt[i]);
	const missing = latencies.findIndex((ms) => !(ms > 0));
	if (missing !== -1) throw new Error(`token ${missing} was not received after it was sent`);
	return { latencies, wallMs };
}

function report(name: string, r: Result): void {
	const sorted = [...r.latencies].sort((a, b) => a - b);
	const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
	const fmt = (ms: number) => ms.toFixed(3);
	console.log(
		`| ${name} | ${sorted.length} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 90))} | ` +
			`${fmt(percentile(sorted, 99))} | ${fmt(sorted[sorted.length - 1])} | ${fmt(mean)} | ${(r.wallMs / 1000).toFixed(2)} |`,
	);
}

const targets: [string, string][] = [["pi (ours)", ours]];
if (withReference) targets.push(["reference 0.73.1", refCli]);

// Warm-up (JIT, disk cache) for each, then the measured run.
for (const [, cli] of targets) await measure(cli, 300);
console.log(`RPC event latency, ${tokens} tokens, one at a time (ms; node ${process.version})\n`);
console.log("| build | tokens | median | p90 | p99 | max | mean | wall s |");
console.log("|---|---|---|---|---|---|---|---|");
// Runs interleaved, so machine noise hits both builds alike.
for (let run = 1; run <= runs; run++) {
	for (const [name, cli] of targets) report(`${name}, run ${run}`, await measure(cli, tokens));
}
