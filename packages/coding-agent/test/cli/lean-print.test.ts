/**
 * A `pi -p` run loads only what it uses (issue 25): a module-resolution hook
 * records every module the built CLI resolves during a 3-request tool loop
 * (write → read → answer) against the fake provider. The TUI's markdown
 * (marked) and highlighter, and the config-file lock (proper-lockfile, with
 * graceful-fs), are never resolved: nothing draws, and nothing writes a config
 * file. The hook itself is shown to see the run's own chunks and npm packages.
 * And Node's built-in undici (behind fetch, Headers, Response) is never loaded:
 * the requests go to a plain-http server over node:http.
 * Nor is jiti, the extension loader: a run without extensions loads none of it (issue 14).
 * Nor are web streams (the response body is read from node:http directly), and no
 * Intl.Segmenter is made (the first Intl object builds ICU's locale tables; ASCII needs none).
 * Nor is TypeBox's compiler, value module or format regexes (~200 KB): valid tool arguments of
 * plain schemas are proven valid without it (agent's validation-fast.ts).
 * Nor node:worker_threads (the search tools' worker, made by their first search) or
 * node:fs/promises (with its readline and watcher modules: @file arguments load it, and the write
 * tool renames through the callback API), nor Node's perf_hooks (durations are timed with
 * process.hrtime: the first use of the `performance` global loads them); and with stdin from
 * /dev/null (or a file) process.stdin is never made: run.ts reads the descriptor; nor do pi's own
 * account logins run (auth/builtin-flows.ts, loaded by a login, a refresh or a stored login)
 * (issue 25, session 10).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, CLI, createSandbox, type Sandbox, textReply, toolReply } from "./support.js";

const CLI_URL = pathToFileURL(CLI).href;

let sb: Sandbox;
let hook: string;
let record: string;
let builtins: string;
let segmenters: string;
beforeAll(async () => {
	assertBuilt();
	sb = await createSandbox();
	record = join(sb.root, "resolved-modules");
	builtins = join(sb.root, "loaded-builtins");
	segmenters = join(sb.root, "segmenters");
	hook = join(sb.root, "record-modules.mjs");
	const hooks = `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
	const resolved = await next(specifier, context);
	appendFileSync(${JSON.stringify(record)}, specifier + " " + resolved.url + "\\n");
	return resolved;
}`;
	writeFileSync(
		hook,
		[
			`import { appendFileSync, writeFileSync } from "node:fs";`,
			`import Module, { register } from "node:module";`,
			`register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`,
			// The CLI is a CommonJS bundle: its npm packages come through require() (Module._resolveFilename).
			`const resolveFilename = Module._resolveFilename;`,
			`Module._resolveFilename = function (request, ...rest) {`,
			`	const resolved = resolveFilename.call(this, request, ...rest);`,
			`	appendFileSync(${JSON.stringify(record)}, request + " " + resolved + "\\n");`,
			`	return resolved;`,
			`};`,
			`process.on("exit", () => writeFileSync(${JSON.stringify(builtins)}, process.moduleLoadList.join("\\n")));`,
			`let made = 0;`,
			`const Segmenter = Intl.Segmenter;`,
			`Intl.Segmenter = class extends Segmenter { constructor(...a) { super(...a); made++; } };`,
			`process.on("exit", () => writeFileSync(${JSON.stringify(segmenters)}, String(made)));`,
		].join("\n"),
	);
}, 60_000);
afterAll(async () => {
	await sb?.close();
});

/**
 * The source files (as the source maps name them) of every function of the CLI's files (dist/cli-*.cjs:
 * the start path's and the parts the run loaded) that V8 logged as executed, and which of those files ran.
 */
