// A compaction or branch summary in the transcript: one line saying what
// happened, the summary text itself when expanded (Ctrl+O).
import { Markdown } from "@pi/tui";
import { CachedItem, type Expandable, type ThemeSource } from "./cached.js";
import { type MarkdownTransformSource, TransformedMarkdown } from "./markdown-transform.js";

export class SummaryItem extends CachedItem implements Expandable {
	private readonly body: TransformedMarkdown;
	private expanded: boolean;

	constructor(
		theme: ThemeSource,
		private readonly title: string,
		summary: string,
		expanded = false,
		transforms?: MarkdownTransformSource,
		/** Which transformer surface the text belongs to: summaries, or custom messages drawn this way. */
		surface: "summary" | "custom" = "summary",
	) {
		super(theme);
		this.expanded = expanded;
		const md = new Markdown(summary, 1, 0, theme().getMarkdownTheme(), {
			color: (s) => this.theme().fg("customMessageText", s),
		});
		this.body = new TransformedMarkdown(md, summary, surface, transforms, 1);
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
		if (this.expanded) out.push(...this.body.render(width));
		return out.map((l, i) => (i === 0 ? l : t.bg("customMessageBg", l)));
	}
}
