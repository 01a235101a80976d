// Cache notices (setting `showCacheMissNotices`, off by default; 1.6.0
// docs/settings.md): transcript lines for a significant prompt-cache miss, a
// successful cache warm (consecutive ones add up), and what a compaction or
// branch summary was billed. Misses are not stored: they are worked out from
// the usage the session recorded, live at each reply and again when history
// is drawn.
//
// A miss is counted on an assistant reply when it paid full price for
// prompt tokens the previous request (reply or cache warm) already sent:
// min(previous prompt, this prompt) − this reply's cache reads. Nothing is
// counted on the first request after a compaction/branch summary (the
// context legitimately changed), below a 1,024-token floor (breakpoint
// granularity), or on a reply with no cache activity from a provider that
// never reported any. A notice is shown from 20k missed tokens or $0.10.
import type { AssistantMessage, Usage } from "@pi/ai";
import type { SessionEntry } from "../../session/types.js";
import { formatTokens } from "./components/footer.js";

/** Idle gaps past this are named as the likely cause (the common 5-minute cache lifetime). */
export const CACHE_IDLE_MS = 5 * 60_000;
const NOISE_FLOOR_TOKENS = 1024;
const NOTICE_MIN_TOKENS = 20_000;
const NOTICE_MIN_COST = 0.1;

export interface CacheMiss {
	missedTokens: number;
	/** Extra dollars paid over the cache-read price. */
	missedCost: number;
	idleMs: number;
	modelChanged: boolean;
}

interface PreviousRequest {
	promptTokens: number;
	model: string;
	timestamp: number;
	/** Cache activity was reported by some request since the last reset. */
	reportedCache: boolean;
}

type CacheReadPrice = (provider: string, model: string) => number | undefined;

const promptOf = (u: Usage) => u.input + u.cacheRead + u.cacheWrite;

function missOf(
	prev: PreviousRequest | undefined,
	m: AssistantMessage,
	readPrice: CacheReadPrice,
): CacheMiss | undefined {
	const u = m.usage;
	const prompt = promptOf(u);
	if (!prev || prompt <= 0) return undefined;
	if (u.cacheRead + u.cacheWrite === 0 && !prev.reportedCache) return undefined;
	const missedTokens = Math.min(prev.promptTokens, prompt) - u.cacheRead;
	if (missedTokens <= NOISE_FLOOR_TOKENS) return undefined;
	// Missed tokens were billed as input or cache writes: the rate actually paid for those, less the read rate.
	const paid = u.input + u.cacheWrite;
	const paidRate = paid > 0 ? (u.cost.input + u.cost.cacheWrite) / paid : 0;
	const readRate = u.cacheRead > 0 ? u.cost.cacheRead / u.cacheRead : (readPrice(m.provider, m.model) ?? 0) / 1_000_000;
	return {
		missedTokens,
		missedCost: missedTokens * Math.max(0, paidRate - readRate),
		idleMs: Math.max(0, m.timestamp - prev.timestamp),
		modelChanged: `${m.provider}/${m.model}` !== prev.model,
	};
}

function next(
	prev: PreviousRequest | undefined,
	model: string,
	usage: Usage,
	timestamp: number,
): PreviousRequest | undefined {
	const promptTokens = promptOf(usage);
	if (promptTokens <= 0) return prev;
	const reported = (prev?.reportedCache ?? false) || usage.cacheRead + usage.cacheWrite > 0;
	return { promptTokens, model, timestamp, reportedCache: reported };
}

/** Walks a branch in order; `onReply` sees each assistant reply with its miss (if any). */
function walk(
	entries: readonly SessionEntry[],
	readPrice: CacheReadPrice,
	onReply?: (entry: SessionEntry, miss: CacheMiss | undefined) => void,
): PreviousRequest | undefined {
	let prev: PreviousRequest | undefined;
	for (const e of entries) {
		if (e.type === "compaction" || e.type === "branch_summary") prev = undefined;
		else if (e.type === "usage" && e.kind === "cache_warm") {
			// A warm re-sent the same prompt and kept the cache: the next reply is judged against it.
			const p = next(prev, `${e.provider}/${e.model}`, e.usage, Date.parse(e.timestamp));
			if (p) prev = { ...p, reportedCache: true };
		} else if (e.type === "message" && e.message.role === "assistant") {
			const m = e.message;
			const ok = m.stopReason !== "error" && m.stopReason !== "aborted";
			onReply?.(e, ok ? missOf(prev, m, readPrice) : undefined);
			prev = next(prev, `${m.provider}/${m.model}`, m.usage, m.timestamp);
		}
	}
	return prev;
}

