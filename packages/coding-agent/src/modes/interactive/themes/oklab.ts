// Perceptual colour forms used by 1.x theme files: `oklch(L C H)` and
// `okhsl(H S% L%)`, converted to 8-bit sRGB. Okhsl is Björn Ottosson's
// hue/saturation/lightness model over Oklab, where saturation is relative
// to the most the sRGB gamut allows at that hue and lightness, so every
// value is in gamut. Oklch values outside sRGB are brought in by lowering
// chroma at constant lightness and hue (as CSS Color 4 does).

type Vec3 = [number, number, number];

function oklabToLinearSrgb(L: number, a: number, b: number): Vec3 {
	const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
	const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
	const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
	return [
		4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
		-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
		-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
	];
}

function toGamma(x: number): number {
	return x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055;
}

function to8bit(linear: Vec3): Vec3 {
	return linear.map((x) => Math.round(Math.min(1, Math.max(0, toGamma(x))) * 255)) as Vec3;
}

// -- okhsl -------------------------------------------------------------------------

const K1 = 0.206;
const K2 = 0.03;
const K3 = (1 + K1) / (1 + K2);

/** Okhsl's lightness estimate → Oklab L. */
function toeInverse(x: number): number {
	return (x * x + K1 * x) / (K3 * (x + K2));
}

/** The largest saturation (C/L) at the cusp for a hue direction (a, b), refined by one Halley step. */
function maxSaturation(a: number, b: number): number {
	let k: [number, number, number, number, number];
	let w: Vec3;
	if (-1.88170328 * a - 0.80936493 * b > 1) {
		k = [1.19086277, 1.76576728, 0.59662641, 0.75515197, 0.56771245];
		w = [4.0767416621, -3.3077115913, 0.2309699292];
	} else if (1.81444104 * a - 1.19445276 * b > 1) {
		k = [0.73956515, -0.45954404, 0.08285427, 0.1254107, 0.14503204];
		w = [-1.2684380046, 2.6097574011, -0.3413193965];
	} else {
		k = [1.35733652, -0.00915799, -1.1513021, -0.50559606, 0.00692167];
		w = [-0.0041960863, -0.7034186147, 1.707614701];
	}
	let S = k[0] + k[1] * a + k[2] * b + k[3] * a * a + k[4] * a * b;
	const kl = 0.3963377774 * a + 0.2158037573 * b;
	const km = -0.1055613458 * a - 0.0638541728 * b;
	const ks = -0.0894841775 * a - 1.291485548 * b;
	const l_ = 1 + S * kl;
	const m_ = 1 + S * km;
	const s_ = 1 + S * ks;
	const f = w[0] * l_ ** 3 + w[1] * m_ ** 3 + w[2] * s_ ** 3;
	const f1 = w[0] * 3 * kl * l_ * l_ + w[1] * 3 * km * m_ * m_ + w[2] * 3 * ks * s_ * s_;
	const f2 = w[0] * 6 * kl * kl * l_ + w[1] * 6 * km * km * m_ + w[2] * 6 * ks * ks * s_;
	S -= (f * f1) / (f1 * f1 - 0.5 * f * f2);
	return S;
}

interface Cusp {
	L: number;
	C: number;
}

function findCusp(a: number, b: number): Cusp {
	const S = maxSaturation(a, b);
	const rgb = oklabToLinearSrgb(1, S * a, S * b);
	const L = Math.cbrt(1 / Math.max(rgb[0], rgb[1], rgb[2]));
	return { L, C: L * S };
}

/** Where the line from (L0, 0) towards (L1, C1) leaves the sRGB gamut, as a fraction t of C1. */
function gamutIntersection(a: number, b: number, L1: number, C1: number, L0: number, cusp: Cusp): number {
	if ((L1 - L0) * cusp.C - (cusp.L - L0) * C1 <= 0) {
		return (cusp.C * L0) / (C1 * cusp.L + cusp.C * (L0 - L1));
	}
	let t = (cusp.C * (L0 - 1)) / (C1 * (cusp.L - 1) + cusp.C * (L0 - L1));
	// One Halley step per channel towards the exact boundary above the cusp.
	const dL = L1 - L0;
	const kl = 0.3963377774 * a + 0.2158037573 * b;
	const km = -0.1055613458 * a - 0.0638541728 * b;
	const ks = -0.0894841775 * a - 1.291485548 * b;
	const ldt = dL + C1 * kl;
	const mdt = dL + C1 * km;
	const sdt = dL + C1 * ks;
	const L = L0 * (1 - t) + t * L1;
	const C = t * C1;
	const l_ = L + C * kl;
	const m_ = L + C * km;
	const s_ = L + C * ks;
	const l = l_ ** 3;
	const m = m_ ** 3;
	const s = s_ ** 3;
	const d1 = [3 * ldt * l_ * l_, 3 * mdt * m_ * m_, 3 * sdt * s_ * s_];
	const d2 = [6 * ldt * ldt * l_, 6 * mdt * mdt * m_, 6 * sdt * sdt * s_];
	const rows: Vec3[] = [
		[4.0767416621, -3.3077115913, 0.2309699292],
		[-1.2684380046, 2.6097574011, -0.3413193965],
		[-0.0041960863, -0.7034186147, 1.707614701],
	];
	let step = Number.MAX_VALUE;
	for (const w of rows) {
		const f = w[0] * l + w[1] * m + w[2] * s - 1;
		const f1 = w[0] * d1[0] + w[1] * d1[1] + w[2] * d1[2];
		const f2 = w[0] * d2[0] + w[1] * d2[1] + w[2] * d2[2];
		const u = f1 / (f1 * f1 - 0.5 * f * f2);
		if (u >= 0) step = Math.min(step, -f * u);
	}
	t += step;
	return t;
}

