// Editing text in $VISUAL/$EDITOR: the TUI steps aside while the editor owns
// the terminal, then redraws. Used by the prompt editor (Ctrl+G) and by
// extension editor dialogs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TUI } from "@pi/tui";

/** The edited text, or undefined when no editor is set or it exited non-zero. */
export function editExternally(tui: TUI, text: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
	const editorCmd = env.VISUAL || env.EDITOR;
	if (!editorCmd) return undefined;
	const dir = mkdtempSync(join(tmpdir(), "pi-edit-"));
	const file = join(dir, "message.md");
	writeFileSync(file, text);
	tui.stop();
	try {
		const [cmd, ...args] = editorCmd.split(" ");
		const result = spawnSync(cmd, [...args, file], { stdio: "inherit" });
		return result.status === 0 ? readFileSync(file, "utf8").replace(/\n$/, "") : undefined;
	} finally {
		rmSync(dir, { recursive: true, force: true });
		tui.start();
		tui.requestRender(true);
	}
}
