// A compaction or branch summary in the transcript: one line saying what
// happened, the summary text itself when expanded (Ctrl+O).
import { Markdown } from "@pi/tui";
import { CachedItem, type Expandable, type ThemeSource } from "./cached.js";

export class SummaryItem extends CachedItem implements Expandable {
	private readonly md: Markdown;
	private expanded: boolean;

	constructor(
		theme: ThemeSource,
		private readonly title: string,
		summary: string,
		expanded = false,
	) {
		super(theme);
		this.expanded = expanded;
		this.md = new Markdown(summary, 1, 0, theme().getMarkdownTheme(), {
			color: (s) => this.theme().fg("customMessageText", s),
		});
	}

	setExpanded(expanded: boolean): void {
		if (this.expanded === expanded) return;
		this.expanded = expanded;
		this.changed();
	}

	protected draw(width: number): string[] {
		const t = this.theme();
		const label = t.bold(t.fg("customMessageLabel", `[${this.title}]`));
		const out = ["", ` ${label}${this.expanded ? "" : t.fg("dim", " (ctrl+o to expand)")}`];
		if (this.expanded) out.push(...this.md.render(width));
		return out.map((l, i) => (i === 0 ? l : t.bg("customMessageBg", l)));
	}
}
