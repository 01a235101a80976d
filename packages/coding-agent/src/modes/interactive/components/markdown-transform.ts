// Markdown an extension may rewrite before it is drawn
// (pi.registerMarkdownTransformer). Display only: an item keeps the original
// text, and the rewritten copy is made per draw width (transformers may lay
// out for the width) and handed to the Markdown component.
import type { Markdown } from "@pi/tui";
import type { MarkdownMessageType, MarkdownTransformContext } from "../../../extensions/types.js";

export type MarkdownTransform = (markdown: string, context: MarkdownTransformContext) => string;

/** Shared by the chat view and its items; `current` changes when extensions (re)load. */
export interface MarkdownTransformSource {
	current: MarkdownTransform | undefined;
}

/** A Markdown component whose text goes through the transform chain of one surface. */
export class TransformedMarkdown {
	private shown: string;

	constructor(
		readonly md: Markdown,
		private source: string,
		private readonly messageType: MarkdownMessageType,
		private readonly transforms: MarkdownTransformSource | undefined,
		/** The Markdown component's horizontal padding (availableWidth excludes it). */
		private readonly paddingX: number,
	) {
		this.shown = source;
	}

	setText(text: string): void {
		this.source = text;
	}

	render(width: number, isStreaming = false): string[] {
		const transform = this.transforms?.current;
		const text = transform
			? transform(this.source, {
					messageType: this.messageType,
					isStreaming,
					availableWidth: Math.max(1, width - 2 * this.paddingX),
				})
			: this.source;
		if (text !== this.shown) {
			this.shown = text;
			this.md.setText(text);
		}
		return this.md.render(width);
	}
}
