// `pi` start-up and a 3-turn print-mode tool loop, ours vs the reference
// 0.73.1, measured side by side (runs interleaved) against the local fake
// provider. Wall time and peak RSS come from GNU time (`/usr/bin/time -f`).
//
//   npm run build && npx tsx bench/cli.bench.ts [runs]
//
// PI_REFERENCE_DIR selects the reference install prefix (default /work/ref073).
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { type Script, startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { type CliSample, makeBenchHome, measureCli, median } from "./support/cli-home.js";

const runs = Number(process.argv[2] ?? 7);
const root = resolve(import.meta.dirname, "..");
const ours = join(root, "packages/coding-agent/dist/cli.js");
const refDir = process.env.PI_REFERENCE_DIR ?? "/work/ref073";
const refBin = join(refDir, "node_modules/.bin/pi");

type Sample = CliSample;

function toolReply(name: string, args: object, n: number): Script {
	return new ChatStream({ model: "fake-model" })
		.role()
		.toolCall(0, `call_${n}`, name, [JSON.stringify(args)])
		.finish("tool_calls")
		.usage({ prompt_tokens: 100, completion_tokens: 10 })
		.done()
		.script();
}

function textReply(text: string): Script {
	return new ChatStream({ model: "fake-model" })
		.role()
		.text(text)
		.finish("stop")
		.usage({ prompt_tokens: 120, completion_tokens: 5 })
		.done()
		.script();
}

function row(label: string, samples: Sample[]): { label: string; wall: number; rss: number; line: string } {
	const wall = median(samples.map((s) => s.wall));
	const rss = median(samples.map((s) => s.rssMiB));
	const walls = samples.map((s) => s.wall.toFixed(2)).join(" ");
	return { label, wall, rss, line: `| ${label} | ${wall.toFixed(3)} | ${rss.toFixed(1)} | ${walls} |` };
}

async function main() {
	const fake = await startFakeProvider();
	const models = {
		providers: {
			fake: {
				baseUrl: `${fake.url}/v1`,
				api: "openai-completions",
				apiKey: "fake-key",
				compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
				models: [{ id: "fake-model" }],
			},
		},
	};
	const a = makeBenchHome("ours", models);
	const b = makeBenchHome("ref", models);
	const node = process.execPath;
	const startup: Record<string, Sample[]> = {};
	const add = (k: string, s: Sample) => {
		startup[k] ??= [];
		startup[k].push(s);
	};

	// Start-up: one warm-up round, then `runs` interleaved rounds.
	for (let i = 0; i <= runs; i++) {
		const round: [string, Sample][] = [
			["node -e 0", await measureCli([node, "-e", "0"], a.env, a.cwd)],
			["pi --version (ours)", await measureCli([node, ours, "--version"], a.env, a.cwd)],
			["pi --help (ours)", await measureCli([node, ours, "--help"], a.env, a.cwd)],
			["pi --version (reference 0.73.1)", await measureCli([refBin, "--version"], b.env, b.cwd)],
			["pi --help (reference 0.73.1)", await measureCli([refBin, "--help"], b.env, b.cwd)],
		];
		if (i > 0) for (const [k, s] of round) add(k, s);
	}

	// 3-turn tool loop: write → read → answer.
	const loop: Record<string, Sample[]> = { ours: [], ref: [] };
	let n = 0;
	const prompt = "Write notes.txt, read it back, then answer.";
	for (let i = 0; i <= runs; i++) {
		for (const [key, env, cwd, cmd] of [
			["ours", a.env, a.cwd, [node, ours]],
			["ref", b.env, b.cwd, [refBin]],
		] as const) {
			fake.enqueue(
				toolReply("write", { path: "notes.txt", content: `run ${i}\n` }, ++n),
				toolReply("read", { path: "notes.txt" }, ++n),
				textReply("Done."),
			);
			const s = await measureCli([...cmd, "-p", "--no-session", "--model", "fake/fake-model", prompt], env, cwd);
			if (s.code !== 0 || s.stdout.trim() !== "Done.") {
				throw new Error(`${key} loop failed (exit ${s.code}): ${s.stdout}\n${s.stderr}`);
			}
			if (i > 0) loop[key].push(s);
		}
	}
	await fake.close();
	rmSync(a.home, { recursive: true, force: true });
	rmSync(b.home, { recursive: true, force: true });

	const rows = Object.entries(startup).map(([k, s]) => row(k, s));
	const base = rows[0].wall;
	console.log(
		`Start-up (${runs} interleaved runs after one warm-up; load average ${(await import("node:os")).loadavg()[0].toFixed(1)})\n`,
	);
	console.log("| command | wall s (median) | peak RSS MiB (median) | wall s, each run |");
	console.log("|---|---|---|---|");
	for (const r of rows) console.log(r.line);
	const v = rows.find((r) => r.label === "pi --version (ours)")!;
	const h = rows.find((r) => r.label === "pi --help (ours)")!;
	const rv = rows.find((r) => r.label.startsWith("pi --version (reference"))!;
	const rh = rows.find((r) => r.label.startsWith("pi --help (reference"))!;
	console.log(
		`\nours/node: --version ${(v.wall / base).toFixed(2)}×, --help ${(h.wall / base).toFixed(2)}× (bar ≤ 2×); ` +
			`ours/reference: --version ${(v.wall / rv.wall).toFixed(3)}×, --help ${(h.wall / rh.wall).toFixed(3)}×`,
	);
	const lo = row("3-turn loop (ours)", loop.ours);
	const lr = row("3-turn loop (reference 0.73.1)", loop.ref);
	console.log(`\n3-turn print-mode tool loop against the fake server (${runs} interleaved runs)\n`);
	console.log("| command | wall s (median) | peak RSS MiB (median) | wall s, each run |");
	console.log("|---|---|---|---|");
	console.log(lo.line);
	console.log(lr.line);
	console.log(
		`\nours/reference: time ${(lo.wall / lr.wall).toFixed(3)}× (bar ≤ 0.3×), memory ${(lo.rss / lr.rss).toFixed(3)}× (bar ≤ 0.6×)`,
	);
}

await main();