/** The miss of a reply that just ended; `branch` is the session branch, with or without the reply itself. */
export function detectCacheMiss(
	branch: readonly SessionEntry[],
	message: AssistantMessage,
	readPrice: CacheReadPrice,
): CacheMiss | undefined {
	if (message.stopReason === "error" || message.stopReason === "aborted") return undefined;
	const last = branch.at(-1);
	const recorded =
		last?.type === "message" && last.message.role === "assistant" && last.message.timestamp === message.timestamp;
	return missOf(walk(recorded ? branch.slice(0, -1) : branch, readPrice), message, readPrice);
}

/** The notice of a miss, or undefined when it is too small to mention. */
export function formatCacheMiss(miss: CacheMiss): string | undefined {
	if (miss.missedTokens < NOTICE_MIN_TOKENS && miss.missedCost < NOTICE_MIN_COST) return undefined;
	const cost = miss.missedCost >= 0.01 ? ` (~$${miss.missedCost.toFixed(2)})` : "";
	const label = miss.modelChanged
		? "Cache miss after model switch"
		: miss.idleMs >= CACHE_IDLE_MS
			? `Cache miss after ${Math.round(miss.idleMs / 60_000)}m idle`
			: "Cache miss";
	return `${label}: ${formatTokens(miss.missedTokens)} tokens re-billed${cost}`;
}

/** "Cache warmed (note): $0.0012" for one warm or a run of consecutive ones (at least 3 decimals, no trailing zeros past them). */
export function formatCacheWarmed(totalCost: number, note?: string): string {
	const cost = totalCost.toFixed(6).replace(/(\.\d{3}\d*?)0+$/, "$1");
	return `Cache warmed${note ? ` (${note})` : ""}: $${cost}`;
}

/** What a compaction or branch summary was billed. */
export function formatSummaryCost(kind: "compaction" | "branch_summary", usage: Usage): string {
	const tokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	const cost = usage.cost.total >= 0.01 ? ` (~$${usage.cost.total.toFixed(2)})` : "";
	return `${kind === "compaction" ? "Compaction" : "Branch summary"}: ${formatTokens(tokens)} tokens billed${cost}`;
}

/**
 * Notices to draw after entries of a branch when history is drawn, by entry
 * id: a reply's miss, a summary's cost, and warms (added after the entry
 * before them; consecutive warms with the same note are one line).
 */
export interface CacheNotice {
	text: string;
	/** Misses and summary costs warn; warms are muted. */
	kind: "warning" | "muted";
}

export function historyCacheNotices(
	entries: readonly SessionEntry[],
	readPrice: CacheReadPrice,
): Map<string, CacheNotice[]> {
	const out = new Map<string, CacheNotice[]>();
	const add = (id: string, text: string, kind: CacheNotice["kind"] = "warning") =>
		out.set(id, [...(out.get(id) ?? []), { text, kind }]);
	const misses = new Map<string, CacheMiss>();
	walk(entries, readPrice, (e, miss) => miss && misses.set(e.id, miss));
	let anchor: string | undefined;
	let warm: { anchor: string; cost: number; note?: string; index: number } | undefined;
	for (const e of entries) {
		if (e.type === "usage" && e.kind === "cache_warm") {
			if (!anchor) continue;
			if (warm && warm.anchor === anchor && warm.note === e.note) {
				warm.cost += e.usage.cost.total;
				const lines = out.get(anchor) ?? [];
				lines[warm.index] = { text: formatCacheWarmed(warm.cost, warm.note), kind: "muted" };
				continue;
			}
			add(anchor, formatCacheWarmed(e.usage.cost.total, e.note), "muted");
			warm = { anchor, cost: e.usage.cost.total, note: e.note, index: (out.get(anchor)?.length ?? 1) - 1 };
			continue;
		}
		// Only entries history draws can carry notices (labels, custom and model changes are not drawn as messages).
		if (e.type !== "message" && e.type !== "custom_message" && e.type !== "compaction" && e.type !== "branch_summary") {
			continue;
		}
		anchor = e.id;
		warm = undefined;
		const miss = misses.get(e.id);
		const line = miss && formatCacheMiss(miss);
		if (line) add(e.id, line);
		if ((e.type === "compaction" || e.type === "branch_summary") && e.usage)
			add(e.id, formatSummaryCost(e.type, e.usage));
	}
	return out;
}
