// Shared by the whole-CLI benches: a throwaway HOME with an agent dir and a
// work dir, an environment that keeps the machine's keys and network out,
// a models.json for the in-process fake provider, one measured child run
// (wall time and peak RSS from /usr/bin/time), and the median.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BenchHome {
	home: string;
	agentDir: string;
	cwd: string;
	env: NodeJS.ProcessEnv;
}

/** A fresh HOME (`pi-bench-<name>-…`); `models` becomes the agent dir's models.json. */
export function makeBenchHome(name: string, models?: object): BenchHome {
	const home = mkdtempSync(join(tmpdir(), `pi-bench-${name}-`));
	const agentDir = join(home, ".pi", "agent");
	const cwd = join(home, "work");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	if (models) writeFileSync(join(agentDir, "models.json"), JSON.stringify(models));
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: home,
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		PI_TELEMETRY: "0",
	};
	return { home, agentDir, cwd, env };
}

/** models.json with one OpenAI-compatible model served by the fake provider at `url`. */
export function fakeProviderModels(url: string): object {
	return {
		providers: {
			fake: {
				baseUrl: `${url}/v1`,
				api: "openai-completions",
				apiKey: "fake-key",
				compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
				models: [{ id: "fake-model" }],
			},
		},
	};
}

export interface CliSample {
	wall: number;
	rssMiB: number;
	code: number | null;
	stdout: string;
	stderr: string;
}

/** One run under /usr/bin/time. Asynchronous on purpose: the fake server lives in this process and must keep answering. */
export async function measureCli(cmd: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CliSample> {
	const out = join(tmpdir(), `pi-bench-time-${process.pid}`);
	const child = spawn("/usr/bin/time", ["-o", out, "-f", "%e %M", ...cmd], {
		env,
		cwd,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (d) => {
		stdout += d;
	});
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	const [code] = (await once(child, "close")) as [number | null];
	const [wall, kb] = readFileSync(out, "utf8").trim().split("\n").at(-1)?.split(" ").map(Number) ?? [0, 0];
	return { wall, rssMiB: kb / 1024, code, stdout, stderr };
}

export function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
