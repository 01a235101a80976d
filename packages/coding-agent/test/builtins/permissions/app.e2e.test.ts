// builtin:permissions in the interactive app (built pi in tmux): in ask mode
// a bash call opens the dialog; "Deny with a reason" asks for the reason and
// the model reads it; the command never runs. /permissions switches the mode.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, toolReply } from "../../cli/support.js";
import { hasTmux, settle, submit, useTmuxApp } from "../../support/tmux-app.js";

const app = useTmuxApp("the permission dialog test");

describe.skipIf(!hasTmux)("builtin:permissions in the app (tmux)", () => {
	it("asks before a command; deny with a reason reaches the model; /permissions switches the mode", async () => {
		const { sb } = app;
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ permissions: { mode: "ask" } }));
		sb.fake.enqueue(toolReply("bash", { command: "touch x.txt" }), textReply("understood"));
		const pi = await app.ready({ args: ["--no-mcp"] });
		const dialog = await submit(pi, "make a file", "Allow bash: touch x.txt?");
		expect(dialog).toContain("permission mode ask confirms every command");
		expect(dialog).toContain("Allow once");
		expect(dialog).toContain("Allow for this session: touch *");
		pi.keys("Down", "Down", "Down");
		await settle();
		pi.keys("Enter");
		await pi.waitFor("Why not?");
		await submit(pi, "not in this folder", "understood");
		expect(existsSync(join(sb.cwd, "x.txt"))).toBe(false);
		expect(JSON.stringify(body(sb.fake, 1).messages)).toContain("not in this folder");

		await submit(pi, "/permissions full", "Permission mode: full");
	});
});
