// A short coloured line in the transcript: errors, warnings, status notes.
import { wrapTextWithAnsi } from "@pi/tui";
import { CachedItem, type ThemeSource } from "./cached.js";

export type StatusKind = "info" | "warning" | "error";

export class NoticeItem extends CachedItem {
	constructor(
		theme: ThemeSource,
		private text: string,
		private readonly kind: StatusKind | "muted" = "info",
	) {
		super(theme);
	}

	setText(text: string): void {
		this.text = text;
		this.changed();
	}

	protected draw(width: number): string[] {
		const t = this.theme();
		const color =
			this.kind === "error" ? "error" : this.kind === "warning" ? "warning" : this.kind === "muted" ? "dim" : "muted";
		const out = [""];
		for (const line of this.text.split("\n")) {
			for (const w of wrapTextWithAnsi(line, Math.max(1, width - 2))) out.push(` ${t.fg(color, w)}`);
		}
		return out;
	}
}
