// Entries an extension adds outside a run's messages are drawn when they are
// announced (`entry_appended`), not at the next message or command (BUILT app,
// tmux, fake provider): a custom entry appended by an agent_settled handler
// once the reply is on screen, and a custom message (pi.sendMessage without a
// turn) stored by a timer after the command that armed it has returned.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply } from "../cli/support.js";
import { hasTmux, READY, submit, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("interactive entry drawing tests");

const EXTENSION = `
import { Text } from "@earendil-works/pi-tui";
export default function (pi) {
	pi.registerEntryRenderer("note", (entry) => new Text("[note] " + entry.data.text, 0, 0));
	let runs = 0;
	pi.on("agent_settled", () => {
		runs++;
		pi.appendEntry("note", { text: "run " + runs + " settled" });
	});
	pi.registerCommand("later", {
		handler: async (args, ctx) => {
			// Stored after the command returned: no sync point of the app follows it.
			setTimeout(() => pi.sendMessage({ customType: "later", content: "LATER " + args, display: true }), 300);
			ctx.ui.notify("armed");
		},
	});
}
`;

describe.skipIf(!hasTmux)("extension entries drawn on entry_appended (tmux)", () => {
	it("an agent_settled appendEntry and an idle pi.sendMessage appear without another prompt, in order", async () => {
		const file = join(app.sb.cwd, "notes.js");
		writeFileSync(file, EXTENSION);
		app.sb.fake.enqueue(textReply("the answer"));
		const p = await app.ready({ args: ["-e", file] });
		const afterRun = await submit(p, "question", "[note] run 1 settled");
		expect(afterRun.indexOf("the answer")).toBeLessThan(afterRun.indexOf("[note] run 1 settled"));

		await submit(p, "/later ping", "armed");
		const screen = await p.waitFor("LATER ping");
		expect(screen.indexOf("[note] run 1 settled")).toBeLessThan(screen.indexOf("LATER ping"));
		// Drawn once each, and the app stays idle (no request was made).
		expect(screen.split("LATER ping").length - 1).toBe(1);
		expect(screen.split("[note] run 1 settled").length - 1).toBe(1);
		expect(app.sb.fake.requests).toHaveLength(1);
		await p.waitFor(READY);
	});
});
