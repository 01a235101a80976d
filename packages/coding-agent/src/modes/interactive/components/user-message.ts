// A message the user sent: markdown on the user-message background.
import { Markdown } from "@pi/tui";
import { CachedItem, type ThemeSource } from "./cached.js";

export class UserMessageItem extends CachedItem {
	private readonly md: Markdown;

	constructor(
		theme: ThemeSource,
		readonly text: string,
		private readonly imageCount = 0,
	) {
		super(theme);
		const t = theme();
		this.md = new Markdown(text, 1, 1, t.getMarkdownTheme(), {
			bgColor: (s) => this.theme().bg("userMessageBg", s),
			color: (s) => this.theme().fg("userMessageText", s),
		});
	}

	override invalidate(): void {
		super.invalidate();
		const t = this.theme();
		this.md.setTheme(t.getMarkdownTheme(), {
			bgColor: (s) => t.bg("userMessageBg", s),
			color: (s) => t.fg("userMessageText", s),
		});
	}

	protected draw(width: number): string[] {
		const lines = ["", ...this.md.render(width)];
		if (this.imageCount > 0) {
			const label = this.imageCount === 1 ? "[1 image]" : `[${this.imageCount} images]`;
			lines.push(` ${this.theme().fg("muted", label)}`);
		}
		return lines;
	}
}
