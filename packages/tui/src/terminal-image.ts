/**
 * Inline images: capability detection, Kitty and iTerm2 graphics encodings,
 * image header parsing for dimensions, and OSC 8 hyperlinks.
 */

export type ImageProtocol = "kitty" | "iterm2" | null;

export interface TerminalCapabilities {
	images: ImageProtocol;
	trueColor: boolean;
	hyperlinks: boolean;
}

export interface CellDimensions {
	widthPx: number;
	heightPx: number;
}

export interface ImageDimensions {
	widthPx: number;
	heightPx: number;
}

export interface ImageRenderOptions {
	maxWidthCells?: number;
	maxHeightCells?: number;
	preserveAspectRatio?: boolean;
	/** Kitty image id to reuse (replaces an earlier image with the same id). */
	imageId?: number;
	/** Let Kitty move the cursor after placing the image (default false). */
	moveCursor?: boolean;
}

let cellDims: CellDimensions = { widthPx: 9, heightPx: 18 };
let capabilities: TerminalCapabilities | null = null;

export function getCellDimensions(): CellDimensions {
	return cellDims;
}

export function setCellDimensions(dims: CellDimensions): void {
	cellDims = dims;
}

/** Guess the terminal's features from its environment variables (no queries). */
export function detectCapabilities(env: NodeJS.ProcessEnv = process.env): TerminalCapabilities {
	const term = (env.TERM ?? "").toLowerCase();
	const program = (env.TERM_PROGRAM ?? "").toLowerCase();
	const trueColor = env.COLORTERM === "truecolor" || env.COLORTERM === "24bit";
	if (env.TMUX || term.startsWith("screen")) return { images: null, trueColor, hyperlinks: false };
	if (
		env.KITTY_WINDOW_ID ||
		term.includes("kitty") ||
		program === "ghostty" ||
		term.includes("ghostty") ||
		env.GHOSTTY_RESOURCES_DIR
	) {
		return { images: "kitty", trueColor: true, hyperlinks: true };
	}
	if (program === "wezterm" || env.WEZTERM_PANE) return { images: "kitty", trueColor: true, hyperlinks: true };
	if (program === "iterm.app" || env.ITERM_SESSION_ID) return { images: "iterm2", trueColor: true, hyperlinks: true };
	if (program === "vscode") return { images: null, trueColor: true, hyperlinks: true };
	return { images: null, trueColor, hyperlinks: !!program };
}

export function getCapabilities(): TerminalCapabilities {
	if (!capabilities) capabilities = detectCapabilities();
	return capabilities;
}

export function resetCapabilitiesCache(): void {
	capabilities = null;
}

/** Override the detected capabilities (tests, user settings). */
export function setCapabilities(caps: TerminalCapabilities): void {
	capabilities = caps;
}

export function isImageLine(line: string): boolean {
	return line.includes("\x1b_G") || line.includes("\x1b]1337;File=");
}

/** A random Kitty image id (random so separate module instances do not collide). */
export function allocateImageId(): number {
	return 1 + Math.floor(Math.random() * 0xfffffe);
}

/** Kitty graphics: transmit-and-display a PNG in chunks of 4096 base64 bytes. */
export function encodeKitty(
	base64Data: string,
	options: { columns?: number; rows?: number; imageId?: number; moveCursor?: boolean } = {},
): string {
	const params = ["a=T", "f=100", "q=2"];
	if (options.columns) params.push(`c=${options.columns}`);
	if (options.rows) params.push(`r=${options.rows}`);
	if (options.imageId !== undefined) params.push(`i=${options.imageId}`);
	if (options.moveCursor === false) params.push("C=1");
	const CHUNK = 4096;
	if (base64Data.length <= CHUNK) return `\x1b_G${params.join(",")};${base64Data}\x1b\\`;
	let out = "";
	for (let i = 0; i < base64Data.length; i += CHUNK) {
		const chunk = base64Data.slice(i, i + CHUNK);
		const more = i + CHUNK < base64Data.length ? 1 : 0;
		out += i === 0 ? `\x1b_G${params.join(",")},m=${more};${chunk}\x1b\\` : `\x1b_Gm=${more};${chunk}\x1b\\`;
	}
	return out;
}

/** Delete one Kitty image and free its data. */
export function deleteKittyImage(imageId: number): string {
	return `\x1b_Ga=d,d=I,i=${imageId}\x1b\\`;
}

/** Delete every visible Kitty image and free the data. */
export function deleteAllKittyImages(): string {
	return "\x1b_Ga=d,d=A\x1b\\";
}

/** iTerm2 inline image (OSC 1337 File=). */
export function encodeITerm2(
	base64Data: string,
	options: {
		width?: number | string;
		height?: number | string;
		name?: string;
		preserveAspectRatio?: boolean;
		inline?: boolean;
	} = {},
): string {
	const params = [`inline=${options.inline === false ? 0 : 1}`];
	if (options.width !== undefined) params.push(`width=${options.width}`);
	if (options.height !== undefined) params.push(`height=${options.height}`);
	if (options.name) params.push(`name=${Buffer.from(options.name).toString("base64")}`);
	if (options.preserveAspectRatio === false) params.push("preserveAspectRatio=0");
	params.push(`size=${Math.floor((base64Data.length * 3) / 4)}`);
	return `\x1b]1337;File=${params.join(";")}:${base64Data}\x07`;
}

