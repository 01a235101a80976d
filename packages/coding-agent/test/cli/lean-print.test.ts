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
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, createSandbox, type Sandbox, textReply, toolReply } from "./support.js";

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
			`import { writeFileSync } from "node:fs";`,
			`import { register } from "node:module";`,
			`register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`,
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

describe("a -p run loads only what it uses", () => {
	it("a tool loop resolves neither the TUI's markdown and highlighter nor the config-file lock, nor loads undici or web streams, nor makes a segmenter", async () => {
		sb.fake.enqueue(toolReply("write", { path: "notes.txt", content: "lean\n" }));
		sb.fake.enqueue(toolReply("read", { path: "notes.txt" }));
		sb.fake.enqueue(textReply("Done."));
		const r = await sb.run(["-p", "--no-session", "--model", "fake/fake-model", "Write notes.txt, read it back."], {
			nodeArgs: ["--import", hook],
		});
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout.trim()).toBe("Done.");
		expect(sb.fake.requests).toHaveLength(3);
		expect(readFileSync(join(sb.cwd, "notes.txt"), "utf8")).toBe("lean\n");

		const lines = readFileSync(record, "utf8").trim().split("\n");
		const specifiers = lines.map((l) => l.split(" ")[0]);
		// The hook sees the run: the CLI's chunks (relative specifiers) and bare npm specifiers alike.
		expect(lines.some((l) => /\/dist\/chunks\/main-[^/]+\.js$/.test(l))).toBe(true);
		expect(specifiers.some((s) => /^[a-z@]/.test(s) && !s.startsWith("node:"))).toBe(true);
		const unwanted = specifiers.filter((s) =>
			/^(marked|cli-highlight|highlight\.js|proper-lockfile|graceful-fs|chalk|jiti)(\/|$)/.test(s),
		);
		expect(unwanted).toEqual([]);
		// TypeBox is bundled into the chunks, so it is found by the source paths esbuild notes in them.
		const chunks = [...new Set(lines.map((l) => l.split(" ")[1]).filter((u) => /\/dist\/.*\.js$/.test(u)))];
		const typeboxParts = chunks.flatMap((url) =>
			[...readFileSync(new URL(url), "utf8").matchAll(/node_modules\/typebox\/build\/(compile|format|value)\//g)].map(
				(m) => m[1],
			),
		);
		expect(chunks.length).toBeGreaterThan(10);
		expect(new Set(typeboxParts)).toEqual(new Set());

		const loaded = readFileSync(builtins, "utf8").split("\n");
		expect(loaded).toContain("NativeModule _http_client");
		expect(loaded.filter((m) => m.includes("undici"))).toEqual([]);
		// (webstreams/util and queuingstrategies are loaded by Node itself, as in a bare script.)
		expect(loaded.filter((m) => m.includes("webstreams/readablestream"))).toEqual([]);
		expect(readFileSync(segmenters, "utf8")).toBe("0");
	}, 60_000);
});
