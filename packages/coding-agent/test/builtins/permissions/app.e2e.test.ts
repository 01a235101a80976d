// builtin:permissions in the interactive app (built pi in tmux): in ask mode
// a bash call opens the dialog; "Deny with a reason" asks for the reason and
// the model reads it; the command never runs. /permissions switches the mode.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, body, createSandbox, type Sandbox, textReply, toolReply } from "../../cli/support.js";
import { hasTmux, startPi, type TmuxPi } from "../../interactive/tmux.js";

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

describe.skipIf(!hasTmux)("builtin:permissions in the app (tmux)", () => {
	it("asks before a command; deny with a reason reaches the model; /permissions switches the mode", async () => {
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ permissions: { mode: "ask" } }));
		sb.fake.enqueue(toolReply("bash", { command: "touch x.txt" }), textReply("understood"));
		pi = startPi({ cwd: sb.cwd, env: sb.env, args: ["--no-mcp"] });
		await pi.waitFor(/fake-model\s*$/m);
		pi.type("make a file");
		pi.keys("Enter");
		const dialog = await pi.waitFor("Allow bash: touch x.txt?", 15_000);
		expect(dialog).toContain("permission mode ask confirms every command");
		expect(dialog).toContain("Allow once");
		expect(dialog).toContain("Allow for this session: touch *");
		pi.keys("Down", "Down", "Down");
		await new Promise((r) => setTimeout(r, 200));
		pi.keys("Enter");
		await pi.waitFor("Why not?");
		pi.type("not in this folder");
		pi.keys("Enter");
		await pi.waitFor("understood", 15_000);
		expect(existsSync(join(sb.cwd, "x.txt"))).toBe(false);
		expect(JSON.stringify(body(sb.fake, 1).messages)).toContain("not in this folder");

		pi.type("/permissions full");
		pi.keys("Enter");
		await pi.waitFor("Permission mode: full");
	});
});
