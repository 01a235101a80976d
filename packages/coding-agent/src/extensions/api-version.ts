// Checks an extension's declared API range (`engines.pi` in its package.json,
// or an exported `piApi`) against EXTENSION_API_VERSION. Supports what
// package.json ranges commonly use: `*`, `x.y.z`, `>=`, `>`, `<=`, `<`, `=`,
// `^`, `~`, `x` wildcards, space-separated conditions and `||` alternatives.

type Version = [number, number, number];

function parse(text: string): { version: Version; parts: number } | undefined {
	const m = /^v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(?:-[\w.]+)?$/i.exec(text.trim());
	if (!m) return undefined;
	const raw = [m[1], m[2], m[3]];
	let parts = 0;
	const version = raw.map((p) => {
		if (p === undefined || /^[x*]$/i.test(p)) return 0;
		parts++;
		return Number(p);
	}) as Version;
	// "1.x" counts one part: everything after the first wildcard is free.
	const firstWild = raw.findIndex((p) => p === undefined || /^[x*]$/i.test(p));
	return { version, parts: firstWild === -1 ? 3 : Math.min(parts, firstWild) };
}

function compare(a: Version, b: Version): number {
	for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
	return 0;
}

function upperOf(v: Version, parts: number): Version {
	if (parts <= 1) return [v[0] + 1, 0, 0];
	return [v[0], v[1] + 1, 0];
}

function satisfiesOne(version: Version, cond: string): boolean | undefined {
	const m = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(cond);
	if (!m) return undefined;
	const op = m[1] ?? "";
	if (op === "" && /^[x*]$/i.test(m[2])) return true;
	const target = parse(m[2]);
	if (!target) return undefined;
	const c = compare(version, target.version);
	switch (op) {
		case ">=":
			return c >= 0;
		case ">":
			return c > 0;
		case "<=":
			return c <= 0;
		case "<":
			return c < 0;
		case "^": {
			const v = target.version;
			const upper: Version = v[0] > 0 ? [v[0] + 1, 0, 0] : v[1] > 0 ? [0, v[1] + 1, 0] : [0, 0, v[2] + 1];
			return c >= 0 && compare(version, upper) < 0;
		}
		case "~":
			return c >= 0 && compare(version, upperOf(target.version, Math.min(target.parts, 2) || 1)) < 0;
		default:
			if (target.parts === 3) return c === 0;
			return c >= 0 && compare(version, upperOf(target.version, target.parts)) < 0;
	}
}

/** True/false for a readable range; undefined when the range cannot be read. */
export function satisfiesRange(versionText: string, range: string): boolean | undefined {
	const version = parse(versionText)?.version;
	if (!version) return undefined;
	let readable = true;
	const result = range.split("||").some((alt) => {
		const conds = alt
			.trim()
			.replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
			.split(/\s+/)
			.filter(Boolean);
		if (conds.length === 0) return true;
		return conds.every((cond) => {
			const r = satisfiesOne(version, cond);
			if (r === undefined) readable = false;
			return r === true;
		});
	});
	return readable ? result : undefined;
}
