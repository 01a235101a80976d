// The page's tree index, built while entries stream past: one small record
// per entry (parent, kind, preview, cost) so the page can draw and navigate
// the whole tree without parsing every entry, plus labels, the session name
// and totals. Memory grows with the number of entries, not their size.
import type { SessionEntry } from "../session/types.js";

const PREVIEW_CHARS = 90;
/** A `/skill:name args` expansion: the preview names the skill and the user's words, not the instructions. */
const SKILL_BLOCK = /^<skill name="([^"]+)" location="[^"]+">\n[\s\S]*?\n<\/skill>(?:\n\n([\s\S]+))?$/;

export interface PageIndex {
	ids: string[];
	/** Index of the parent in `ids`, -1 for a root (or a missing parent). */
	parents: number[];
	kinds: string[];
	previews: string[];
	/** Cost in USD of the entry's model call (0 when none). */
	costs: number[];
	/** Position of the active leaf in `ids`, -1 for an empty session. */
	leaf: number;
	/** Entry position → label, as the last label entry for it says. */
	labels: Record<string, string>;
	name: string | null;
	totals: { input: number; output: number; cacheRead: number; cacheWrite: number; cost: number };
}

interface Block {
	type?: unknown;
	text?: unknown;
	name?: unknown;
	thinking?: unknown;
}

/**
 * A short one-line preview that owns its characters. V8 keeps a slice of a
 * string as a view of the whole parent, so a plain `slice` of a 2 KB tool
 * result would keep all 2 KB alive per entry (a 100k-entry export grew by
 * ~60 MB that way); the preview is rebuilt through a Buffer instead.
 */
function clip(text: string): string {
	const flat = text
		.slice(0, PREVIEW_CHARS * 4)
		.replace(/\s+/g, " ")
		.trim();
	const short = flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
	return Buffer.from(short, "utf8").toString("utf8");
}

function firstText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	for (const b of content as Block[]) if (b && b.type === "text" && typeof b.text === "string") return b.text;
	return "";
}

function kindOf(entry: SessionEntry): string {
	if (entry.type !== "message") return entry.type;
	const role = (entry.message as { role?: unknown } | undefined)?.role;
	return typeof role === "string" ? role : "message";
}

function previewOf(entry: SessionEntry): string {
	const e = entry as unknown as Record<string, unknown>;
	switch (entry.type) {
		case "message": {
			const m = (entry.message ?? {}) as unknown as Record<string, unknown>;
			if (m.role === "assistant" && Array.isArray(m.content)) {
				const text = firstText(m.content);
				if (text.trim()) return clip(text);
				const calls = (m.content as Block[]).filter((b) => b?.type === "toolCall").map((b) => String(b.name));
				if (calls.length) return clip(`→ ${calls.join(", ")}`);
				if (typeof m.errorMessage === "string") return clip(`error: ${m.errorMessage}`);
				return "";
			}
			if (m.role === "toolResult") return clip(`${String(m.toolName ?? "tool")}: ${firstText(m.content)}`);
			if (m.role === "bashExecution") return clip(`! ${String(m.command ?? "")}`);
			const text = firstText(m.content);
			const skill = m.role === "user" ? SKILL_BLOCK.exec(text) : null;
			if (skill) return clip(`[skill] ${skill[1]}${skill[2] ? ` ${skill[2]}` : ""}`);
			return clip(text);
		}
		case "compaction":
		case "branch_summary":
			return clip(String(e.summary ?? ""));
		case "model_change":
			return clip(`${String(e.provider)}/${String(e.modelId)}`);
		case "thinking_level_change":
			return clip(String(e.thinkingLevel ?? ""));
		case "label":
			return clip(`${String(e.label ?? "(cleared)")}`);
		case "session_info":
			return clip(String(e.name ?? ""));
		case "custom":
		case "custom_message":
			return clip(`${String(e.customType ?? "")} ${firstText(e.content)}`);
		case "context_edit":
			return clip(`${e.replacement === null ? "omit" : "replace"} ${String(e.targetId)}`);
		case "usage":
			return clip(`${String(e.kind ?? "")} ${String(e.provider ?? "")}/${String(e.model ?? "")}`);
		default:
			return "";
	}
}

interface UsageLike {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
	cost?: { total?: number };
}

function usageOf(entry: SessionEntry): UsageLike | undefined {
	if (entry.type === "message") {
		const m = entry.message as { role?: string; usage?: UsageLike };
		return m.role === "assistant" ? m.usage : undefined;
	}
	if (entry.type === "usage" || entry.type === "compaction" || entry.type === "branch_summary") {
		return (entry as { usage?: UsageLike }).usage;
	}
	return undefined;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export class PageIndexBuilder {
	private readonly index: PageIndex = {
		ids: [],
		parents: [],
		kinds: [],
		previews: [],
		costs: [],
		leaf: -1,
		labels: {},
		name: null,
		totals: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
	};
	private readonly position = new Map<string, number>();
	/** Labels by target id until the end (a label may name an entry that comes later). */
	private readonly labelsById = new Map<string, string>();

	add(entry: SessionEntry): void {
		const i = this.index.ids.length;
		this.position.set(entry.id, i);
		this.index.ids.push(entry.id);
		const parent = entry.parentId && entry.parentId !== entry.id ? this.position.get(entry.parentId) : undefined;
		this.index.parents.push(parent ?? -1);
		this.index.kinds.push(kindOf(entry));
		this.index.previews.push(previewOf(entry));
		const usage = usageOf(entry);
		const cost = num(usage?.cost?.total);
		this.index.costs.push(cost);
		if (usage) {
			const t = this.index.totals;
			t.input += num(usage.input);
			t.output += num(usage.output);
			t.cacheRead += num(usage.cacheRead);
			t.cacheWrite += num(usage.cacheWrite);
			t.cost += cost;
		}
		if (entry.type === "label") {
			if (entry.label) this.labelsById.set(entry.targetId, entry.label);
			else this.labelsById.delete(entry.targetId);
		} else if (entry.type === "session_info") {
			this.index.name = entry.name?.trim() || null;
		}
	}

	/** The finished index; `leafId` defaults to the last entry (as a session loads). */
	finish(leafId?: string | null): PageIndex {
		const ids = this.index.ids;
		const leaf =
			leafId === undefined || leafId === null ? ids.length - 1 : (this.position.get(leafId) ?? ids.length - 1);
		this.index.leaf = leaf;
		for (const [id, label] of this.labelsById) {
			const at = this.position.get(id);
			if (at !== undefined) this.index.labels[String(at)] = label;
		}
		return this.index;
	}
}
