import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/sequencer.js";

export default defineConfig({
	resolve: { conditions: ["development", "node", "import", "default"] },
	// Vitest passes these to node as --conditions for the forked workers; "import" there would make
	// require() inside CommonJS dual packages (pg → pg-pool) load their ESM build. Node adds import/require itself.
	ssr: { resolve: { conditions: ["development", "node", "default"] } },
	test: {
		include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
		testTimeout: 20_000,
		hookTimeout: 20_000,
		pool: "forks",
		// A scratch folder per run for the bundles tests build, removed at the end (test/global-setup.ts).
		globalSetup: ["test/global-setup.ts"],
		// Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where most test time is
		// spent waiting on child processes, servers and lock timeouts rather than computing. Two files at once there.
		maxWorkers: Math.max(2, availableParallelism() - 1),
		// The slowest files first (see test/sequencer.ts), so none of them starts last and runs alone.
		sequence: { sequencer: LongestFirstSequencer },
		// Tests drive real terminals, servers and child processes on a shared 2-core machine; a test that fails once
		// runs once more, so a loaded moment cannot fail the whole suite. A test that fails twice is a real failure.
		// PI_TEST_NO_RETRY=1 turns this off to hunt flakes.
		retry: process.env.PI_TEST_NO_RETRY ? 0 : 1,
	},
});
