// The package's public surface is a curated list of names (src/index.ts), and
// this test holds it: public-surface.txt lists every exported name, values
// and types, one a line, so a change to the surface is a diff someone makes
// on purpose. The package's own tests import its modules from src/ directly.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { exportedNames, readSurfaceList } from "../../../test/support/public-surface.js";

const LIST = resolve(import.meta.dirname, "public-surface.txt");

describe("public surface of @pi/agent-core", () => {
	it("index.ts exports exactly the names in test/public-surface.txt", { timeout: 120_000 }, () => {
		// On a deliberate change: update public-surface.txt.
		expect(exportedNames(resolve(import.meta.dirname, "../src/index.ts"))).toEqual(readSurfaceList(LIST).all);
	});

	it("the runtime values of index.ts are the value lines of the list", { timeout: 60_000 }, async () => {
		const mod = (await import("@pi/agent-core")) as Record<string, unknown>;
		const { values } = readSurfaceList(LIST);
		expect(Object.keys(mod).sort()).toEqual(values);
		for (const name of values) expect(mod[name], name).toBeDefined();
	});
});
