/**
 * pi-ai cold start per adapter: a fresh `node` imports the package and makes
 * one request through the anthropic-messages, google-generative-ai or
 * openai-responses adapter to the local fake provider, for ours (built dist,
 * adapters and their SDK loaded on first use) and the reference
 * @mariozechner/pi-ai@0.73.1 (every SDK loaded at import), alternating.
 *
 *   npm run build && npx tsx bench/ai-first-request.bench.ts [api-filter] [--runs N]
 *
 * "import start → first request" runs from the start of `import()` to the
 * request reaching the server: package, adapter and SDK loading included.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { AnthropicStream } from "../packages/ai/test/support/fake-provider/anthropic.js";
import { GoogleStream } from "../packages/ai/test/support/fake-provider/google.js";
import { ResponsesStream } from "../packages/ai/test/support/fake-provider/openai-responses.js";
import { startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 11;
const filter = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs") ?? "";
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
const root = join(import.meta.dirname, "..");
const targets: [string, string][] = [
	["reference 0.73.1", pathToFileURL(join(refDir, "node_modules/@mariozechner/pi-ai/dist/index.js")).href],
	["ours", pathToFileURL(join(root, "packages/ai/dist/index.js")).href],
];

const apis: { api: string; provider: string; path: string; body: () => Buffer }[] = [
	{
		api: "anthropic-messages",
		provider: "anthropic",
		path: "",
		body: () => new AnthropicStream().start().text("ok").delta("end_turn").stop().script().bytes,
	},
	{
		api: "google-generative-ai",
		provider: "google",
		path: "/v1beta",
		body: () => new GoogleStream().text("ok").finish("STOP").script().bytes,
	},
	{
		api: "openai-responses",
		provider: "openai",
		path: "/v1",
		body: () => new ResponsesStream().created().message("msg_1", ["ok"]).completed().script().bytes,
	},
];

const fake = await startFakeProvider();
const dir = mkdtempSync(join(tmpdir(), "pi-ai-first-request-"));
const child = join(dir, "child.mjs");
writeFileSync(
	child,
	`const [url, api, provider, baseUrl] = process.argv.slice(2);
const t0 = performance.now();
const ai = await import(url);
const model = { id: "m", name: "m", api, provider, baseUrl, reasoning: false, input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
const message = await ai.complete(model, { messages: [{ role: "user", content: "hi", timestamp: 1 }] }, { apiKey: "k" });
if (message.stopReason !== "stop") { console.error(message.errorMessage); process.exit(1); }
console.log(JSON.stringify({ importStartEpoch: performance.timeOrigin + t0 }));
`,
);

let arrival = 0;
function runChild(url: string, target: (typeof apis)[number]): Promise<number> {
	return new Promise((resolve, reject) => {
		fake.enqueue({
			kind: "handler",
			handle: (_req: unknown, res: ServerResponse) => {
				arrival = performance.timeOrigin + performance.now();
				res.writeHead(200, { "content-type": "text/event-stream" });
				res.end(target.body());
			},
		});
		const proc = spawn(process.execPath, [child, url, target.api, target.provider, `${fake.url}${target.path}`], {
			stdio: ["ignore", "pipe", "inherit"],
		});
		let out = "";
		proc.stdout.on("data", (d) => {
			out += d;
		});
		proc.on("exit", (code) => {
			if (code !== 0) return reject(new Error(`child exited ${code}`));
			const { importStartEpoch } = JSON.parse(out) as { importStartEpoch: number };
			resolve(arrival - importStartEpoch);
		});
	});
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows: string[] = [];
for (const target of apis) {
	if (!target.api.includes(filter)) continue;
	const samples = new Map<string, number[]>(targets.map(([name]) => [name, []]));
	for (const [, url] of targets) await runChild(url, target); // warm the file cache
	for (let i = 0; i < runs; i++) {
		for (const [name, url] of i % 2 === 0 ? targets : [...targets].reverse()) {
			samples.get(name)?.push(await runChild(url, target));
		}
	}
	for (const [name, xs] of samples) rows.push(`| ${target.api} | ${name} | ${median(xs).toFixed(1)} |`);
}
await fake.close();
rmSync(dir, { recursive: true, force: true });

console.log(`median of ${runs} cold processes each, Node ${process.version}\n`);
console.log("| api | implementation | import start → first request (ms) |");
console.log("|---|---|---:|");
for (const row of rows) console.log(row);
