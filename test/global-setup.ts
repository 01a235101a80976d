// Once per vitest run, in the main process: a temporary folder for what the
// tests build for their child processes (bundleTestScript's bundles), handed
// to the workers through provide/inject and removed when the run ends. The
// workers are SIGTERMed at the end, so a clean-up in them would not run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
// Declares the provided key (ProvidedContext.testBuildDir) next to its reader.
import type {} from "../packages/coding-agent/test/support/bundle-script.js";

export default function setup(project: TestProject): () => void {
	const dir = mkdtempSync(join(tmpdir(), "pi-test-run-"));
	project.provide("testBuildDir", dir);
	return () => rmSync(dir, { recursive: true, force: true });
}
