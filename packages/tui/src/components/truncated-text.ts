import type { Component } from "../component.js";
import { truncateToWidth } from "../utils/slice.js";

/** One line of text cut to the width (status lines, headers). */
export class TruncatedText implements Component {
	private text: string;
	private paddingX: number;
	private paddingY: number;

	constructor(text: string, paddingX = 0, paddingY = 0) {
		this.text = text;
		this.paddingX = paddingX;
		this.paddingY = paddingY;
	}

	setText(text: string): void {
		this.text = text;
	}

	invalidate(): void {}

	render(width: number): string[] {
		const padX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 1) / 2)));
		const firstLine = this.text.split("\n")[0] ?? "";
		const line = " ".repeat(padX) + truncateToWidth(firstLine, Math.max(0, width - padX * 2));
		const out: string[] = [];
		for (let i = 0; i < this.paddingY; i++) out.push("");
		out.push(line);
		for (let i = 0; i < this.paddingY; i++) out.push("");
		return out;
	}
}
