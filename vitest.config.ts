import { defineConfig } from "vitest/config";

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
		// Tests drive real terminals, servers and child processes on a shared 2-core machine; a test that fails once
		// runs once more, so a loaded moment cannot fail the whole suite. A test that fails twice is a real failure.
		// PI_TEST_NO_RETRY=1 turns this off to hunt flakes.
		retry: process.env.PI_TEST_NO_RETRY ? 0 : 1,
	},
});
