/**
 * Fuzzy matching: every query character must appear in the text in order
 * (case-insensitive). Lower scores are better: contiguous runs and matches at
 * word starts score well, gaps and late starts cost.
 */

export interface FuzzyMatch {
	matches: boolean;
	score: number;
}

const WORD_SEPARATORS = " -_./\\:@";

export function fuzzyMatch(query: string, text: string): FuzzyMatch {
	if (query.length === 0) return { matches: true, score: 0 };
	const q = query.toLowerCase();
	const t = text.toLowerCase();
	if (q.length > t.length) return { matches: false, score: 0 };
	// An exact substring beats any scattered match.
	const sub = t.indexOf(q);
	if (sub !== -1) {
		const atBoundary = sub === 0 || WORD_SEPARATORS.includes(t[sub - 1]);
		return { matches: true, score: (atBoundary ? 0 : 5) + sub * 0.1 + (t.length - q.length) * 0.01 };
	}
	let score = 10;
	let ti = 0;
	let prev = -2;
	for (let qi = 0; qi < q.length; qi++) {
		const ch = q[qi];
		const found = t.indexOf(ch, ti);
		if (found === -1) return { matches: false, score: 0 };
		if (found === prev + 1) score -= 1;
		else score += Math.min(found - ti, 10) * 0.5 + 2;
		if (found === 0 || WORD_SEPARATORS.includes(t[found - 1])) score -= 1.5;
		prev = found;
		ti = found + 1;
	}
	return { matches: true, score: score + (t.length - q.length) * 0.01 };
}

/**
 * Items whose text matches every whitespace-separated token of the query,
 * best first (stable for equal scores). An empty query keeps all items.
 */
export function fuzzyFilter<T>(items: T[], query: string, getText: (item: T) => string): T[] {
	const tokens = query.trim().split(/\s+/).filter(Boolean);
	if (tokens.length === 0) return items.slice();
	const scored: { item: T; score: number; index: number }[] = [];
	items.forEach((item, index) => {
		const text = getText(item);
		let total = 0;
		for (const token of tokens) {
			const m = fuzzyMatch(token, text);
			if (!m.matches) return;
			total += m.score;
		}
		scored.push({ item, score: total, index });
	});
	scored.sort((a, b) => a.score - b.score || a.index - b.index);
	return scored.map((s) => s.item);
}
