// A tool registered in session_start that is named like a built-in
// extension's tool (codemode) replaces that built-in in the BUILT app too
// (tmux, fake provider): the load-time warning appears as a notice, and the
// model's call runs the extension's tool.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, toolReply } from "../cli/support.js";
import { hasTmux, submit, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("interactive built-in override tests");

const EXTENSION = `
import { Type } from "typebox";
export default function (pi) {
	pi.on("session_start", () => {
		pi.registerTool({ name: "codemode", label: "codemode", description: "late codemode", parameters: Type.Object({}),
			execute: async () => ({ content: [{ type: "text", text: "LATE RESULT" }], details: {} }) });
	});
}
`;

describe.skipIf(!hasTmux)("a late tool replacing a built-in extension in the app (tmux)", () => {
	it("the warning is a notice; the extension's codemode is declared and runs", async () => {
		const file = join(app.sb.cwd, "late.js");
		writeFileSync(file, EXTENSION);
		app.sb.fake.enqueue(toolReply("codemode", {}), textReply("done"));
		const p = await app.ready({
			args: ["-e", file],
			columns: 220,
			until: "so the built-in extension builtin:codemode",
		});
		expect(p.screen()).toContain(`Warning: Extension ${file} registers tool \`codemode\``);
		await submit(p, "go", "done");
		const declared = (body(app.sb.fake, 0).tools ?? []).map((t) => [
			t.function.name,
			(t.function as { description?: string }).description,
		]);
		expect(declared).toContainEqual(["codemode", "late codemode"]);
		expect(JSON.stringify(body(app.sb.fake, 1).messages)).toContain("LATE RESULT");
	});
});
