/**
 * pi-ai streaming throughput: one long response from the local fake provider
 * through each adapter, ours (built dist) and the reference
 * @mariozechner/pi-ai@0.73.1, alternating in the same process.
 *
 *   npm run build && npx tsx bench/ai-stream.bench.ts [api-filter] [--rounds N]
 *
 * Reports the median over rounds of wall time from `stream()` to the last
 * event, events/s and MB/s of SSE bytes received.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { ADAPTER_BENCHES, type BenchModel } from "./ai-adapters.js";

type StreamFn = (
	model: BenchModel,
	context: unknown,
	options: unknown,
) => AsyncIterable<{ type: string }> & {
	result(): Promise<{
		stopReason: string;
		errorMessage?: string;
		content: { type: string; text?: string; arguments?: Record<string, unknown> }[];
	}>;
};

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
const filter = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--rounds") ?? "";
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
const root = join(import.meta.dirname, "..");

const ours = (await import(pathToFileURL(join(root, "packages/ai/dist/index.js")).href)) as { stream: StreamFn };
const reference = (await import(
	pathToFileURL(join(refDir, "node_modules/@mariozechner/pi-ai/dist/index.js")).href
)) as { stream: StreamFn };
const impls: [string, StreamFn][] = [
	["reference 0.73.1", reference.stream],
	["ours", ours.stream],
];

const fake = await startFakeProvider();
const context = { systemPrompt: "bench", messages: [{ role: "user", content: "go", timestamp: 1 }] };
const TEXT_BYTES = 10 * 1024 * 1024;
const TEXT_DELTA = 128;
const TOOL_DELTAS = 10_000;
const TOOL_DELTA = 8;

interface Sample {
	ms: number;
	events: number;
}

async function once(
	name: string,
	fn: StreamFn,
	model: BenchModel,
	bytes: Buffer,
	expectLength: number,
	kind: "text" | "tool",
) {
	// Let the client see sockets the server closed while the previous run held the event loop
	// (the reference parses 10k tool deltas for tens of seconds), so no run reuses a dead socket.
	await new Promise((resolve) => setTimeout(resolve, 20));
	fake.enqueue({ kind: "sse", bytes, chunkSize: 64 * 1024 });
	const started = performance.now();
	const s = fn(model, context, { apiKey: "bench-key" });
	let events = 0;
	for await (const _ of s) events++;
	const ms = performance.now() - started;
	const message = await s.result();
	const block = message.content.find((b) => b.type === (kind === "text" ? "text" : "toolCall"));
	const length = kind === "text" ? (block?.text?.length ?? 0) : String(block?.arguments?.content ?? "").length;
	if (message.stopReason === "error" || length !== expectLength)
		throw new Error(
			`${name}: bad result: ${message.stopReason} ${message.errorMessage ?? ""} length ${length} != ${expectLength}`,
		);
	return { ms, events };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows: string[] = [];
for (const [api, bench] of Object.entries(ADAPTER_BENCHES)) {
	if (!api.includes(filter)) continue;
	const model = bench.model(fake.url);
	const textDeltas = Math.ceil(TEXT_BYTES / TEXT_DELTA);
	const scenarios = [
		{
			name: `text ${textDeltas} deltas × ${TEXT_DELTA} B`,
			kind: "text" as const,
			bytes: bench.textStream(TEXT_BYTES, TEXT_DELTA),
			expect: textDeltas * TEXT_DELTA,
		},
		{
			name: `tool call ${TOOL_DELTAS} deltas × ${TOOL_DELTA} B`,
			kind: "tool" as const,
			bytes: bench.toolStream(TOOL_DELTAS, TOOL_DELTA),
			expect: TOOL_DELTAS * TOOL_DELTA,
		},
	];
	for (const scenario of scenarios) {
		const samples = new Map<string, Sample[]>(impls.map(([name]) => [name, []]));
		// Warm-up (loads adapters and SDKs), then alternate implementations each round.
		for (const [name, fn] of impls) await once(name, fn, model, scenario.bytes, scenario.expect, scenario.kind);
		for (let r = 0; r < rounds; r++) {
			for (const [name, fn] of r % 2 === 0 ? impls : [...impls].reverse()) {
				samples.get(name)?.push(await once(name, fn, model, scenario.bytes, scenario.expect, scenario.kind));
			}
		}
		const mb = scenario.bytes.length / 1e6;
		for (const [name, list] of samples) {
			const ms = median(list.map((s) => s.ms));
			const events = list[0].events;
			rows.push(
				`| ${api} | ${scenario.name} | ${name} | ${ms.toFixed(0)} | ${events} | ${Math.round((events / ms) * 1000).toLocaleString("en-US")} | ${((mb / ms) * 1000).toFixed(1)} |`,
			);
		}
	}
}
await fake.close();
console.log(
	`SSE payloads: text ≈${TEXT_BYTES / 1024 / 1024} MiB of content; median of ${rounds} rounds, Node ${process.version}\n`,
);
console.log("| api | scenario | implementation | ms | events | events/s | MB/s (SSE) |");
console.log("|---|---|---|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
