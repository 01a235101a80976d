// Without -p and with a terminal on stdin, pi would start the interactive mode,
// which comes in a later build: it must say so clearly (run under a pty via `script`).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, CLI, createSandbox, type Sandbox } from "./support.js";

const run = promisify(execFile);
const hasScript = existsSync("/usr/bin/script");
let sb: Sandbox;
beforeAll(assertBuilt);
beforeEach(async () => {
	sb = await createSandbox();
});
afterEach(async () => {
	await sb.close();
});

describe.skipIf(!hasScript)("with a terminal", () => {
	it("explains that the interactive mode is not available yet and exits 1", async () => {
		const result = await run("/usr/bin/script", ["-qec", `${process.execPath} ${CLI} "hello"`, "/dev/null"], {
			cwd: sb.cwd,
			env: sb.env,
		}).then(
			(r) => ({ code: 0, out: r.stdout }),
			(e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
		);
		expect(result.code).toBe(1);
		expect(result.out.replace(/\r/g, "")).toBe(
			'Interactive mode is not available in this build yet. Use print mode: pi -p "your prompt" (or --mode json for events as JSON lines).\n',
		);
		expect(sb.fake.requests).toHaveLength(0);
	});
});
