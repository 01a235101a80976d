// Runs the BUILT `pi` (dist/cli.js) as a subprocess in a temporary home, with
// a models.json pointing at the fake provider server. Build first: `npm run build`.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { type FakeProvider, type Script, startFakeProvider } from "../../../ai/test/support/fake-provider/server.js";

export const CLI = resolve(import.meta.dirname, "../../dist/cli.js");

export function assertBuilt(): void {
	if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before these tests`);
}

export interface PiResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

export interface Sandbox {
	root: string;
	home: string;
	agentDir: string;
	cwd: string;
	fake: FakeProvider;
	env: NodeJS.ProcessEnv;
	/** Runs the built CLI (in `cwd`, default the sandbox's); `nodeArgs` go to node before it (e.g. `--import` of a resolution hook). */
	run(
		args: string[],
		options?: { stdin?: StdinSource; env?: NodeJS.ProcessEnv; nodeArgs?: string[]; cwd?: string },
	): Promise<PiResult>;
	writeModels(provider?: Record<string, unknown>): void;
	close(): Promise<void>;
}

/** Text written to a pipe and closed, or a file opened as the child's stdin (`{ file: "/dev/null" }`). */
export type StdinSource = string | { file: string };

/** Runs `command` to its end and collects its output; `stdin` is written and closed (default: empty). */
export function runProcess(
	command: string,
	args: string[],
	options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: StdinSource },
): Promise<PiResult> {
	return new Promise((resolvePromise, reject) => {
		const stdinFile = typeof options.stdin === "object" ? openSync(options.stdin.file, "r") : undefined;
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			stdio: [stdinFile ?? "pipe", "pipe", "pipe"],
		});
		if (stdinFile !== undefined) closeSync(stdinFile);
		let stdout = "";
		let stderr = "";
		child.stdout?.on("data", (d) => {
			stdout += d;
		});
		child.stderr?.on("data", (d) => {
			stderr += d;
		});
		child.on("error", reject);
		child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
		if (stdinFile === undefined) child.stdin?.end(options.stdin ?? "");
	});
}

/** The built CLI started in the sandbox and left running (stdin ignored): its process and its stderr so far. */
export function spawnPi(
	sb: Pick<Sandbox, "cwd" | "env">,
	args: string[],
): { child: ChildProcessByStdio<null, Readable, Readable>; stderr(): string } {
	const child = spawn(process.execPath, [CLI, ...args], {
		cwd: sb.cwd,
		env: sb.env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stderr = "";
	child.stderr.on("data", (d) => {
		stderr += d;
	});
	return { child, stderr: () => stderr };
}

/** A clean environment: no provider keys from the machine leak in. */
function baseEnv(home: string, agentDir: string): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH,
		HOME: home,
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		LANG: "C.UTF-8",
	};
}

export async function createSandbox(): Promise<Sandbox> {
	const root = mkdtempSync(join(tmpdir(), "pi-cli-"));
	const home = join(root, "home");
	const agentDir = join(home, ".pi", "agent");
	const cwd = join(root, "work");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	const fake = await startFakeProvider();
	const sandbox: Sandbox = {
		root,
		home,
		agentDir,
		cwd,
		fake,
		env: baseEnv(home, agentDir),
		writeModels(provider = {}) {
			writeFileSync(
				join(agentDir, "models.json"),
				JSON.stringify({
					providers: {
						fake: {
							baseUrl: `${fake.url}/v1`,
							api: "openai-completions",
							apiKey: "fake-key",
							compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
							models: [{ id: "fake-model", contextWindow: 100000 }],
							...provider,
						},
					},
				}),
			);
		},
		run(args, options = {}) {
			return runProcess(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
				cwd: options.cwd ?? cwd,
				env: { ...sandbox.env, ...options.env },
				stdin: options.stdin,
			});
		},
		async close() {
			await fake.close();
			// A killed app's git child (the checkpoint store's background snapshot) may still be
			// writing for a moment: retry instead of failing the test on ENOTEMPTY.
			rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
		},
	};
	sandbox.writeModels();
	return sandbox;
}

/** What useCliSandbox does around each test besides creating and closing the sandbox. */
export interface CliSandboxHooks {
	/** Runs on each fresh sandbox before the test. */
	setup?: (sb: Sandbox) => void | Promise<void>;
	/** Runs after the test, before the sandbox is closed (e.g. ending the children the test started). */
	beforeClose?: () => void | Promise<void>;
}

/**
 * The lifecycle the built-CLI test files share: the built CLI is checked once,
 * each test gets a fresh sandbox, closed after it. The returned Sandbox stands
 * for the current test's one (each member is looked up when used), so a file
 * writes `const sb = useCliSandbox();` at the top and uses `sb` as before.
 */
export function useCliSandbox(hooks: CliSandboxHooks = {}): Sandbox {
	let current: Sandbox | undefined;
	beforeAll(assertBuilt);
	beforeEach(async () => {
		current = await createSandbox();
		await hooks.setup?.(current);
	});
	afterEach(async () => {
		try {
			await hooks.beforeClose?.();
		} finally {
			await current?.close();
			current = undefined;
		}
	});
	const now = (): Sandbox => {
		if (!current) throw new Error("useCliSandbox: the sandbox exists only inside a test");
		return current;
	};
	return {
		get root() {
			return now().root;
		},
		get home() {
			return now().home;
		},
		get agentDir() {
			return now().agentDir;
		},
		get cwd() {
			return now().cwd;
		},
		get fake() {
			return now().fake;
		},
		get env() {
			return now().env;
		},
		set env(env) {
			now().env = env;
		},
		run: (args, options) => now().run(args, options),
		writeModels: (provider) => now().writeModels(provider),
		close: () => now().close(),
	};
}

let callCounter = 0;

/** A streamed text answer. */
export function textReply(text: string): Script {
	return new ChatStream({ model: "fake-model" })
		.role()
		.text(text)
		.finish("stop")
		.usage({ prompt_tokens: 50, completion_tokens: 5 })
		.done()
		.script();
}

/** A streamed tool call, with the arguments split across chunks as real servers do. */
export function toolReply(name: string, args: Record<string, unknown>): Script {
	const json = JSON.stringify(args);
	const mid = Math.floor(json.length / 2);
	return new ChatStream({ model: "fake-model" })
		.role()
		.toolCall(0, `call_${++callCounter}`, name, [json.slice(0, mid), json.slice(mid)])
		.finish("tool_calls")
		.usage({ prompt_tokens: 60, completion_tokens: 10 })
		.done()
		.script();
}

export interface ChatBody {
	model: string;
	messages: { role: string; content: unknown; tool_calls?: unknown }[];
	tools?: { function: { name: string } }[];
}

export function body(fake: FakeProvider, index: number): ChatBody {
	return fake.requests[index].body as ChatBody;
}
