import type { Component } from "../component.js";

/** Empty lines for vertical spacing. */
export class Spacer implements Component {
	private cached: string[];

	constructor(lines = 1) {
		this.cached = new Array(lines).fill("");
	}

	setLines(lines: number): void {
		this.cached = new Array(lines).fill("");
	}

	invalidate(): void {}

	render(_width: number): string[] {
		return this.cached;
	}
}
