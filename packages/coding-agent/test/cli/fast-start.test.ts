// `pi --version` / `--help` must stay fast: the modules the built dist/cli.js
// loads statically (before any dynamic import()) must be few, small, and free
// of npm packages (provider SDKs, TUI, highlighters load later, on demand).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, CLI } from "./support.js";

beforeAll(assertBuilt);

/** Specifiers of static `import … from "x"` / `import "x"` statements (dynamic import() excluded). */
function staticImports(source: string): string[] {
	const out: string[] = [];
	for (const m of source.matchAll(/^\s*(?:import|export)\s+(?:[^"'()]*?\sfrom\s+)?["']([^"']+)["'];?/gm))
		out.push(m[1]);
	return out;
}

describe("fast start of the built CLI", () => {
	it("statically loads only small local chunks and node built-ins", () => {
		const seen = new Map<string, number>();
		const bare: string[] = [];
		const visit = (file: string) => {
			if (seen.has(file)) return;
			const source = readFileSync(file, "utf8");
			seen.set(file, source.length);
			for (const spec of staticImports(source)) {
				if (spec.startsWith("node:")) continue;
				if (spec.startsWith(".")) visit(join(dirname(file), spec));
				else bare.push(`${file}: ${spec}`);
			}
		};
		visit(CLI);
		expect(bare).toEqual([]);
		const total = [...seen.values()].reduce((a, b) => a + b, 0);
		expect(total).toBeLessThan(40_000);
		// `--version` is answered by cli.js alone (the version inlined): everything else is in the
		// CommonJS bundle (dist/cli-main.cjs) that cli.js loads only past that check.
		expect(seen.size).toBe(1);
	});
});