/** Polynomial fit of the saturation/"toe" pair at the middle of the gamut for a hue. */
function midST(a: number, b: number): { S: number; T: number } {
	const S =
		0.11516993 +
		1 /
			(7.4477897 +
				4.1590124 * b +
				a *
					(-2.19557347 +
						1.75198401 * b +
						a * (-2.13704948 - 10.02301043 * b + a * (-4.24894561 + 5.38770819 * b + 4.69891013 * a))));
	const T =
		0.11239642 +
		1 /
			(1.6132032 -
				0.68124379 * b +
				a *
					(0.40370612 +
						0.90148123 * b +
						a * (-0.27087943 + 0.6122399 * b + a * (0.00299215 - 0.45399568 * b - 0.14661872 * a))));
	return { S, T };
}

/** Chroma at saturation 0.8 (mid), the largest in gamut (max), and the curve's slope anchor (c0). */
function chromaAnchors(L: number, a: number, b: number): { c0: number; mid: number; max: number } {
	const cusp = findCusp(a, b);
	const max = gamutIntersection(a, b, L, 1, L, cusp);
	const stMax = { S: cusp.C / cusp.L, T: cusp.C / (1 - cusp.L) };
	const k = max / Math.min(L * stMax.S, (1 - L) * stMax.T);
	const st = midST(a, b);
	const ca = L * st.S;
	const cb = (1 - L) * st.T;
	const mid = 0.9 * k * Math.sqrt(Math.sqrt(1 / (1 / ca ** 4 + 1 / cb ** 4)));
	const ca0 = L * 0.4;
	const cb0 = (1 - L) * 0.8;
	const c0 = Math.sqrt(1 / (1 / ca0 ** 2 + 1 / cb0 ** 2));
	return { c0, mid, max };
}

/** Okhsl (hue in degrees, saturation and lightness 0–1) → 8-bit sRGB. */
export function okhslToRgb(hueDeg: number, s: number, l: number): Vec3 {
	if (l >= 1) return [255, 255, 255];
	if (l <= 0) return [0, 0, 0];
	const h = (((hueDeg % 360) + 360) % 360) / 360;
	const a = Math.cos(2 * Math.PI * h);
	const b = Math.sin(2 * Math.PI * h);
	const L = toeInverse(l);
	if (s <= 0) return to8bit(oklabToLinearSrgb(L, 0, 0));
	const { c0, mid, max } = chromaAnchors(L, a, b);
	const midS = 0.8;
	let C: number;
	if (s < midS) {
		const t = s / midS;
		const k1 = midS * c0;
		const k2 = 1 - k1 / mid;
		C = (t * k1) / (1 - k2 * t);
	} else {
		const t = (s - midS) / (1 - midS);
		const k1 = ((1 - midS) * mid * mid) / (midS * midS * c0);
		const k2 = 1 - k1 / (max - mid);
		C = mid + (t * k1) / (1 - k2 * t);
	}
	return to8bit(oklabToLinearSrgb(L, C * a, C * b));
}

// -- oklch -------------------------------------------------------------------------

function inGamut(rgb: Vec3): boolean {
	const eps = 1e-6;
	return rgb.every((x) => x >= -eps && x <= 1 + eps);
}

/** Oklch (L 0–1, chroma, hue in degrees) → 8-bit sRGB, lowering chroma until the colour fits. */
export function oklchToRgb(L: number, C: number, hueDeg: number): Vec3 {
	if (L >= 1) return [255, 255, 255];
	if (L <= 0) return [0, 0, 0];
	const rad = (hueDeg * Math.PI) / 180;
	const at = (c: number) => oklabToLinearSrgb(L, c * Math.cos(rad), c * Math.sin(rad));
	let rgb = at(C);
	if (inGamut(rgb)) return to8bit(rgb);
	let lo = 0;
	let hi = C;
	for (let i = 0; i < 24; i++) {
		const midC = (lo + hi) / 2;
		if (inGamut(at(midC))) lo = midC;
		else hi = midC;
	}
	rgb = at(lo);
	return to8bit(rgb);
}

// -- parsing -----------------------------------------------------------------------

const NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)`;
const OKHSL = new RegExp(String.raw`^okhsl\(\s*(${NUMBER})(deg)?\s+(${NUMBER})%\s+(${NUMBER})%\s*\)$`, "i");
const OKLCH = new RegExp(String.raw`^oklch\(\s*(${NUMBER})(%)?\s+(${NUMBER})\s+(${NUMBER})(deg)?\s*\)$`, "i");

/** `okhsl(H S% L%)` → sRGB; undefined when the text is not that form or out of range. */
export function parseOkhsl(text: string): Vec3 | undefined {
	const m = OKHSL.exec(text.trim());
	if (!m) return undefined;
	const s = Number(m[3]) / 100;
	const l = Number(m[4]) / 100;
	if (s < 0 || s > 1 || l < 0 || l > 1) return undefined;
	return okhslToRgb(Number(m[1]), s, l);
}

/** `oklch(L C H)` (L as 0–1 or a percentage) → sRGB; undefined when the text is not that form. */
export function parseOklch(text: string): Vec3 | undefined {
	const m = OKLCH.exec(text.trim());
	if (!m) return undefined;
	const L = m[2] ? Number(m[1]) / 100 : Number(m[1]);
	const C = Number(m[3]);
	if (L < 0 || L > 1 || C < 0) return undefined;
	return oklchToRgb(L, C, Number(m[4]));
}
