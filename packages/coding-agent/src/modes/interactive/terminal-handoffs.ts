// The app lends the terminal to something else for a while: $VISUAL/$EDITOR
// on the editor's text (Ctrl+G), and the shell on Ctrl+Z (the screen is
// drawn again on SIGCONT).
import type { EditorComponent, TUI } from "@pi/tui";
import type { StatusKind } from "./context.js";
import { editExternally } from "./external-editor.js";

export function editInExternalEditor(
	tui: TUI,
	editor: EditorComponent,
	showStatus: (text: string, kind: StatusKind) => void,
): void {
	if (!(process.env.VISUAL || process.env.EDITOR)) {
		showStatus("Set $VISUAL or $EDITOR to edit the message in an external editor", "warning");
		return;
	}
	const edited = editExternally(tui, editor.getExpandedText?.() ?? editor.getText());
	if (edited !== undefined) editor.setText(edited);
}

export function suspendToShell(tui: TUI): void {
	if (process.platform === "win32") return;
	tui.stop();
	process.once("SIGCONT", () => {
		tui.start();
		tui.requestRender(true);
	});
	process.kill(0, "SIGTSTP");
}
