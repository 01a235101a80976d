import type { Component } from "../component.js";
import { applyBackgroundToLine } from "../utils/background.js";
import { truncateToWidth } from "../utils/slice.js";

/** Children stacked with padding around them and an optional background on every row. */
export class Box implements Component {
	children: Component[] = [];
	private paddingX: number;
	private paddingY: number;
	private bgFn?: (text: string) => string;
	private cache?: { width: number; childLines: string[]; lines: string[] };

	constructor(paddingX = 1, paddingY = 1, bgFn?: (text: string) => string) {
		this.paddingX = paddingX;
		this.paddingY = paddingY;
		this.bgFn = bgFn;
	}

	addChild(component: Component): void {
		this.children.push(component);
		this.cache = undefined;
	}

	removeChild(component: Component): void {
		const i = this.children.indexOf(component);
		if (i !== -1) this.children.splice(i, 1);
		this.cache = undefined;
	}

	clear(): void {
		this.children = [];
		this.cache = undefined;
	}

	setBgFn(bgFn?: (text: string) => string): void {
		this.bgFn = bgFn;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
		for (const c of this.children) c.invalidate?.();
	}

	render(width: number): string[] {
		const padX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 1) / 2)));
		const inner = Math.max(1, width - padX * 2);
		const childLines: string[] = [];
		for (const child of this.children) for (const l of child.render(inner)) childLines.push(l);
		const c = this.cache;
		if (
			c &&
			c.width === width &&
			c.childLines.length === childLines.length &&
			c.childLines.every((l, i) => l === childLines[i])
		)
			return c.lines;
		const pad = " ".repeat(padX);
		const bg = this.bgFn;
		const row = (content: string) => {
			const line = pad + truncateToWidth(content, inner, "");
			return bg ? applyBackgroundToLine(line, width, bg) : line;
		};
		const lines: string[] = [];
		if (childLines.length > 0 || this.paddingY > 0) {
			for (let i = 0; i < this.paddingY; i++) lines.push(row(""));
			for (const l of childLines) lines.push(row(l));
			for (let i = 0; i < this.paddingY; i++) lines.push(row(""));
		}
		this.cache = { width, childLines, lines };
		return lines;
	}
}
