// Turning resolved theme colours into SGR escape codes for the terminal at
// hand: 24-bit where the terminal supports it, the nearest xterm-256 entry
// otherwise, nothing at all for NO_COLOR.
import type { ResolvedColor } from "./theme-schema.js";

export type ColorMode = "truecolor" | "256color" | "none";

/** Which colours the terminal understands, from the environment. */
export function detectColorMode(env: NodeJS.ProcessEnv = process.env): ColorMode {
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return "none";
	const colorterm = env.COLORTERM?.toLowerCase();
	if (colorterm === "truecolor" || colorterm === "24bit") return "truecolor";
	if (env.WT_SESSION) return "truecolor";
	const term = env.TERM ?? "";
	if (term === "" || term === "dumb" || term === "linux") return "256color";
	if (env.TERM_PROGRAM === "Apple_Terminal") return "256color";
	// GNU screen (and tmux without COLORTERM passed through) only promise 256 colours.
	if (term === "screen" || term.startsWith("screen-") || term.startsWith("screen.")) return "256color";
	return "truecolor";
}

const CUBE_LEVELS = [0, 95, 135, 175, 215, 255];

function nearestCubeIndex(v: number): number {
	let best = 0;
	for (let i = 1; i < CUBE_LEVELS.length; i++) {
		if (Math.abs(CUBE_LEVELS[i] - v) < Math.abs(CUBE_LEVELS[best] - v)) best = i;
	}
	return best;
}

/** The xterm-256 index closest to an RGB colour (colour cube or grey ramp). */
export function rgbTo256(r: number, g: number, b: number): number {
	const ri = nearestCubeIndex(r);
	const gi = nearestCubeIndex(g);
	const bi = nearestCubeIndex(b);
	const cube = 16 + 36 * ri + 6 * gi + bi;
	const cubeDist = (CUBE_LEVELS[ri] - r) ** 2 + (CUBE_LEVELS[gi] - g) ** 2 + (CUBE_LEVELS[bi] - b) ** 2;
	// Grey ramp 232..255 holds 8, 18, …, 238.
	const avg = (r + g + b) / 3;
	const greyStep = Math.max(0, Math.min(23, Math.round((avg - 8) / 10)));
	const grey = 8 + greyStep * 10;
	const greyDist = (grey - r) ** 2 + (grey - g) ** 2 + (grey - b) ** 2;
	return greyDist < cubeDist ? 232 + greyStep : cube;
}

/** SGR opening code for a colour as foreground (`fg`) or background; "" for the terminal default. */
export function sgrOpen(color: ResolvedColor, layer: "fg" | "bg", mode: ColorMode): string {
	if (mode === "none" || color.kind === "default") return "";
	const base = layer === "fg" ? 38 : 48;
	if (color.kind === "index") return `\x1b[${base};5;${color.n}m`;
	if (mode === "256color") return `\x1b[${base};5;${rgbTo256(color.r, color.g, color.b)}m`;
	return `\x1b[${base};2;${color.r};${color.g};${color.b}m`;
}

/** "#rrggbb" of a colour (HTML export); undefined for the terminal default. */
export function toHex(color: ResolvedColor): string | undefined {
	if (color.kind === "default") return undefined;
	const [r, g, b] = color.kind === "rgb" ? [color.r, color.g, color.b] : indexToRgb(color.n);
	return `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

const ANSI16: [number, number, number][] = [
	[0, 0, 0],
	[205, 0, 0],
	[0, 205, 0],
	[205, 205, 0],
	[0, 0, 238],
	[205, 0, 205],
	[0, 205, 205],
	[229, 229, 229],
	[127, 127, 127],
	[255, 0, 0],
	[0, 255, 0],
	[255, 255, 0],
	[92, 92, 255],
	[255, 0, 255],
	[0, 255, 255],
	[255, 255, 255],
];

/** The usual RGB of an xterm-256 index (the first 16 vary per terminal; xterm's defaults). */
export function indexToRgb(n: number): [number, number, number] {
	if (n < 16) return ANSI16[n];
	if (n >= 232) {
		const v = 8 + (n - 232) * 10;
		return [v, v, v];
	}
	const i = n - 16;
	return [CUBE_LEVELS[Math.floor(i / 36)], CUBE_LEVELS[Math.floor(i / 6) % 6], CUBE_LEVELS[i % 6]];
}
