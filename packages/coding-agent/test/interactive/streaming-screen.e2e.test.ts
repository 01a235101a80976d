// What the screen shows WHILE a reply streams: the partial text and nothing
// that claims the reply failed (a message in flight has no stop reason yet).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { assertBuilt, createSandbox, type Sandbox } from "../cli/support.js";
import { hasTmux, startPi, type TmuxPi } from "./tmux.js";

let sb: Sandbox;
let pi: TmuxPi | undefined;

beforeAll(() => {
	if (hasTmux) assertBuilt();
});
beforeEach(async () => {
	sb = await createSandbox();
});
afterEach(async () => {
	pi?.kill();
	pi = undefined;
	await sb.close();
});

const READY = /fake-model\s*$/m;

describe.skipIf(!hasTmux)("the screen while a reply streams (tmux)", () => {
	it("shows the partial text and no error, also after quitting mid-stream", async () => {
		const script = new ChatStream({ model: "fake-model" }).role().text("first words ", "still streaming").script();
		sb.fake.enqueue({ ...script, hangAfterBytes: script.bytes.length });
		pi = startPi({ cwd: sb.cwd, env: sb.env });
		await pi.waitFor(READY);
		pi.type("talk to me");
		pi.keys("Enter");
		const during = await pi.waitFor("still streaming");
		expect(during).not.toMatch(/unknown error/i);
		expect(during).not.toMatch(/Error:/);
		// Some time later, still in flight: still no error.
		await new Promise((r) => setTimeout(r, 500));
		expect(pi.screen()).not.toMatch(/unknown error|Error:/i);
		pi.keys("C-c");
		pi.keys("C-c");
		pi.keys("C-d");
		await pi.waitFor(/\[pi exited \d+\]/);
		expect(pi.screen()).not.toMatch(/unknown error/i);
	});
});
