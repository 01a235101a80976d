// Controlling a run from the editor: steering lands after the current tool
// batch (next request), Esc aborts and the app stays usable, queued messages
// come back into the editor.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { type HandlerScript, json } from "../../../ai/test/support/fake-provider/server.js";
import { body, textReply, toolReply } from "../cli/support.js";
import { hasTmux, READY, settle, submit, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the run-control tests");
/** The first retry's delay in the countdown test (baseDelayMs). */
const RETRY_MS = 1000;

function hangingReply(text: string) {
	const script = new ChatStream({ model: "fake-model" }).role().text(text).script();
	return { ...script, hangAfterBytes: script.bytes.length };
}

describe.skipIf(!hasTmux)("run control (tmux)", () => {
	it("a steering message typed during a tool call is sent right after the tool result", async () => {
		// The tool runs until the test lets it finish (a file appears), so the steering message is
		// typed while it runs however slow the machine is, and no fixed sleep is waited out.
		const command = "until [ -e go ]; do sleep 0.05; done; echo slept";
		app.sb.fake.enqueue(toolReply("bash", { command }), textReply("steered answer"));
		const pi = app.start();
		await pi.waitFor(READY);
		await submit(pi, "run it", `$ ${command}`);
		await submit(pi, "also check the logs", "Steering: also check the logs");
		writeFileSync(join(app.sb.cwd, "go"), "");
		await pi.waitFor("steered answer");
		expect(app.sb.fake.requests).toHaveLength(2);
		const messages = body(app.sb.fake, 1).messages;
		const last = messages.slice(-2);
		expect(last[0].role).toBe("tool");
		expect(JSON.stringify(last[0].content)).toContain("slept");
		expect(last[1]).toMatchObject({ role: "user" });
		expect(JSON.stringify(last[1].content)).toContain("also check the logs");
	});

	it("esc aborts a streaming reply; queued follow-ups return to the editor; the next prompt works", async () => {
		app.sb.fake.enqueue(hangingReply("partial words"), textReply("fresh answer"));
		const pi = app.start();
		await pi.waitFor(READY);
		await submit(pi, "start", "partial words");
		pi.type("later please");
		pi.keys("M-Enter");
		await pi.waitFor("Follow-up: later please");
		pi.keys("Escape");
		const screen = await pi.waitFor("Operation aborted");
		expect(screen).not.toContain("Follow-up: later please");
		// The follow-up is back in the editor: send it.
		expect(screen).toMatch(/^later please/m);
		pi.keys("Enter");
		await pi.waitFor("fresh answer");
		const messages = body(app.sb.fake, 1).messages;
		expect(JSON.stringify(messages.at(-1)?.content)).toContain("later please");
		expect(messages.some((m) => m.role === "assistant" && JSON.stringify(m.content).includes("partial words"))).toBe(
			true,
		);
	});

	it("ctrl+c clears the editor, twice exits", async () => {
		const pi = app.start();
		await pi.waitFor(READY);
		pi.type("some draft");
		await pi.waitFor("some draft");
		pi.keys("C-c");
		await pi.waitFor((s) => !s.includes("some draft"));
		await settle(600);
		pi.keys("C-c", "C-c");
		await pi.waitFor("[pi exited 0]");
	});

	it("once the retried request is under way the countdown is gone; the notice ends with the outcome; long errors wrap", async () => {
		writeFileSync(
			join(app.sb.agentDir, "settings.json"),
			JSON.stringify({ retry: { baseDelayMs: 1000, maxRetries: 2, provider: { maxRetries: 0 } } }),
		);
		const words = Array.from({ length: 40 }, (_, i) => `w${i}x`);
		// A reply whose second half is held back until the screen was read in between.
		const reply = new ChatStream({ model: "fake-model" })
			.role()
			.text("streaming partial")
			.text(" and the rest")
			.finish("stop")
			.usage({ prompt_tokens: 5, completion_tokens: 5 })
			.done()
			.script();
		const second = reply.bytes.indexOf("data:", reply.bytes.indexOf("streaming partial"));
		let release = () => {};
		const released = new Promise<void>((resolve) => {
			release = resolve;
		});
		const heldBack: HandlerScript = {
			kind: "handler",
			async handle(_req, res) {
				res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
				res.write(reply.bytes.subarray(0, second));
				await released;
				res.end(reply.bytes.subarray(second));
			},
		};
		app.sb.fake.enqueue(json(503, { error: { message: `overloaded ${words.join(" ")}` } }), heldBack);
		const pi = app.start({ columns: 80 });
		await pi.waitFor(READY);
		const waiting = await submit(pi, "go", /Retrying in \ds \(attempt 1\/2\)/);
		// Every word of the long error is on screen (wrapped, not cut at the edge).
		for (const w of words) expect(waiting).toMatch(new RegExp(`\\b${w}\\b`));
		const streaming = await pi.waitFor("streaming partial");
		expect(streaming).not.toMatch(/Retrying in \ds/);
		expect(streaming).not.toContain("esc to cancel");
		expect(streaming).not.toContain("and the rest");
		release();
		const done = await pi.waitFor("and the rest", 15_000);
		expect(done).toContain("Recovered on retry (attempt 1/2) after: 503");
		expect(done).not.toContain("esc to cancel");
		expect(app.sb.fake.requests).toHaveLength(2);
	});

	it("a transient error shows a retry countdown, then the answer; esc during the wait cancels it", async () => {
		writeFileSync(
			join(app.sb.agentDir, "settings.json"),
			JSON.stringify({ retry: { baseDelayMs: RETRY_MS, maxRetries: 2, provider: { maxRetries: 0 } } }),
		);
		app.sb.fake.enqueue(json(503, { error: { message: "overloaded" } }), textReply("recovered answer"));
		const pi = app.start();
		await pi.waitFor(READY);
		const waiting = await submit(pi, "first", /Retrying in 1s \(attempt 1\/2\)/);
		expect(waiting).toContain("overloaded");
		const screen = await pi.waitFor("recovered answer");
		expect(screen).not.toContain("Retrying in");
		expect(app.sb.fake.requests).toHaveLength(2);

		app.sb.fake.enqueue(json(503, { error: { message: "overloaded again" } }));
		await submit(pi, "second", /Retrying in \ds/);
		const countdownSeen = Date.now();
		pi.keys("Escape");
		await pi.waitFor((s) => !/Retrying in \ds/.test(s) && !s.includes("Working..."));
		// Nothing to poll for: a retry that was not cancelled would be sent RETRY_MS after the
		// countdown began (before it was seen), so waiting that long past it (and a margin) shows none.
		await settle(Math.max(0, countdownSeen + RETRY_MS + 500 - Date.now()));
		expect(app.sb.fake.requests).toHaveLength(3);
		pi.type("still usable");
		await pi.waitFor("still usable");
	});
});