/** Rows an image takes when scaled to `targetWidthCells` columns. */
export function calculateImageRows(
	imageDimensions: ImageDimensions,
	targetWidthCells: number,
	cellDimensions: CellDimensions = cellDims,
): number {
	const widthPx = targetWidthCells * cellDimensions.widthPx;
	const scale = widthPx / Math.max(1, imageDimensions.widthPx);
	return Math.max(1, Math.ceil((imageDimensions.heightPx * scale) / cellDimensions.heightPx));
}

function decodeHead(base64Data: string, bytes: number): Buffer {
	const chars = Math.ceil(bytes / 3) * 4;
	return Buffer.from(base64Data.slice(0, chars), "base64");
}

export function getPngDimensions(base64Data: string): ImageDimensions | null {
	const b = decodeHead(base64Data, 32);
	if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47) return null;
	return { widthPx: b.readUInt32BE(16), heightPx: b.readUInt32BE(20) };
}

export function getGifDimensions(base64Data: string): ImageDimensions | null {
	const b = decodeHead(base64Data, 16);
	if (b.length < 10 || b.toString("ascii", 0, 3) !== "GIF") return null;
	return { widthPx: b.readUInt16LE(6), heightPx: b.readUInt16LE(8) };
}

export function getJpegDimensions(base64Data: string): ImageDimensions | null {
	const b = Buffer.from(base64Data, "base64");
	if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
	let i = 2;
	while (i + 9 < b.length) {
		if (b[i] !== 0xff) {
			i++;
			continue;
		}
		const marker = b[i + 1];
		const len = b.readUInt16BE(i + 2);
		// SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			return { heightPx: b.readUInt16BE(i + 5), widthPx: b.readUInt16BE(i + 7) };
		}
		i += 2 + len;
	}
	return null;
}

export function getWebpDimensions(base64Data: string): ImageDimensions | null {
	const b = decodeHead(base64Data, 40);
	if (b.length < 30 || b.toString("ascii", 0, 4) !== "RIFF" || b.toString("ascii", 8, 12) !== "WEBP") return null;
	const kind = b.toString("ascii", 12, 16);
	if (kind === "VP8X") return { widthPx: 1 + b.readUIntLE(24, 3), heightPx: 1 + b.readUIntLE(27, 3) };
	if (kind === "VP8L") {
		const bits = b.readUInt32LE(21);
		return { widthPx: (bits & 0x3fff) + 1, heightPx: ((bits >> 14) & 0x3fff) + 1 };
	}
	if (kind === "VP8 ") return { widthPx: b.readUInt16LE(26) & 0x3fff, heightPx: b.readUInt16LE(28) & 0x3fff };
	return null;
}

export function getImageDimensions(base64Data: string, mimeType: string): ImageDimensions | null {
	switch (mimeType) {
		case "image/png":
			return getPngDimensions(base64Data);
		case "image/jpeg":
		case "image/jpg":
			return getJpegDimensions(base64Data);
		case "image/gif":
			return getGifDimensions(base64Data);
		case "image/webp":
			return getWebpDimensions(base64Data);
		default:
			return null;
	}
}

/** The escape sequence drawing an image, and how many rows it covers; null without image support. */
export function renderImage(
	base64Data: string,
	imageDimensions: ImageDimensions,
	options: ImageRenderOptions = {},
): { sequence: string; rows: number; imageId?: number } | null {
	const caps = getCapabilities();
	if (!caps.images) return null;
	const maxWidth = Math.max(1, options.maxWidthCells ?? 80);
	const naturalCols = Math.ceil(imageDimensions.widthPx / cellDims.widthPx);
	let cols = Math.min(maxWidth, Math.max(1, naturalCols));
	let rows = calculateImageRows(imageDimensions, cols);
	if (options.maxHeightCells && rows > options.maxHeightCells) {
		rows = options.maxHeightCells;
		cols = Math.max(
			1,
			Math.floor((rows * cellDims.heightPx * imageDimensions.widthPx) / imageDimensions.heightPx / cellDims.widthPx),
		);
	}
	if (caps.images === "kitty") {
		const imageId = options.imageId;
		const sequence = encodeKitty(base64Data, { columns: cols, rows, imageId, moveCursor: options.moveCursor ?? false });
		return { sequence, rows, imageId };
	}
	return {
		sequence: encodeITerm2(base64Data, {
			width: cols,
			height: rows,
			preserveAspectRatio: options.preserveAspectRatio,
		}),
		rows,
	};
}

/** Text wrapped in an OSC 8 hyperlink (plain text where unsupported). */
export function hyperlink(text: string, url: string): string {
	return `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;
}

/** One-line stand-in for an image on terminals without graphics. */
export function imageFallback(mimeType: string, dimensions?: ImageDimensions, filename?: string): string {
	const parts: string[] = [];
	if (filename) parts.push(filename);
	parts.push(mimeType);
	if (dimensions) parts.push(`${dimensions.widthPx}x${dimensions.heightPx}`);
	return `[Image: ${parts.join(" ")}]`;
}
