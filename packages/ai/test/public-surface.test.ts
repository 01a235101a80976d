// The package's public surface is a curated list of names (src/index.ts), and
// this test holds it: public-surface.txt lists every exported name, values
// and types, one a line, so a change to the surface is a diff someone makes
// on purpose. Everything else is in `@pi/ai/internal`, exported with the
// same conditions.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { exportedNames, readSurfaceList } from "../../../test/support/public-surface.js";

const pkgDir = resolve(import.meta.dirname, "..");
const LIST = resolve(import.meta.dirname, "public-surface.txt");

describe("public surface of @pi/ai", () => {
	it("index.ts exports exactly the names in test/public-surface.txt", { timeout: 120_000 }, () => {
		// On a deliberate change: update public-surface.txt.
		expect(exportedNames(resolve(pkgDir, "src/index.ts"))).toEqual(readSurfaceList(LIST).all);
	});

	it("the runtime values of index.ts are the value lines of the list", { timeout: 60_000 }, async () => {
		const mod = (await import("@pi/ai")) as Record<string, unknown>;
		const { values } = readSurfaceList(LIST);
		expect(Object.keys(mod).sort()).toEqual(values);
		for (const name of values) expect(mod[name], name).toBeDefined();
	});

	it("the internal subpath has the root's conditions and holds every public value as the same object", {
		timeout: 60_000,
	}, async () => {
		const pkg = JSON.parse(readFileSync(resolve(pkgDir, "package.json"), "utf8")) as {
			exports: Record<string, Record<string, string>>;
		};
		expect(Object.keys(pkg.exports)).toEqual([".", "./internal"]);
		expect(pkg.exports["./internal"]).toEqual({
			development: "./src/internal.ts",
			types: "./src/internal.ts",
			default: "./dist/internal.js",
		});
		const index = (await import("@pi/ai")) as Record<string, unknown>;
		const internal = (await import("@pi/ai/internal")) as Record<string, unknown>;
		for (const name of Object.keys(index)) expect(internal[name], name).toBe(index[name]);
		// What the public surface leaves out is still reachable for tests.
		for (const name of ["clearSecrets", "SseParser", "providerFetch", "runAdapterStream"]) {
			expect(typeof internal[name], name).toBe("function");
			expect(index[name], name).toBeUndefined();
		}
	});
});
