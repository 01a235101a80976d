// The codemode call in the interactive app (built pi in tmux): the script is
// drawn highlighted and cut to its first lines until Ctrl+O, the inner calls
// are listed under the codemode item (status, name, arguments) instead of as
// items of their own, and the script's output follows its header line.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../../cli/support.js";
import { hasTmux, submit, useTmuxApp } from "../../support/tmux-app.js";

const app = useTmuxApp("the codemode rendering test");

const SCRIPT = `// gather two facts in parallel
const [a, b] = await Promise.allSettled([
  tools.bash({ command: "echo alpha-out" }),
  tools.read({ path: "missing-file.txt" }),
]);
const first = a.value.trim();
const second = b.status;
console.log("checked", 2);
text(first);
text(second);
return "last-line-marker";`;

describe.skipIf(!hasTmux)("codemode in the app (tmux)", () => {
	it("draws the script highlighted and collapsed, the inner calls and the output summarized", async () => {
		const { sb } = app;
		writeFileSync(join(sb.cwd, "notes.txt"), "x\n");
		sb.fake.enqueue(toolReply("codemode", { code: SCRIPT }), textReply("all gathered"));
		const pi = await app.ready({ args: ["--no-mcp", "--tools", "+codemode"], rows: 50 });
		const screen = await submit(pi, "gather the facts", "all gathered", 30_000);

		// The call: a title with the script's size, its first 8 lines, then how many are hidden.
		expect(screen).toMatch(/codemode script, 11 lines/);
		expect(screen).toContain("// gather two facts in parallel");
		expect(screen).toContain('tools.bash({ command: "echo alpha-out" })');
		expect(screen).not.toContain('return "last-line-marker"');
		expect(screen).toMatch(/… 3 more lines \(ctrl\+o to expand\)/);
		// The inner calls: a count, one line each with its status; no items of their own.
		expect(screen).toMatch(/2 tool calls · 1 failed/);
		expect(screen).toMatch(/✓ bash \{"command":"echo alpha-out"\}/);
		expect(screen).toMatch(/✗ read \{"path":"missing-file.txt"\}.*— /);
		expect(screen).not.toMatch(/^\s*\$ echo alpha-out/m);
		// The output: the header, then the text items.
		expect(screen).toMatch(/Script completed in [\d.]+ s/);
		expect(screen).toContain("alpha-out");
		expect(screen).toContain("rejected");

		// Highlighted: the keyword `const` is drawn in a colour of its own, unlike the line's other text.
		const colored = pi.screenWithColors();
		const constLine = colored.split("\n").find((l: string) => l.includes("const") && l.includes("Promise"));
		expect(constLine).toBeDefined();
		expect(constLine).toMatch(/\x1b\[[0-9;]*m\s*const\b/);

		// Ctrl+O shows the whole script and every output line.
		pi.keys("C-o");
		// Wait for the whole expanded frame: the script and the output redraw together, but a capture may land between.
		const expanded = await pi.waitFor(
			(s) =>
				s.includes('return "last-line-marker"') && s.includes("<console_output>") && !/more lines \(ctrl\+o/.test(s),
			15_000,
		);
		expect(expanded).not.toMatch(/more lines \(ctrl\+o to expand\)/);
		expect(expanded).toContain("<console_output>");
		expect(expanded).toContain("checked 2");
	});
});