function executedSources(log: string): { sources: Set<string>; files: string[] } {
	const dist = dirname(CLI);
	const root = resolve(dist, "../../..");
	const events = readFileSync(log, "utf8").split("\n");
	const scripts = new Map<string, string>();
	for (const l of events) {
		const [kind, id, file] = l.split(",");
		if (kind === "script-details" && file?.startsWith(dist) && /\/cli-[^/]+\.cjs$/.test(file)) scripts.set(id, file);
	}
	const maps = new Map<string, { lineStarts: number[]; map: SourceMap }>();
	const mapOf = (file: string) => {
		let m = maps.get(file);
		if (!m) {
			const text = readFileSync(file, "latin1");
			const lineStarts = [0];
			for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
			m = { lineStarts, map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))) };
			maps.set(file, m);
		}
		return m;
	};
	const sources = new Set<string>();
	const files = new Set<string>();
	for (const line of events) {
		const [kind, event, script, start] = line.split(",");
		const file = scripts.get(script);
		if (kind !== "function" || event !== "first-execution" || file === undefined) continue;
		files.add(relative(dist, file));
		const { lineStarts, map } = mapOf(file);
		const pos = Number(start);
		let lo = 0;
		let hi = lineStarts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (lineStarts[mid] <= pos) lo = mid;
			else hi = mid - 1;
		}
		const entry = map.findEntry(lo, pos - lineStarts[lo]) as { originalSource?: string };
		// (Paths in the map are relative to dist/; kept relative to the repository root here.)
		if (entry.originalSource) sources.add(relative(root, resolve(dist, entry.originalSource)));
	}
	return { sources, files: [...files].sort() };
}

