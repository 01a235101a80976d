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

/** The session entry an item is drawn from (history, entries appended while idle). */
export interface EntryOrigin {
	id: string;
	/** ISO time of the entry. */
	timestamp: string;
}

/**
 * The chain as seen by an item drawn from a persisted entry: transformers get
 * its `messageId` and `timestamp` (live messages and notices get neither).
 */
export function transformsForEntry(
	source: MarkdownTransformSource | undefined,
	origin: EntryOrigin | undefined,
): MarkdownTransformSource | undefined {
	if (!source || !origin) return source;
	let inner: MarkdownTransform | undefined;
	let wrapped: MarkdownTransform | undefined;
	return {
		get current() {
			const now = source.current;
			if (now !== inner) {
				inner = now;
				wrapped =
					now &&
					((markdown, context) => now(markdown, { ...context, messageId: origin.id, timestamp: origin.timestamp }));
			}
			return wrapped;
		},
	};
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
