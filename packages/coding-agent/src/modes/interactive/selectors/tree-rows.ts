// The session tree as rows to draw: filtered (hidden entries hand their
// children to the nearest shown ancestor), folded, and laid out so a chain of
// single children stays in one column while each branch point indents its
// children with ├─ / └─ connectors.
import type { AgentMessage } from "@pi/agent-core";
import type { SessionEntry, SessionTreeNode } from "../../../session/types.js";
import { oneLine } from "./frame.js";

export type TreeFilterMode = "default" | "no-tools" | "user-only" | "labeled-only" | "all";
export const TREE_FILTER_MODES: readonly TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

export interface TreeRow {
	entry: SessionEntry;
	label?: string;
	labelTimestamp?: string;
	/** Gutter and connector before the text. */
	prefix: string;
	/** Shown (filtered) children count. */
	childCount: number;
	folded: boolean;
	/** Id of the shown parent (undefined for roots). */
	parentId: string | undefined;
	/** True when this row starts a branch segment (a root or a child of a branch point). */
	segmentStart: boolean;
}

/** A node of the filtered tree. */
interface ShownNode {
	node: SessionTreeNode;
	children: ShownNode[];
}

function role(entry: SessionEntry): string | undefined {
	return entry.type === "message" ? (entry.message as { role: string }).role : undefined;
}

export function isShown(node: SessionTreeNode, mode: TreeFilterMode): boolean {
	const e = node.entry;
	switch (mode) {
		case "all":
			return true;
		case "user-only":
			return role(e) === "user";
		case "labeled-only":
			return node.label !== undefined && node.label !== "";
		case "no-tools":
			if (role(e) === "toolResult") return false;
			return isShown(node, "default");
		default:
			return (
				e.type === "message" || e.type === "compaction" || e.type === "branch_summary" || e.type === "custom_message"
			);
	}
}

function filterForest(nodes: readonly SessionTreeNode[], mode: TreeFilterMode, options: TreeRowOptions): ShownNode[] {
	// Pre-order position of every node: siblings are put back in this order
	// after hidden nodes handed their children up (iterative: chains run deep).
	const order = new Map<SessionTreeNode, number>();
	const walk: SessionTreeNode[] = [...nodes].reverse();
	while (walk.length > 0) {
		const n = walk.pop()!;
		order.set(n, order.size);
		for (let i = n.children.length - 1; i >= 0; i--) walk.push(n.children[i]);
	}
	const out: ShownNode[] = [];
	const all: ShownNode[] = [];
	const stack: { nodes: readonly SessionTreeNode[]; into: ShownNode[] }[] = [{ nodes, into: out }];
	while (stack.length > 0) {
		const { nodes: list, into } = stack.pop()!;
		for (const node of list) {
			if (isShown(node, mode) && (!options.search || matchesSearch(node.entry, options.search))) {
				const shown: ShownNode = { node, children: [] };
				into.push(shown);
				all.push(shown);
				stack.push({ nodes: node.children, into: shown.children });
			} else {
				stack.push({ nodes: node.children, into });
			}
		}
	}
	// The branch holding the active path comes first, then creation order.
	const active = options.activeIds;
	const holdsActive = (n: ShownNode) => (active?.has(n.node.entry.id) ? 0 : 1);
	const byOrder = (a: ShownNode, b: ShownNode) =>
		holdsActive(a) - holdsActive(b) || (order.get(a.node) ?? 0) - (order.get(b.node) ?? 0);
	out.sort(byOrder);
	for (const n of all) if (n.children.length > 1) n.children.sort(byOrder);
	return out;
}

export interface TreeRowOptions {
	/** Ids on the active path: their branch is listed first. */
	activeIds?: ReadonlySet<string>;
	/** Only entries whose text holds every word (case-insensitive). */
	search?: string;
}

/** Every word of the query appears in the entry's kind or text. */
export function matchesSearch(entry: SessionEntry, query: string): boolean {
	const { kind, text } = describeEntry(entry);
	const hay = `${kind} ${text}`.toLowerCase();
	return query
		.toLowerCase()
		.split(/\s+/)
		.filter(Boolean)
		.every((w) => hay.includes(w));
}

