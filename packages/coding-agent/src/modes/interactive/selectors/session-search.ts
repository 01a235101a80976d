// Searching the session list: the query is split into words (each must match
// one of the session's name, first message, working directory or id —
// literally, or fuzzily within that one field) and "quoted phrases" (must
// appear as written, case-insensitive). Sorting is by last change, by match
// quality while a query is typed ("relevance"), or "threaded": forks and
// clones listed under the session they came from. In every order, sessions
// where each word appears literally come before fuzzy-only matches: a typed
// word found in one session's prompt must not sit below a session whose
// folder path happens to hold its letters in order.
import { fuzzyMatch } from "@pi/tui";
import type { SessionInfo } from "../../../session/listing.js";

export type SessionSortMode = "threaded" | "recent" | "relevance";
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

function fields(s: SessionInfo): string[] {
	return [s.name ?? "", s.firstMessage, s.cwd, s.id];
}

export interface SessionScore {
	/** Lower is better. */
	score: number;
	/** Every word and phrase appears as typed (no fuzzy-only match). */
	literal: boolean;
}

/** Undefined when the session does not match. */
export function scoreSession(session: SessionInfo, parts: readonly QueryPart[]): SessionScore | undefined {
	const texts = fields(session);
	const lower = texts.join(" \u0000 ").toLowerCase();
	let total = 0;
	let literal = true;
	for (const part of parts) {
		const at = lower.indexOf(part.value);
		if (at >= 0) {
			total += at / 1000;
			continue;
		}
		if (part.kind === "phrase") return undefined;
		// A word spread over two fields ("a" from the prompt, "lpha" from the
		// folder) is no match.
		let best: number | undefined;
		for (const text of texts) {
			const fuzzy = fuzzyMatch(part.value, text);
			if (fuzzy.matches && (best === undefined || fuzzy.score < best)) best = fuzzy.score;
		}
		if (best === undefined) return undefined;
		total += 1 + best;
		literal = false;
	}
	return { score: total, literal };
}

export function filterAndSortSessions(
	sessions: readonly SessionInfo[],
	query: string,
	sort: SessionSortMode,
	nameFilter: SessionNameFilter = "all",
): SessionInfo[] {
	const parts = parseSessionQuery(query);
	const scored: { s: SessionInfo; score: number; literal: boolean }[] = [];
	for (const s of sessions) {
		if (nameFilter === "named" && !s.name?.trim()) continue;
		const match = parts.length === 0 ? { score: 0, literal: true } : scoreSession(s, parts);
		if (match) scored.push({ s, ...match });
	}
	scored.sort((a, b) => {
		if (a.literal !== b.literal) return a.literal ? -1 : 1;
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

export interface ThreadedSession {
	session: SessionInfo;
	/** Connector drawn before the title ("" for top-level sessions). */
	prefix: string;
}

/**
 * Sessions with their forks under them (by the header's parentSession), each
 * level newest first; a thread is placed by its most recent change — or, with
 * `placeBy: "input"`, by its best-placed member in the given order (search
 * results: literal matches first). Sessions whose parent is not in the list
 * are top-level.
 */
export function threadSessions(
	sessions: readonly SessionInfo[],
	placeBy: "latest" | "input" = "latest",
): ThreadedSession[] {
	const position = new Map(sessions.map((s, i) => [s.path, i]));
	const byPath = new Map(sessions.map((s) => [s.path, s]));
	const children = new Map<string, SessionInfo[]>();
	const roots: SessionInfo[] = [];
	for (const s of sessions) {
		const parent = s.parentSessionPath;
		if (parent && parent !== s.path && byPath.has(parent)) {
			const list = children.get(parent) ?? [];
			list.push(s);
			children.set(parent, list);
		} else roots.push(s);
	}
	const latest = new Map<string, number>();
	const latestOf = (s: SessionInfo, seen: Set<string>): number => {
		const cached = latest.get(s.path);
		if (cached !== undefined) return cached;
		// Larger is placed first: the latest change, or the earliest position.
		let t = placeBy === "latest" ? s.modified.getTime() : -(position.get(s.path) ?? 0);
		seen.add(s.path);
		for (const c of children.get(s.path) ?? []) if (!seen.has(c.path)) t = Math.max(t, latestOf(c, seen));
		latest.set(s.path, t);
		return t;
	};
	const order = (list: SessionInfo[]) => list.sort((a, b) => latestOf(b, new Set()) - latestOf(a, new Set()));
	const out: ThreadedSession[] = [];
	const seen = new Set<string>();
	const stack: { s: SessionInfo; prefix: string; childGutter: string }[] = order(roots)
		.reverse()
		.map((s) => ({ s, prefix: "", childGutter: "" }));
	while (stack.length > 0) {
		const { s, prefix, childGutter } = stack.pop()!;
		if (seen.has(s.path)) continue;
		seen.add(s.path);
		out.push({ session: s, prefix });
		const kids = order([...(children.get(s.path) ?? [])]);
		for (let i = kids.length - 1; i >= 0; i--) {
			const last = i === kids.length - 1;
			stack.push({
				s: kids[i],
				prefix: childGutter + (last ? "└─ " : "├─ "),
				childGutter: childGutter + (last ? "   " : "│  "),
			});
		}
	}
	return out;
}
