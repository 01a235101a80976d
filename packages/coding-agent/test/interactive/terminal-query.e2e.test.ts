// The app's question to the terminal about its background (OSC 11 + DA1, for
// the `system` theme) in the BUILT CLI, in tmux (issue 25): it goes out as soon
// as the CLI knows the app will draw with a theme that follows the terminal,
// before the app's code is loaded, so the answer is back by the time the app
// draws; and a run that ends before the app still waits for the answer, which
// the shell would otherwise read as typed input.
import { describe, expect, it } from "vitest";
import { orderProbe } from "../support/order-probe.js";
import { hasTmux, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the terminal background query");

describe.skipIf(!hasTmux)("the terminal background query (tmux, built app)", () => {
	it("is sent before the app's code is loaded, and the app draws with its answer", async () => {
		// The query's write and the first read of the app's file (cli-interactive.cjs), in order.
		const probe = orderProbe(app.sb.root, {
			reads: { "cli-interactive.cjs": "app code" },
			writes: { "\x1b]11;?": "query" },
		});
		const pi = await app.ready({
			env: { COLORTERM: "truecolor", NODE_OPTIONS: probe.nodeOptions },
			args: ["--no-session", "--model", "fake/fake-model"],
			tmuxConf: "set -g window-style 'bg=#f0f0f0'",
		});
		// The light theme's accent (teal #2a7f78): the answer decided the theme.
		expect(pi.screenWithColors()).toContain("38;2;42;127;120");
		pi.kill();
		expect(probe.take()).toEqual(["query", "app code"]);
	});
});

describe.skipIf(!hasTmux)("a run that ends before the app (tmux, built app)", () => {
	it("leaves no terminal reply behind for the shell to read", async () => {
		// A missing @file ends the run after the query went out (the settings were read), before the app.
		// Then the shell reads what is left on the terminal's input for a second (`read` keeps a partial line).
		const pi = app.start({
			args: ["--model", "fake/fake-model", "@missing.txt"],
			tmuxConf: "set -g window-style 'bg=#101418'",
			afterExit: ["IFS= read -t 1 -r line", `printf '[shell read:%s]\\n' "$line" | cat -v`],
		});
		const screen = await pi.waitFor("[shell read:", 20_000);
		expect(screen).toContain("File not found");
		expect(screen).toContain("[pi exited 1]");
		expect(screen).toContain("[shell read:]");
	});
});
