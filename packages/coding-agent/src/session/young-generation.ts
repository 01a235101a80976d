// Parsing a large part of a session at once (the first context of a resumed
// session: thousands of entries read from the file, a tree view or export of a
// whole branch) creates objects that nearly all survive. V8 reads that high
// survival rate as a reason to grow the young generation (1 MB semi-spaces
// doubling up to 16 MB each), which became most of the resident memory a
// resume adds once the open itself made no object per line (tree.ts). So while
// such a batch is parsed the growth factor is held at 1, and set back to V8's
// default (2) afterwards; the parsed entries are promoted to the old generation
// either way.
//
// V8 reads this flag each time it decides to grow, so changing it at run time
// takes effect (checked on Node 20 and 22). It is left alone when the user
// tunes the young generation themselves, and on Node majors where the flag was
// not checked (an unknown flag would print an error).

/**
 * Batches at least this large are parsed with the growth held (a 100k-entry resume's first context
 * reads ~4 MB); smaller ones gain nothing measurable.
 */
const HOLD_MIN_BYTES = 1024 * 1024;
const V8_DEFAULT_GROWTH_FACTOR = 2;
const CHECKED_NODE_MAJORS = new Set([20, 22, 24]);

type FlagSetter = (flags: string) => void;
let setter: FlagSetter | null | undefined;

function flagSetter(): FlagSetter | null {
	if (setter !== undefined) return setter;
	setter = null;
	const major = Number(process.versions.node.split(".")[0]);
	const tuned = /--(max-|min-)?semi-space|--semi-space-growth-factor/;
	if (!CHECKED_NODE_MAJORS.has(major)) return setter;
	if (process.execArgv.some((a) => tuned.test(a)) || tuned.test(process.env.NODE_OPTIONS ?? "")) return setter;
	// node:v8 is loaded only here (nothing else on the start-up path needs it); getBuiltinModule
	// exists from Node 20.16 / 22.3, older ones just skip the tuning.
	const v8 = process.getBuiltinModule?.("node:v8") as { setFlagsFromString?: FlagSetter } | undefined;
	if (typeof v8?.setFlagsFromString === "function") setter = v8.setFlagsFromString;
	return setter;
}

/** Holds in force (nested holds set the flag once and restore it once). */
let depth = 0;

/** Runs `parse` (parsing `bytes` bytes of entries that will be kept) with the young generation kept at its size. */
export function withYoungGenerationHeld<T>(bytes: number, parse: () => T): T {
	const set = bytes >= HOLD_MIN_BYTES ? flagSetter() : null;
	if (!set) return parse();
	if (depth++ === 0) set("--semi-space-growth-factor=1");
	try {
		return parse();
	} finally {
		if (--depth === 0) set(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH_FACTOR}`);
	}
}
