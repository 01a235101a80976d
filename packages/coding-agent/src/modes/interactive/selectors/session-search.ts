// Searching the session list: the query is split into words (each must match
// the session's name, first message, working directory or id, fuzzily) and
// "quoted phrases" (must appear as written, case-insensitive). Sorting is by
// last change, or by match quality while a query is typed ("relevance").
import { fuzzyMatch } from "@pi/tui";
import type { SessionInfo } from "../../../session/listing.js";

export type SessionSortMode = "recent" | "relevance";
export type SessionNameFilter = "all" | "named";

interface QueryPart {
	kind: "word" | "phrase";
	value: string;
}

export function parseSessionQuery(query: string): QueryPart[] {
	const parts: QueryPart[] = [];
	const re = /"([^"]*)"|(\S+)/g;
	for (let m = re.exec(query); m; m = re.exec(query)) {
		if (m[1] !== undefined) {
			if (m[1].trim()) parts.push({ kind: "phrase", value: m[1].toLowerCase() });
		} else parts.push({ kind: "word", value: m[2].toLowerCase() });
	}
	return parts;
}

function haystack(s: SessionInfo): string {
	return [s.name ?? "", s.firstMessage, s.cwd, s.id].join(" \u0000 ");
}

/** Lower is better; undefined when the session does not match. */
export function scoreSession(session: SessionInfo, parts: readonly QueryPart[]): number | undefined {
	const text = haystack(session);
	const lower = text.toLowerCase();
	let total = 0;
	for (const part of parts) {
		if (part.kind === "phrase") {
			const at = lower.indexOf(part.value);
			if (at < 0) return undefined;
			total += at / 1000;
			continue;
		}
		const exact = lower.indexOf(part.value);
		if (exact >= 0) {
			total += exact / 1000;
			continue;
		}
		const fuzzy = fuzzyMatch(part.value, text);
		if (!fuzzy.matches) return undefined;
		total += 1 + fuzzy.score;
	}
	return total;
}

export function filterAndSortSessions(
	sessions: readonly SessionInfo[],
	query: string,
	sort: SessionSortMode,
	nameFilter: SessionNameFilter = "all",
): SessionInfo[] {
	const parts = parseSessionQuery(query);
	const scored: { s: SessionInfo; score: number }[] = [];
	for (const s of sessions) {
		if (nameFilter === "named" && !s.name?.trim()) continue;
		const score = parts.length === 0 ? 0 : scoreSession(s, parts);
		if (score !== undefined) scored.push({ s, score });
	}
	scored.sort((a, b) => {
		if (sort === "relevance" && parts.length > 0 && a.score !== b.score) return a.score - b.score;
		return b.s.modified.getTime() - a.s.modified.getTime();
	});
	return scored.map((x) => x.s);
}

/** "now", "5m", "3h", "2d", "4w", or the date for older ones. */
export function formatAge(date: Date, now: number = Date.now()): string {
	const s = Math.max(0, Math.floor((now - date.getTime()) / 1000));
	if (s < 60) return "now";
	if (s < 3600) return `${Math.floor(s / 60)}m`;
	if (s < 86400) return `${Math.floor(s / 3600)}h`;
	if (s < 86400 * 7) return `${Math.floor(s / 86400)}d`;
	if (s < 86400 * 56) return `${Math.floor(s / (86400 * 7))}w`;
	return date.toISOString().slice(0, 10);
}
