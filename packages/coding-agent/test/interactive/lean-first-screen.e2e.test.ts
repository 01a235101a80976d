// What the BUILT app has loaded when its first screen is written (issue 25): a
// probe (`--require` through NODE_OPTIONS) records Node's module load list at
// the first write that shows the footer's model. Node's `performance` global is
// not among it: its first use loads the perf_hooks modules (~6M instructions),
// and the TUI paces frames with process.hrtime instead. Nor is node:fs/promises
// (with the watcher and readline modules it loads, ~5M): the TUI's path
// completion lists directories through the callback API. Nor is node:http
// (client and server, ~15M with its cached code): pi's account logins, whose
// callback server needs it, are loaded by /login, not before the app starts.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasTmux, READY, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the first screen's module list");

describe.skipIf(!hasTmux)("first screen (tmux, built app)", () => {
	it("is written before Node's perf_hooks, fs/promises and http modules are loaded", async () => {
		const out = join(app.sb.root, "loaded-at-first-screen");
		const probe = join(app.sb.root, "first-screen-probe.cjs");
		writeFileSync(
			probe,
			[
				`const { writeFileSync } = require("node:fs");`,
				`const stdout = process.stdout;`,
				`const write = stdout.write;`,
				`let seen = false;`,
				`stdout.write = function (chunk, ...rest) {`,
				`	if (!seen && String(chunk).includes("fake-model")) {`,
				`		seen = true;`,
				`		writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join("\\n"));`,
				`	}`,
				`	return write.call(this, chunk, ...rest);`,
				`};`,
			].join("\n"),
		);
		const p = app.start({
			args: ["--no-session", "--model", "fake/fake-model"],
			env: { NODE_OPTIONS: `--require ${probe}` },
		});
		await p.waitFor(READY, 20_000);
		expect(existsSync(out)).toBe(true);
		const loaded = readFileSync(out, "utf8").split("\n");
		// The probe saw the app's own modules being loaded (the TUI draws through tty).
		expect(loaded).toContain("NativeModule tty");
		expect(loaded.filter((m) => /perf_hooks|internal\/perf\/performance$|fs\/promises$/.test(m))).toEqual([]);
		expect(loaded.filter((m) => /^NativeModule (http|_http_\w+)$/.test(m))).toEqual([]);
	});
});
