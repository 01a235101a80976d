// A terminal that goes away under the app (a closed window, a dropped ssh
// connection: tmux's server killed closes the pane's pty). Writes to it then
// fail with EIO, emitted as an `error` event on process.stdout: without a
// listener that ended pi with "Unhandled 'error' event" in the middle of its
// shutdown, skipping what comes after (settings flush, session dispose).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { hasTmux, READY, submit, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the closed-terminal test");

/** A preload that records pi's exit code and any uncaught error (its terminal is gone, so is its stderr). */
function exitRecorder(dir: string): { nodeOptions: string; read(timeoutMs: number): Promise<string> } {
	const log = join(dir, "exit.log");
	const preload = join(dir, "exit-recorder.cjs");
	writeFileSync(
		preload,
		`const { appendFileSync } = require("node:fs");
process.on("uncaughtExceptionMonitor", (e) => appendFileSync(${JSON.stringify(log)}, "uncaught " + (e && e.stack) + "\\n"));
process.on("exit", (code) => appendFileSync(${JSON.stringify(log)}, "exit " + code + "\\n"));
`,
	);
	return {
		nodeOptions: `--require ${preload}`,
		async read(timeoutMs) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const text = existsSync(log) ? readFileSync(log, "utf8") : "";
				if (text.includes("exit ")) return text;
				if (Date.now() > deadline) throw new Error(`pi did not exit within ${timeoutMs} ms: ${text}`);
				await new Promise((r) => setTimeout(r, 50));
			}
		},
	};
}

describe.skipIf(!hasTmux)("a closed terminal (tmux)", () => {
	it("the terminal closed mid-reply: no crash on its EIO, the reply is saved as aborted, pi exits", async () => {
		const script = new ChatStream({ model: "fake-model" }).role().text("partial words").script();
		app.sb.fake.enqueue({ ...script, hangAfterBytes: script.bytes.length });
		const recorder = exitRecorder(app.sb.root);
		const session = join(app.sb.root, "hangup.jsonl");
		const pi = app.start({ args: ["--session", session], env: { NODE_OPTIONS: recorder.nodeOptions } });
		await pi.waitFor(READY);
		await submit(pi, "start", "partial words");
		pi.kill();
		const log = await recorder.read(15_000);
		expect(log, log).not.toContain("uncaught");
		expect(log).toMatch(/^exit 0$/m);
		const messages = readFileSync(session, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l))
			.filter((e) => e.type === "message")
			.map((e) => e.message);
		expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect(JSON.stringify(messages.at(-1).content)).toContain("partial words");
	}, 30_000);
});
