// Orders test files longest first, so that with two workers the slow files
// (fleet, kill loops, MCP, tmux) start at once and the short ones fill in
// around them, instead of a 50 s file starting last and running alone.
// Vitest's own sequencer does this only from its results cache
// (node_modules/.vite), which a clean clone or CI does not have: there the
// files ran in glob order. Here a file's weight is its duration in that cache
// when present (this machine's last run), else its duration in
// test/durations.json (a full run's figures, refreshed with
// `node scripts/test-durations.mjs <vitest json report>`), else a guess of
// one second for a file added since.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const committed = JSON.parse(readFileSync(new URL("./durations.json", import.meta.url), "utf8")) as Record<
	string,
	number
>;

export class LongestFirstSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const root = this.ctx.config.root;
		const weight = (spec: TestSpecification): number => {
			const path = relative(root, spec.moduleId);
			const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
			if (cached && !cached.failed && cached.duration > 0) return cached.duration / 1000;
			return committed[path] ?? 1;
		};
		const weights = new Map(files.map((spec) => [spec, weight(spec)]));
		return [...files].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0));
	}
}
