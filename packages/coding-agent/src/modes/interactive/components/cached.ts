// Base for transcript items: render output is cached per width until the
// item changes, so a long transcript costs nothing per frame while the last
// message streams.
import type { Component } from "@pi/tui";
import type { AppTheme } from "../theme-fallback.js";

export type ThemeSource = () => AppTheme;

export abstract class CachedItem implements Component {
	private cache: { width: number; lines: string[] } | undefined;

	constructor(protected readonly theme: ThemeSource) {}

	/** Marks the item changed; the next frame renders it again. */
	protected changed(): void {
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const lines = this.draw(width);
		this.cache = { width, lines };
		return lines;
	}

	protected abstract draw(width: number): string[];
}

/** Items that have a collapsed and an expanded form (Ctrl+O, Ctrl+T). */
export interface Expandable {
	setExpanded(expanded: boolean): void;
}

export function isExpandable(c: unknown): c is Expandable {
	return typeof (c as Expandable).setExpanded === "function";
}
