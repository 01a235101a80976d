// The prompt editor: pi-tui's Editor, drawn at once after each key instead
// of waiting for the next scheduled frame. While a reply streams, frames are
// paced (one per ~16 ms); a typed key must not wait behind that pacing.
import { Editor } from "@pi/tui";

export class AppEditor extends Editor {
	override handleInput(data: string): void {
		super.handleInput(data);
		if (this.focused) this.tui.renderNow();
	}
}
