import type { Component } from "../component.js";
import { applyBackgroundToLine } from "../utils/background.js";
import { wrapTextWithAnsi } from "../utils/wrap.js";

/** Multi-line text, word-wrapped to the width, with padding and an optional background. */
export class Text implements Component {
	private text: string;
	private paddingX: number;
	private paddingY: number;
	private customBgFn?: (text: string) => string;
	private cachedKey?: string;
	private cachedWidth?: number;
	private cachedLines?: string[];

	constructor(text = "", paddingX = 1, paddingY = 1, customBgFn?: (text: string) => string) {
		this.text = text;
		this.paddingX = paddingX;
		this.paddingY = paddingY;
		this.customBgFn = customBgFn;
	}

	setText(text: string): void {
		if (text !== this.text) {
			this.text = text;
			this.invalidate();
		}
	}

	getText(): string {
		return this.text;
	}

	setCustomBgFn(customBgFn?: (text: string) => string): void {
		this.customBgFn = customBgFn;
		this.invalidate();
	}

	invalidate(): void {
		this.cachedKey = undefined;
		this.cachedLines = undefined;
	}

	render(width: number): string[] {
		if (this.cachedLines && this.cachedKey === this.text && this.cachedWidth === width) return this.cachedLines;
		const lines = this.buildLines(width);
		this.cachedKey = this.text;
		this.cachedWidth = width;
		this.cachedLines = lines;
		return lines;
	}

	/** Wrapped source lines of the last build, reused while the width stays (streamed output). */
	private lineCache = new Map<string, string[]>();
	private lineCacheWidth = -1;

	/**
	 * Wrap line by line, reusing the wrap of source lines seen in the last build
	 * (a growing tool output re-wraps only its new lines). Styled text carries
	 * state across lines, so it is wrapped as a whole.
	 */
	private wrap(text: string, width: number): string[] {
		if (text.includes("\x1b")) return wrapTextWithAnsi(text, width);
		const prev = this.lineCacheWidth === width ? this.lineCache : new Map<string, string[]>();
		const next = new Map<string, string[]>();
		const out: string[] = [];
		for (const line of text.split("\n")) {
			let wrapped = prev.get(line) ?? next.get(line);
			if (!wrapped) wrapped = wrapTextWithAnsi(line, width);
			next.set(line, wrapped);
			for (const l of wrapped) out.push(l);
		}
		this.lineCache = next;
		this.lineCacheWidth = width;
		return out;
	}

	private buildLines(width: number): string[] {
		if (this.text.trim().length === 0) return [];
		const padX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 1) / 2)));
		const inner = Math.max(1, width - padX * 2);
		const text = this.text.replaceAll("\t", "   ");
		const body = this.wrap(text, inner);
		const pad = " ".repeat(padX);
		const out: string[] = [];
		const bg = this.customBgFn;
		const finish = (line: string) => (bg ? applyBackgroundToLine(line, width, bg) : line);
		for (let i = 0; i < this.paddingY; i++) out.push(finish(""));
		for (const line of body) {
			const content = pad + line;
			out.push(finish(bg ? content + pad : content));
		}
		for (let i = 0; i < this.paddingY; i++) out.push(finish(""));
		return out;
	}
}
