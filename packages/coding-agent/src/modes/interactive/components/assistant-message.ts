// An assistant message: its text as markdown (streamed in place), thinking
// blocks (shown in full or as one "Thinking…" line, Ctrl+T), and a closing
// line when the reply failed or was aborted. Tool calls are separate items.
import type { AssistantMessage } from "@pi/ai";
import { Markdown } from "@pi/tui";
import { CachedItem, type Expandable, type ThemeSource } from "./cached.js";
import { type MarkdownTransformSource, TransformedMarkdown } from "./markdown-transform.js";

interface Block {
	kind: "text" | "thinking";
	view: TransformedMarkdown;
	text: string;
}

export class AssistantMessageItem extends CachedItem implements Expandable {
	private blocks: Block[] = [];
	private footer: { text: string; kind: "error" | "muted" } | undefined;
	private showThinking: boolean;
	/** The reply is still streaming (transformers are told so). */
	private live = false;

	constructor(
		theme: ThemeSource,
		message: AssistantMessage,
		showThinking: boolean,
		final = true,
		/** Shared with the chat view: ctx.ui.setHiddenThinkingLabel changes it for every item. */
		private readonly labels: { hiddenThinking?: string } = {},
		private readonly transforms?: MarkdownTransformSource,
	) {
		super(theme);
		this.showThinking = showThinking;
		this.update(message, final);
	}

	/** Thinking blocks in full (true) or as one line (false). */
	setExpanded(expanded: boolean): void {
		if (this.showThinking === expanded) return;
		this.showThinking = expanded;
		this.changed();
	}

	hasVisibleContent(): boolean {
		return this.blocks.some((b) => b.text.trim().length > 0) || this.footer !== undefined;
	}

	/**
	 * Shows the message's content. `final` is false while it streams: then no
	 * closing line is drawn whatever the (live, possibly already terminal) stop
	 * reason says; only the terminal event decides how the reply ended.
	 */
	update(message: AssistantMessage, final = true): void {
		let i = 0;
		for (const c of message.content) {
			if (c.type !== "text" && c.type !== "thinking") continue;
			const text = c.type === "text" ? c.text : c.thinking;
			const kind = c.type;
			const existing = this.blocks[i];
			if (existing && existing.kind === kind) {
				if (existing.text !== text) {
					existing.text = text;
					existing.view.setText(text.trim());
				}
			} else {
				this.blocks[i] = { kind, text, view: this.newMarkdown(kind, text) };
			}
			i++;
		}
		this.blocks.length = i;
		this.live = !final || message.stopReason === "pending";
		if (this.live) {
			this.footer = undefined;
		} else if (message.stopReason === "aborted") {
			this.footer = {
				text:
					message.errorMessage && message.errorMessage !== "Request was aborted"
						? `Aborted: ${message.errorMessage}`
						: "Operation aborted",
				kind: "muted",
			};
		} else if (message.stopReason === "error") {
			this.footer = { text: `Error: ${message.errorMessage ?? "unknown error"}`, kind: "error" };
		} else if (message.stopReason === "length") {
			this.footer = { text: "Stopped: the reply reached the output token limit", kind: "error" };
		} else this.footer = undefined;
		this.changed();
	}

	private newMarkdown(kind: Block["kind"], text: string): TransformedMarkdown {
		const t = this.theme();
		const md =
			kind === "text"
				? new Markdown(text.trim(), 1, 0, t.getMarkdownTheme())
				: new Markdown(text.trim(), 1, 0, t.getMarkdownTheme(), {
						color: (s) => this.theme().fg("thinkingText", s),
						italic: true,
					});
		return new TransformedMarkdown(
			md,
			text.trim(),
			kind === "text" ? "assistant" : "assistant-thinking",
			this.transforms,
			1,
		);
	}

	override invalidate(): void {
		super.invalidate();
		for (const b of this.blocks) b.view.md.invalidate();
	}

	protected draw(width: number): string[] {
		const t = this.theme();
		const out: string[] = [];
		for (const b of this.blocks) {
			if (!b.text.trim()) continue;
			out.push("");
			if (b.kind === "thinking" && !this.showThinking)
				out.push(` ${t.italic(t.fg("thinkingText", this.labels.hiddenThinking ?? "Thinking..."))}`);
			else out.push(...b.view.render(width, this.live));
		}
		if (this.footer) {
			out.push("");
			out.push(` ${t.fg(this.footer.kind === "error" ? "error" : "muted", this.footer.text)}`);
		}
		return out;
	}
}
