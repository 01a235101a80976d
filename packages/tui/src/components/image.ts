import type { Component } from "../component.js";
import {
	allocateImageId,
	getCapabilities,
	getImageDimensions,
	type ImageDimensions,
	imageFallback,
	renderImage,
} from "../terminal-image.js";
import { truncateToWidth } from "../utils/slice.js";

export interface ImageTheme {
	fallbackColor: (str: string) => string;
}

export interface ImageOptions {
	maxWidthCells?: number;
	maxHeightCells?: number;
	filename?: string;
	/** Kitty image id to reuse (animations, updates). */
	imageId?: number;
}

/**
 * An inline image (Kitty or iTerm2 graphics) or, elsewhere, a one-line text
 * placeholder. The image covers `rows` lines: all but the last are blank, and
 * the last moves up to the first row, draws, and moves back, so the TUI's line
 * bookkeeping stays exact.
 */
export class Image implements Component {
	private readonly base64Data: string;
	private readonly mimeType: string;
	private readonly dimensions: ImageDimensions | null;
	private readonly theme: ImageTheme;
	private readonly options: ImageOptions;
	private imageId?: number;
	private cachedLines?: string[];
	private cachedWidth?: number;

	constructor(
		base64Data: string,
		mimeType: string,
		theme: ImageTheme,
		options: ImageOptions = {},
		dimensions?: ImageDimensions,
	) {
		this.base64Data = base64Data;
		this.mimeType = mimeType;
		this.theme = theme;
		this.options = options;
		this.dimensions = dimensions ?? getImageDimensions(base64Data, mimeType);
		this.imageId = options.imageId;
	}

	getImageId(): number | undefined {
		return this.imageId;
	}

	invalidate(): void {
		this.cachedLines = undefined;
	}

	render(width: number): string[] {
		if (this.cachedLines && this.cachedWidth === width) return this.cachedLines;
		const lines = this.build(width);
		this.cachedLines = lines;
		this.cachedWidth = width;
		return lines;
	}

	private build(width: number): string[] {
		const caps = getCapabilities();
		if (caps.images && this.dimensions) {
			if (caps.images === "kitty" && this.imageId === undefined) this.imageId = allocateImageId();
			const maxWidth = Math.min(width - 1, this.options.maxWidthCells ?? 60);
			const r = renderImage(this.base64Data, this.dimensions, {
				maxWidthCells: Math.max(1, maxWidth),
				maxHeightCells: this.options.maxHeightCells,
				imageId: this.imageId,
			});
			if (r) {
				const lines: string[] = new Array(r.rows - 1).fill("");
				const up = r.rows > 1 ? `\x1b[${r.rows - 1}A` : "";
				const down = r.rows > 1 ? `\x1b[${r.rows - 1}B` : "";
				lines.push(`${up}${r.sequence}${caps.images === "kitty" ? down : ""}`);
				return lines;
			}
		}
		const text = imageFallback(this.mimeType, this.dimensions ?? undefined, this.options.filename);
		return [truncateToWidth(this.theme.fallbackColor(text), width)];
	}
}
