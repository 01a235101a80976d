// Loading real files through jiti: TS without a build step, sync and async
// factories, the module names upstream extensions import, an extension's
// own node_modules, and every bad input named with its file (and line).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ExtensionSource } from "../../src/extensions/discovery.js";
import { loadExtensions } from "../../src/extensions/loader.js";

const dir = mkdtempSync(join(tmpdir(), "pi-ext-loader-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
	const path = join(dir, name);
	mkdirSync(join(path, ".."), { recursive: true });
	writeFileSync(path, text);
	return path;
}
const src = (path: string): ExtensionSource => ({
	path,
	sourceInfo: { path, source: "cli", scope: "temporary", origin: "top-level" },
});
const load = (paths: string[], o: { timeoutMs?: number; apiVersion?: string } = {}) =>
	loadExtensions({ cwd: dir, sources: paths.map(src), ...o });

describe("loadExtensions", () => {
	it("loads TypeScript with sync and async factories, awaiting the async one", async () => {
		const sync = file(
			"sync.ts",
			`export default function (pi: any): void { pi.registerCommand("s", { handler() {} }); }\n`,
		);
		const asyncExt = file(
			"async.ts",
			`export default async function (pi: any) { await new Promise((r) => setTimeout(r, 30)); pi.registerCommand("a", { handler() {} }); }\n`,
		);
		const r = await load([sync, asyncExt]);
		expect(r.errors).toEqual([]);
		expect(r.extensions.map((e) => [...e.commands.keys()])).toEqual([["s"], ["a"]]);
	});

	it("resolves upstream module names to this process's modules", async () => {
		const path = file(
			"imports.ts",
			[
				`import { Type } from "typebox";`,
				`import { Type as SinclairType } from "@sinclair/typebox";`,
				`import { StringEnum, Type as AiType } from "@earendil-works/pi-ai";`,
				`import { StringEnum as OldEnum } from "@mariozechner/pi-ai";`,
				`import { defineTool, isToolCallEventType, truncateHead, formatSize, withFileMutationQueue, CONFIG_DIR_NAME, getAgentDir } from "@earendil-works/pi-coding-agent";`,
				`import { SessionManager } from "@mariozechner/pi-coding-agent";`,
				`import { Agent } from "@earendil-works/pi-agent-core";`,
				`import { Text } from "@earendil-works/pi-tui";`,
				`export default function (pi: any) {`,
				`  const ok = [Type, SinclairType, AiType, StringEnum, OldEnum, defineTool, isToolCallEventType, truncateHead, formatSize, withFileMutationQueue, getAgentDir, SessionManager, Agent, Text].every((x) => typeof x === "function" || typeof x === "object");`,
				`  pi.registerCommand(ok && CONFIG_DIR_NAME === ".pi" && formatSize(2048) === "2.0KB" ? "ok" : "broken", { handler() {} });`,
				`  pi.registerTool(defineTool({ name: "t", label: "t", description: "d", parameters: Type.Object({ k: StringEnum(["a", "b"]) }), async execute() { return { content: [], details: {} }; } }));`,
				`}`,
			].join("\n"),
		);
		const r = await load([path]);
		expect(r.errors).toEqual([]);
		expect([...r.extensions[0].commands.keys()]).toEqual(["ok"]);
		expect(r.extensions[0].tools.get("t")?.definition.parameters).toEqual(
			expect.objectContaining({ properties: { k: expect.objectContaining({ enum: ["a", "b"] }) } }),
		);
	});

	it("resolves the extension's own node_modules", async () => {
		file("withdeps/node_modules/tiny-dep/package.json", JSON.stringify({ name: "tiny-dep", main: "index.js" }));
		file("withdeps/node_modules/tiny-dep/index.js", "module.exports = { twice: (n) => n * 2 };\n");
		const path = file(
			"withdeps/index.ts",
			`import { twice } from "tiny-dep";\nexport default function (pi: any) { pi.registerCommand("n" + twice(21), { handler() {} }); }\n`,
		);
		const r = await load([path]);
		expect(r.errors).toEqual([]);
		expect([...r.extensions[0].commands.keys()]).toEqual(["n42"]);
	});

	it("a missing file is an error naming it", async () => {
		const r = await load([join(dir, "nope.ts")]);
		expect(r.errors).toEqual([
			{ path: join(dir, "nope.ts"), message: `Extension file not found: ${join(dir, "nope.ts")}` },
		]);
	});

	it("a syntax error names the file and line", async () => {
		const path = file("broken.ts", `export default function (pi: any) {\n  const x = ;\n}\n`);
		const r = await load([path]);
		expect(r.extensions).toEqual([]);
		expect(r.errors[0]).toEqual(expect.objectContaining({ path, line: 2 }));
		expect(r.errors[0].message).toContain(`${path}:2`);
	});

	it("a factory that throws names the file and line; the others still load", async () => {
		const bad = file(
			"throws.ts",
			`export default function () {\n  if (Date.now() > 0) {\n    throw new Error("no config");\n  }\n}\n`,
		);
		const good = file(
			"fine.ts",
			`export default function (pi: any) { pi.registerCommand("fine", { handler() {} }); }\n`,
		);
		const r = await load([bad, good]);
		expect(r.errors).toHaveLength(1);
		expect(r.errors[0].message).toBe(`Extension ${bad}:3: its factory threw: no config`);
		expect(r.extensions.map((e) => e.path)).toEqual([good]);
	});

	it("a factory that never resolves is stopped by the time limit", async () => {
		const path = file("hangs.ts", `export default function () { return new Promise(() => {}); }\n`);
		const started = Date.now();
		const r = await load([path], { timeoutMs: 200 });
		expect(Date.now() - started).toBeLessThan(5000);
		expect(r.errors[0].message).toMatch(/its factory did not finish within 0 s/);
	});

	it("no default export is an error", async () => {
		const path = file("nodefault.ts", `export const x = 1;\n`);
		const r = await load([path]);
		expect(r.errors[0].message).toBe(`Extension ${path} does not export a default function.`);
	});

	it("an API range that does not match names both versions (engines.pi and piApi)", async () => {
		file("ranged/package.json", JSON.stringify({ name: "ranged", engines: { pi: ">=2.0.0" } }));
		const byManifest = file("ranged/index.ts", `export default function () {}\n`);
		const byExport = file("piapi.ts", `export const piApi = "^1.7.0";\nexport default function () {}\n`);
		const fits = file("fits.ts", `export const piApi = ">=1.6 <2";\nexport default function () {}\n`);
		const r = await load([byManifest, byExport, fits]);
		expect(r.errors.map((e) => e.message)).toEqual([
			`Extension ${byManifest} needs extension API >=2.0.0 (engines.pi in its package.json), but this pi provides API 1.6.0; it was not loaded.`,
			`Extension ${byExport} needs extension API ^1.7.0 (its piApi export), but this pi provides API 1.6.0; it was not loaded.`,
		]);
		expect(r.extensions.map((e) => e.path)).toEqual([fits]);
	});

	it("pi.apiVersion is this build's API version", async () => {
		const path = file(
			"version.ts",
			`export default function (pi: any) { pi.registerCommand("v" + pi.apiVersion, { handler() {} }); }\n`,
		);
		const r = await load([path]);
		expect([...r.extensions[0].commands.keys()]).toEqual(["v1.6.0"]);
	});
});
