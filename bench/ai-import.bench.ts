/**
 * pi-ai cold-process cost: a fresh `node` imports the package and starts one
 * openai-completions request to the local fake provider. Measured for ours
 * (built dist) and the reference @mariozechner/pi-ai@0.73.1, alternating.
 *
 *   npm run build && npx tsx bench/ai-import.bench.ts [--runs N]
 *
 * "import" is the child's own time for `await import()` of the package;
 * "import start → first request" runs from the start of that import to the
 * request reaching the server (adapter + SDK loading included); "spawn →"
 * adds Node's own start-up, the same for both.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 15;
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
const root = join(import.meta.dirname, "..");
const targets: [string, string][] = [
	["reference 0.73.1", pathToFileURL(join(refDir, "node_modules/@mariozechner/pi-ai/dist/index.js")).href],
	["ours", pathToFileURL(join(root, "packages/ai/dist/index.js")).href],
];

const fake = await startFakeProvider();
const dir = mkdtempSync(join(tmpdir(), "pi-ai-import-"));
const child = join(dir, "child.mjs");
writeFileSync(
	child,
	`const [url, baseUrl] = process.argv.slice(2);
const t0 = performance.now();
const ai = await import(url);
const importMs = performance.now() - t0;
const model = { id: "m", name: "m", api: "openai-completions", provider: "openai", baseUrl, reasoning: false,
  input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
const message = await ai.complete(model, { messages: [{ role: "user", content: "hi", timestamp: 1 }] }, { apiKey: "k" });
if (message.stopReason !== "stop") { console.error(message.errorMessage); process.exit(1); }
console.log(JSON.stringify({ importMs, importStartEpoch: performance.timeOrigin + t0 }));
`,
);

let arrival = 0;
const reply = () => ({
	kind: "handler" as const,
	handle: (_req: unknown, res: import("node:http").ServerResponse) => {
		arrival = performance.timeOrigin + performance.now();
		res.writeHead(200, { "content-type": "text/event-stream" });
		res.end(new ChatStream().text("ok").finish("stop").done().script().bytes);
	},
});

function runChild(url: string): Promise<{ importMs: number; toRequestMs: number; importToRequestMs: number }> {
	return new Promise((resolve, reject) => {
		fake.enqueue(reply());
		const spawnedAt = performance.timeOrigin + performance.now();
		const proc = spawn(process.execPath, [child, url, `${fake.url}/v1`], { stdio: ["ignore", "pipe", "inherit"] });
		let out = "";
		proc.stdout.on("data", (d) => {
			out += d;
		});
		proc.on("exit", (code) => {
			if (code !== 0) return reject(new Error(`child exited ${code}`));
			const { importMs, importStartEpoch } = JSON.parse(out) as { importMs: number; importStartEpoch: number };
			resolve({ importMs, toRequestMs: arrival - spawnedAt, importToRequestMs: arrival - importStartEpoch });
		});
	});
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = new Map<string, { importMs: number[]; toRequestMs: number[]; importToRequestMs: number[] }>(
	targets.map(([name]) => [name, { importMs: [], toRequestMs: [], importToRequestMs: [] }]),
);
for (const [, url] of targets) await runChild(url); // warm the file cache
for (let i = 0; i < runs; i++) {
	for (const [name, url] of i % 2 === 0 ? targets : [...targets].reverse()) {
		const r = await runChild(url);
		results.get(name)?.importMs.push(r.importMs);
		results.get(name)?.toRequestMs.push(r.toRequestMs);
		results.get(name)?.importToRequestMs.push(r.importToRequestMs);
	}
}
await fake.close();
rmSync(dir, { recursive: true, force: true });

console.log(`median of ${runs} cold processes each, Node ${process.version}\n`);
console.log("| implementation | import (ms) | import start → first request (ms) | spawn → first request (ms) |");
console.log("|---|---:|---:|---:|");
for (const [name, r] of results) {
	const cells = [r.importMs, r.importToRequestMs, r.toRequestMs].map((xs) => median(xs).toFixed(1));
	console.log(`| ${name} | ${cells.join(" | ")} |`);
}