describe("a -p run loads only what it uses", () => {
	it("a tool loop resolves neither the TUI's markdown and highlighter nor the config-file lock, nor loads undici or web streams, nor makes a segmenter", async () => {
		sb.fake.enqueue(toolReply("write", { path: "notes.txt", content: "lean\n" }));
		sb.fake.enqueue(toolReply("read", { path: "notes.txt" }));
		sb.fake.enqueue(textReply("Done."));
		const functionLog = join(sb.root, "functions.log");
		const r = await sb.run(["-p", "--no-session", "--model", "fake/fake-model", "Write notes.txt, read it back."], {
			nodeArgs: ["--import", hook, "--log-function-events", `--logfile=${functionLog}`, "--no-logfile-per-isolate"],
			env: { PI_COMPILE_CACHE: "0" },
		});
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout.trim()).toBe("Done.");
		expect(sb.fake.requests).toHaveLength(3);
		expect(readFileSync(join(sb.cwd, "notes.txt"), "utf8")).toBe("lean\n");

		const specifiers = readFileSync(record, "utf8")
			.trim()
			.split("\n")
			.map((l) => l.split(" ")[0]);
		// The hook sees the run (the start file), and what it resolves holds no npm package that a
		// -p tool loop does not use. (marked is bundled into the CLI, in the TUI's lazily run part.)
		expect(specifiers).toContain(CLI_URL);
		const unwanted = specifiers.filter((s) =>
			/^(marked|cli-highlight|highlight\.js|proper-lockfile|graceful-fs|chalk|jiti|yaml)(\/|$)/.test(s),
		);
		expect(unwanted).toEqual([]);
		// What ran, not only what was resolved: V8 logs each function's first execution (the files
		// compiled by Node's loader, so positions are each file's own), mapped to its source with the
		// file's source map. TypeBox's compiler, formats and value engine, and marked (all bundled) never run.
		const { sources: ran, files } = executedSources(functionLog);
		expect(ran.has("packages/coding-agent/src/cli/main.ts")).toBe(true);
		// Of the CLI's files, only the start path's and the provider adapter's ran (not the app's, the TUI's, the other adapters').
		expect(files).toEqual(["cli-main.cjs", "cli-openai-completions.cjs"]);
		expect([...ran].some((f) => f.includes("node_modules/typebox/build/type/"))).toBe(true);
		const bundledUnwanted = [...ran].filter((f) =>
			/node_modules\/(typebox\/build\/(compile|format|value)|marked)\//.test(f),
		);
		expect(bundledUnwanted).toEqual([]);
		// pi's own account logins load with a login, a refresh or a stored login, not with API keys.
		expect([...ran].filter((f) => /src\/auth\/(openai-codex|github-copilot|callback-server)\.ts$/.test(f))).toEqual([]);

		const loaded = readFileSync(builtins, "utf8").split("\n");
		expect(loaded).toContain("NativeModule _http_client");
		expect(loaded.filter((m) => m.includes("undici"))).toEqual([]);
		// Nor node:zlib: checkpoints require it on the first object they write (a --no-session run writes none).
		expect(loaded.filter((m) => m.includes("zlib"))).toEqual([]);
		// (webstreams/util and queuingstrategies are loaded by Node itself, as in a bare script.)
		expect(loaded.filter((m) => m.includes("webstreams/readablestream"))).toEqual([]);
		expect(readFileSync(segmenters, "utf8")).toBe("0");
	}, 60_000);

	it("nor loads node:worker_threads, node:fs/promises, perf_hooks or node:child_process, and with stdin from /dev/null never makes process.stdin", async () => {
		// A CommonJS preload (an --import hook runs module hooks on a worker thread of Node's own).
		const probe = join(sb.root, "probe.cjs");
		const out = join(sb.root, "probe.json");
		writeFileSync(
			probe,
			[
				`const { writeFileSync } = require("node:fs");`,
				// process.stdin is a getter that makes the stream on first access: count the accesses.
				`const getter = Object.getOwnPropertyDescriptor(process, "stdin");`,
				`let stdinReads = 0;`,
				`Object.defineProperty(process, "stdin", { ...getter, get() { stdinReads++; return getter.get.call(process); } });`,
				`process.on("exit", () => writeFileSync(${JSON.stringify(out)}, JSON.stringify({ stdinReads, loaded: process.moduleLoadList })));`,
			].join("\n"),
		);
		sb.fake.enqueue(toolReply("write", { path: "probe.txt", content: "probe\n" }));
		sb.fake.enqueue(toolReply("read", { path: "probe.txt" }));
		sb.fake.enqueue(textReply("Done."));
		const r = await sb.run(["-p", "--no-session", "--model", "fake/fake-model", "Write probe.txt, read it back."], {
			nodeArgs: ["--require", probe],
			stdin: { file: "/dev/null" },
		});
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout.trim()).toBe("Done.");
		expect(readFileSync(join(sb.cwd, "probe.txt"), "utf8")).toBe("probe\n");
		const { stdinReads, loaded } = JSON.parse(readFileSync(out, "utf8")) as { stdinReads: number; loaded: string[] };
		expect(loaded).toContain("NativeModule _http_client");
		expect(loaded.filter((m) => /worker_threads|fs\/promises|readline|perf_hooks|perf\/performance$/.test(m))).toEqual(
			[],
		);
		// Nor node:child_process (and the dgram and socket modules it brings): the modules that import it
		// at their top (config values, checkpoints' git, the bash tool, rg, MCP's stdio...) get a stand-in
		// that loads it on first use (compile-cache.ts lazyBuiltin), and this run starts no process.
		expect(loaded.filter((m) => /child_process|dgram/.test(m))).toEqual([]);
		// Nor Node's Web Crypto (the session id's random bits come from randomUUID, not crypto.getRandomValues).
		expect(loaded.filter((m) => /crypto\/webcrypto|crypto\/webidl/.test(m))).toEqual([]);
		expect(stdinReads).toBe(0);
	}, 60_000);

	it("the hook does see what a run loads: an extension brings jiti (by import()) and its own npm import (by require)", async () => {
		rmSync(record, { force: true });
		const ext = join(sb.root, "uses-yaml.ts");
		// (By path: the extension lives outside any node_modules tree.)
		const yamlDir = resolve(import.meta.dirname, "../../../../node_modules/yaml");
		writeFileSync(
			ext,
			`import YAML from ${JSON.stringify(yamlDir)};\nexport default function () {\n\tYAML.stringify({ a: 1 });\n}\n`,
		);
		sb.fake.enqueue(textReply("Loaded."));
		const r = await sb.run(["-p", "--no-session", "--model", "fake/fake-model", "-e", ext, "hi"], {
			nodeArgs: ["--import", hook],
		});
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout.trim()).toBe("Loaded.");
		const specifiers = readFileSync(record, "utf8")
			.trim()
			.split("\n")
			.map((l) => l.split(" ")[0]);
		expect(specifiers).toContain("jiti");
		expect(specifiers).toContain(yamlDir);
	}, 60_000);
});
