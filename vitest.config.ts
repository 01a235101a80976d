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
	},
});
