// A message the user sent: markdown on the user-message background.
import type { ImageContent } from "@pi/ai";
import { Image, Markdown } from "@pi/tui";
import { CachedItem, type ThemeSource } from "./cached.js";
import { imageOptions } from "./image-options.js";
import { type MarkdownTransformSource, TransformedMarkdown } from "./markdown-transform.js";

export class UserMessageItem extends CachedItem {
	private readonly md: Markdown;
	private readonly body: TransformedMarkdown;
	private readonly images: Image[];

	constructor(
		theme: ThemeSource,
		readonly text: string,
		images: readonly ImageContent[] = [],
		transforms?: MarkdownTransformSource,
	) {
		super(theme);
		this.images = images.map(
			(img) =>
				new Image(
					img.data,
					img.mimeType,
					{ fallbackColor: (s) => this.theme().fg("muted", s) },
					{ maxWidthCells: imageOptions.maxWidthCells },
				),
		);
		const t = theme();
		this.md = new Markdown(text, 1, 1, t.getMarkdownTheme(), {
			bgColor: (s) => this.theme().bg("userMessageBg", s),
			color: (s) => this.theme().fg("userMessageText", s),
		});
		this.body = new TransformedMarkdown(this.md, text, "user", transforms, 1);
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
		const lines = ["", ...this.body.render(width)];
		// Inline where the terminal shows images (Kitty, iTerm2), a one-line placeholder elsewhere.
		for (const image of this.images) lines.push(...image.render(width));
		return lines;
	}
}
