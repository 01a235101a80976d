/**
 * Markdown rendered with marked's lexer and our own block renderers.
 *
 * Streaming is the hot path: an assistant message grows by a few characters
 * per token. When new text extends the old, only the last two top-level blocks
 * are lexed again (earlier blocks cannot change by appending), and every
 * block's lines are cached per width, so a frame costs about as much as the
 * last paragraph, not the whole message.
 *
 * marked builds its regex tables when it loads (tens of ms), so it is loaded
 * on demand (`loadMarkdown`), not with the TUI: a first screen without
 * markdown does not pay for it. An app awaits `loadMarkdown()` before it shows
 * markdown; should a Markdown render before that, it shows its text plain,
 * starts the load, and renders as markdown from the first render after it
 * (`onMarkdownLoaded` tells the app to render again).
 */
import type { Token } from "marked";
import type { Component } from "../component.js";
import { applyBackgroundToLine } from "../utils/background.js";
import {
	type DefaultTextStyle,
	frameLines,
	type MarkdownTheme,
	makeContext,
	type RenderContext,
	renderBlock,
} from "./markdown-blocks.js";

export type { DefaultTextStyle, MarkdownTheme } from "./markdown-blocks.js";

type Lex = (text: string) => Token[];
let lexMarkdown: Lex | undefined;
let loading: Promise<void> | undefined;
const loadedListeners = new Set<() => void>();

/** Loads the markdown lexer (marked); resolves once Markdown renders as markdown. Idempotent. */
export function loadMarkdown(): Promise<void> {
	loading ??= import("marked").then(({ Lexer }) => {
		lexMarkdown = (text) => Lexer.lex(text, { gfm: true });
		for (const listener of loadedListeners) listener();
		loadedListeners.clear();
	});
	return loading;
}

/** Runs `listener` once the lexer is loaded (at once when it already is); returns the unsubscribe. */
export function onMarkdownLoaded(listener: () => void): () => void {
	if (lexMarkdown) {
		listener();
		return () => {};
	}
	loadedListeners.add(listener);
	return () => loadedListeners.delete(listener);
}

/** Top-level blocks re-lexed on append (a trailing block may still change type). */
const RELEX_TAIL = 2;

interface BlockCache {
	width: number;
	lines: string[];
}

export class Markdown implements Component {
	private text: string;
	private paddingX: number;
	private paddingY: number;
	private theme: MarkdownTheme;
	private defaultTextStyle?: DefaultTextStyle;
	private ctx: RenderContext;
	private tokens: Token[] = [];
	private lexedText: string | undefined;
	private blockCache = new WeakMap<Token, BlockCache>();
	private cachedText?: string;
	private cachedWidth?: number;
	private cachedLines?: string[];

	constructor(
		text: string,
		paddingX: number,
		paddingY: number,
		theme: MarkdownTheme,
		defaultTextStyle?: DefaultTextStyle,
	) {
		this.text = text;
		this.paddingX = paddingX;
		this.paddingY = paddingY;
		this.theme = theme;
		this.defaultTextStyle = defaultTextStyle;
		this.ctx = makeContext(theme, defaultTextStyle);
	}

	setText(text: string): void {
		this.text = text;
	}

	getText(): string {
		return this.text;
	}

	/** Forget all cached output (e.g. after a theme change). */
	invalidate(): void {
		this.blockCache = new WeakMap();
		this.cachedLines = undefined;
		this.ctx = makeContext(this.theme, this.defaultTextStyle);
	}

	setTheme(theme: MarkdownTheme, defaultTextStyle?: DefaultTextStyle): void {
		this.theme = theme;
		this.defaultTextStyle = defaultTextStyle;
		this.invalidate();
	}

	render(width: number): string[] {
		if (!lexMarkdown) {
			// Not loaded yet (see the file comment): the text as it is, until a render after the load.
			void loadMarkdown();
			this.cachedLines = undefined;
			return this.buildFrom([{ type: "text", raw: this.text, text: this.text } as Token], width);
		}
		if (this.cachedLines && this.cachedText === this.text && this.cachedWidth === width) return this.cachedLines;
		const lines = this.build(width);
		this.cachedText = this.text;
		this.cachedWidth = width;
		this.cachedLines = lines;
		return lines;
	}

	private lex(lex: Lex): Token[] {
		const text = this.text;
		if (this.lexedText === text) return this.tokens;
		const old = this.lexedText;
		let tokens: Token[];
		if (old !== undefined && text.startsWith(old) && this.tokens.length > RELEX_TAIL) {
			const stable = this.tokens.slice(0, this.tokens.length - RELEX_TAIL);
			let stableLength = 0;
			for (const t of stable) stableLength += t.raw.length;
			tokens = stable.concat(lex(text.slice(stableLength)));
		} else {
			tokens = lex(text);
			// Incremental lexing relies on raw spans covering the text exactly.
			let covered = 0;
			for (const t of tokens) covered += t.raw.length;
			if (covered !== text.length) {
				this.lexedText = undefined;
				this.tokens = tokens;
				return tokens;
			}
		}
		this.lexedText = text;
		this.tokens = tokens;
		return tokens;
	}

	private build(width: number): string[] {
		return lexMarkdown ? this.buildFrom(this.lex(lexMarkdown), width) : [];
	}

	private buildFrom(tokens: Token[], width: number): string[] {
		if (this.text.trim().length === 0) return [];
		const padX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 1) / 2)));
		const inner = Math.max(1, width - padX * 2);
		const bg = this.defaultTextStyle?.bgColor;
		const out: string[] = [];
		const blank = bg ? applyBackgroundToLine("", width, bg) : "";
		for (let i = 0; i < this.paddingY; i++) out.push(blank);
		let any = false;
		for (const token of tokens) {
			let cached = this.blockCache.get(token);
			if (!cached || cached.width !== width) {
				cached = { width, lines: frameLines(renderBlock(token, inner, this.ctx), width, padX, bg) };
				this.blockCache.set(token, cached);
			}
			if (cached.lines.length === 0) continue;
			if (any) out.push(blank);
			any = true;
			for (const l of cached.lines) out.push(l);
		}
		for (let i = 0; i < this.paddingY; i++) out.push(blank);
		return out;
	}
}
