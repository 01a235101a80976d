// What the screen shows WHILE a reply streams: the partial text and nothing
// that claims the reply failed (a message in flight has no stop reason yet).
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { hasTmux, READY, settle, submit, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the streaming screen test");

describe.skipIf(!hasTmux)("the screen while a reply streams (tmux)", () => {
	it("shows the partial text and no error, also after quitting mid-stream", async () => {
		const script = new ChatStream({ model: "fake-model" }).role().text("first words ", "still streaming").script();
		app.sb.fake.enqueue({ ...script, hangAfterBytes: script.bytes.length });
		const pi = app.start();
		await pi.waitFor(READY);
		const during = await submit(pi, "talk to me", "still streaming");
		expect(during).not.toMatch(/unknown error/i);
		expect(during).not.toMatch(/Error:/);
		// Some time later, still in flight: still no error.
		await settle(500);
		expect(pi.screen()).not.toMatch(/unknown error|Error:/i);
		pi.keys("C-c");
		pi.keys("C-c");
		pi.keys("C-d");
		await pi.waitFor(/\[pi exited \d+\]/);
		expect(pi.screen()).not.toMatch(/unknown error/i);
	});
});
