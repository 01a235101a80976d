// `pi --version` must stay fast: the built dist/cli.js is one small CommonJS
// file (a CommonJS entry starts faster than an ES module one) whose top level
// requires only node built-ins. The CLI itself (dist/cli-main.cjs) and the
// code-cache loader are loaded only past the --version check.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, CLI } from "./support.js";

beforeAll(assertBuilt);

describe("fast start of the built CLI", () => {
	it("is one small CommonJS file that requires node built-ins only, the bundle by import() past --version", () => {
		const source = readFileSync(CLI, "utf8");
		expect(source.length).toBeLessThan(40_000);
		// CommonJS: dist/ is its own package scope, and cli.js has no ES module syntax.
		expect(JSON.parse(readFileSync(join(dirname(CLI), "package.json"), "utf8"))).toEqual({ type: "commonjs" });
		expect(source).not.toMatch(/^\s*(import|export)\s/m);
		const required = [...source.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]);
		expect(required.length).toBeGreaterThan(0);
		expect(required.filter((s) => !s.startsWith("node:"))).toEqual([]);
		// The bundle is named once, in the branch after the version check.
		const version = source.indexOf('"--version"');
		const bundle = source.indexOf('"cli-main.cjs"');
		expect(version).toBeGreaterThan(0);
		expect(bundle).toBeGreaterThan(version);
		// The early frame is a file of its own, required past --version for app starts only.
		expect(source).not.toContain("function frameKey");
		expect(source.indexOf('"cli-early-frame.cjs"')).toBeGreaterThan(version);
		expect(readFileSync(join(dirname(CLI), "cli-early-frame.cjs"), "utf8")).toContain("function frameKey");
	});

	it("makes esbuild's module wrappers in the CLI's files as null-prototype literals (no map per module)", () => {
		// Each `__esm({ "<path>"() {...} })` literal has a key no other literal has: with a map each, V8 grows one
		// shared transition array by ~1,500 sorted entries at every start (~20M instructions, scripts/build.mjs).
		const dist = dirname(CLI);
		const files = readdirSync(dist).filter((f) => /^cli-.+\.cjs$/.test(f));
		expect(files).toContain("cli-main.cjs");
		let wrappers = 0;
		for (const f of files) {
			const text = readFileSync(join(dist, f), "latin1");
			const all = [...text.matchAll(/(?:= (?:__esm|__commonJS)\(|^\s*__export\([\w$]+, )\{(.*)$/gm)];
			expect(all.filter((m) => m[1] !== " __proto__: null,").map((m) => `${f}: ${m[0]}`)).toEqual([]);
			wrappers += all.length;
		}
		expect(wrappers).toBeGreaterThan(1000);
	});

	it("answers --version on descriptor 1 without making process.stdout (its pipe stream costs ~3 ms)", () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-version-"));
		try {
			// A --require probe: records whether anything read process.stdout before the exit.
			const probe = join(dir, "probe.cjs");
			const out = join(dir, "probe.json");
			writeFileSync(
				probe,
				`const fs = require("node:fs");
const d = Object.getOwnPropertyDescriptor(process, "stdout");
let used = false;
Object.defineProperty(process, "stdout", { configurable: true, enumerable: d.enumerable, get() { used = true; return d.get.call(process); } });
process.on("exit", () => fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify({ used })));
`,
			);
			const printed = execFileSync(process.execPath, ["--require", probe, CLI, "--version"], { encoding: "utf8" });
			const version = JSON.parse(readFileSync(join(dirname(CLI), "..", "package.json"), "utf8")).version;
			expect(printed).toBe(`${version}\n`);
			expect(JSON.parse(readFileSync(out, "utf8"))).toEqual({ used: false });
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