export function buildTreeRows(
	forest: readonly SessionTreeNode[],
	mode: TreeFilterMode,
	folded: ReadonlySet<string>,
	options: TreeRowOptions = {},
): TreeRow[] {
	const shown = filterForest(forest, mode, options);
	const rows: TreeRow[] = [];
	type Item = { n: ShownNode; gutter: string; connector: string; childGutter: string; parentId?: string; seg: boolean };
	const stack: Item[] = [];
	const pushChildren = (children: ShownNode[], gutter: string, parentId: string | undefined, branch: boolean) => {
		if (!branch && children.length === 1) {
			stack.push({ n: children[0], gutter, connector: "", childGutter: gutter, parentId, seg: parentId === undefined });
			return;
		}
		for (let i = children.length - 1; i >= 0; i--) {
			const last = i === children.length - 1;
			stack.push({
				n: children[i],
				gutter,
				connector: last ? "└─ " : "├─ ",
				childGutter: gutter + (last ? "   " : "│  "),
				parentId,
				seg: true,
			});
		}
	};
	pushChildren(shown, "", undefined, shown.length > 1);
	while (stack.length > 0) {
		const item = stack.pop()!;
		const { node } = item.n;
		const isFolded = folded.has(node.entry.id) && item.n.children.length > 0;
		rows.push({
			entry: node.entry,
			label: node.label,
			labelTimestamp: node.labelTimestamp,
			prefix: item.gutter + item.connector,
			childCount: item.n.children.length,
			folded: isFolded,
			parentId: item.parentId,
			segmentStart: item.seg,
		});
		if (!isFolded) pushChildren(item.n.children, item.childGutter, node.entry.id, item.n.children.length > 1);
	}
	return rows;
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((c: { type?: string; text?: string }) =>
			c.type === "text" ? (c.text ?? "") : c.type === "image" ? "[image]" : "",
		)
		.join(" ");
}

function toolCallText(call: { name: string; arguments?: unknown }): string {
	const args = (call.arguments ?? {}) as Record<string, unknown>;
	const main = args.path ?? args.command ?? args.pattern ?? args.file_path;
	return typeof main === "string" ? `${call.name} ${oneLine(main)}` : call.name;
}

function messageText(message: AgentMessage): { kind: string; text: string } {
	const m = message as AgentMessage & { role: string };
	switch (m.role) {
		case "user":
			return { kind: "user", text: oneLine(textOf((m as { content: unknown }).content)) };
		case "assistant": {
			const a = m as Extract<AgentMessage, { role: "assistant" }>;
			const text = oneLine(textOf(a.content));
			const calls = a.content.filter((c) => c.type === "toolCall").map((c) => toolCallText(c));
			if (a.stopReason === "aborted" && !text && calls.length === 0) return { kind: "assistant", text: "(aborted)" };
			if (a.stopReason === "error" && !text)
				return { kind: "assistant", text: `(error: ${oneLine(a.errorMessage ?? "")})` };
			const parts = [text, calls.length > 0 ? `→ ${calls.join(", ")}` : ""].filter(Boolean);
			return { kind: "assistant", text: parts.join(" ") };
		}
		case "toolResult": {
			const r = m as Extract<AgentMessage, { role: "toolResult" }>;
			return { kind: "tool", text: `${r.toolName}${r.isError ? " (error)" : ""}: ${oneLine(textOf(r.content))}` };
		}
		case "bashExecution": {
			const b = m as unknown as { command: string };
			return { kind: "bash", text: `!${oneLine(b.command)}` };
		}
		default:
			return { kind: m.role, text: oneLine(textOf((m as { content?: unknown }).content)) };
	}
}

/** What a row says: a kind ("user", "assistant", …) and one line of text. */
export function describeEntry(entry: SessionEntry): { kind: string; text: string } {
	switch (entry.type) {
		case "message":
			return messageText(entry.message);
		case "compaction":
			return { kind: "compaction", text: `${Math.round(entry.tokensBefore / 100) / 10}k tokens summarized` };
		case "branch_summary":
			return { kind: "branch summary", text: oneLine(entry.summary) };
		case "custom_message":
			return { kind: entry.customType, text: oneLine(textOf(entry.content)) };
		case "model_change":
			return { kind: "model", text: `${entry.provider}/${entry.modelId}` };
		case "thinking_level_change":
			return { kind: "thinking", text: entry.thinkingLevel };
		case "label":
			return {
				kind: "label",
				text: entry.label ? `${entry.label} → ${entry.targetId}` : `cleared on ${entry.targetId}`,
			};
		case "session_info":
			return { kind: "name", text: entry.name ?? "" };
		case "custom":
			return { kind: "custom", text: entry.customType };
		case "usage":
			return { kind: "usage", text: `${entry.kind} ${entry.provider}/${entry.model}` };
		case "context_edit":
			return {
				kind: "context edit",
				text: entry.replacement === null ? `omit ${entry.targetId}` : `replace ${entry.targetId}`,
			};
		default:
			return { kind: (entry as { type: string }).type, text: "" };
	}
}

/** Ids on the path from the root to `leafId`. */
export function activePathIds(entries: ReadonlyMap<string, SessionEntry>, leafId: string | null): Set<string> {
	const ids = new Set<string>();
	let id = leafId;
	while (id && !ids.has(id)) {
		ids.add(id);
		id = entries.get(id)?.parentId ?? null;
	}
	return ids;
}
