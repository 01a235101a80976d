// The package's public surface is a curated list of names (src/index.ts), and
// this test holds it: public-surface.txt lists every exported name, values
// and types, one a line. A change to the surface shows up here as a diff the
// author has to make on purpose (add or remove the line). Internals live in
// `@pi/coding-agent/internal`, exported with the same conditions.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { exportedNames, readSurfaceList } from "../../../test/support/public-surface.js";

const pkgDir = resolve(import.meta.dirname, "..");
const LIST = resolve(import.meta.dirname, "public-surface.txt");

describe("public surface of @pi/coding-agent", () => {
	it("index.ts exports exactly the names in test/public-surface.txt", { timeout: 120_000 }, () => {
		const expected = readSurfaceList(LIST).all;
		const actual = exportedNames(resolve(pkgDir, "src/index.ts"));
		// On a deliberate change: update public-surface.txt (and docs/sdk.md when an SDK user would notice).
		expect(actual).toEqual(expected);
	});

	it("the runtime values of index.ts are the value lines of the list (nothing is only a type by accident)", {
		timeout: 60_000,
	}, async () => {
		const mod = (await import("../src/index.js")) as Record<string, unknown>;
		const { values } = readSurfaceList(LIST);
		expect(Object.keys(mod).sort()).toEqual(values);
		for (const name of values) expect(mod[name], name).toBeDefined();
	});

	it("what extensions get as @earendil-works/pi-coding-agent is public here too", { timeout: 60_000 }, async () => {
		const sdk = (await import("../src/extensions/sdk-module.js")) as Record<string, unknown>;
		const index = (await import("../src/index.js")) as Record<string, unknown>;
		const missing = Object.keys(sdk).filter((name) => index[name] !== sdk[name]);
		expect(missing).toEqual([]);
	});

	it("the internal subpath is exported with the same conditions as the root and re-exports the store contract", {
		timeout: 60_000,
	}, async () => {
		const pkg = JSON.parse(readFileSync(resolve(pkgDir, "package.json"), "utf8")) as {
			exports: Record<string, Record<string, string>>;
		};
		expect(Object.keys(pkg.exports)).toEqual([".", "./internal"]);
		expect(Object.keys(pkg.exports["./internal"])).toEqual(Object.keys(pkg.exports["."]));
		expect(pkg.exports["./internal"]).toEqual({
			development: "./src/internal.ts",
			types: "./src/internal.ts",
			default: "./dist/internal.mjs",
		});
		const internal = (await import("@pi/coding-agent/internal")) as Record<string, unknown>;
		for (const name of ["JsonlSessionStore", "StaleWriterError", "splitStoredLines", "attachJsonlLineReader"]) {
			expect(typeof internal[name], name).toBe("function");
		}
		// Public classes are the same objects through either door (one module instance).
		const index = (await import("@pi/coding-agent")) as Record<string, unknown>;
		expect(internal.SessionManager).toBe(index.SessionManager);
	});
});
