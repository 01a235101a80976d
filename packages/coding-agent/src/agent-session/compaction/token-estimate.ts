// How many tokens a context holds, without a tokenizer. The heuristic is
// deliberately simple and errs high: 4 characters per token over everything
// the model reads (text, thinking, tool names and JSON arguments, tool
// declarations), and 1200 tokens (4800 characters) per image, about what the
// major providers bill for a mid-sized screenshot.
//
// The context estimate prefers facts over the heuristic: the last successful
// response reports how many tokens its request carried (plus its own output),
// so only messages projected after it are estimated. That usage stops being a
// fact once a compaction or a context edit changed what comes before it.
import type { AgentMessage } from "@pi/agent-core";
import type { Usage } from "@pi/ai";
import type { SessionProjection } from "../../session/types.js";

export const CHARS_PER_TOKEN = 4;
export const IMAGE_CHARS = 4800;

type Block = { type?: string; text?: unknown; thinking?: unknown; name?: unknown; arguments?: unknown };

function contentChars(content: unknown): number {
	if (typeof content === "string") return content.length;
	if (!Array.isArray(content)) return 0;
	let n = 0;
	for (const raw of content as Block[]) {
		if (!raw || typeof raw !== "object") continue;
		switch (raw.type) {
			case "text":
				n += typeof raw.text === "string" ? raw.text.length : 0;
				break;
			case "thinking":
				n += typeof raw.thinking === "string" ? raw.thinking.length : 0;
				break;
			case "toolCall":
				n += (typeof raw.name === "string" ? raw.name.length : 0) + jsonLength(raw.arguments);
				break;
			case "image":
				n += IMAGE_CHARS;
				break;
		}
	}
	return n;
}

function jsonLength(value: unknown): number {
	try {
		return JSON.stringify(value ?? {})?.length ?? 0;
	} catch {
		return 0;
	}
}

/** Characters the model reads for one message (see the heuristic above). */
export function messageChars(message: AgentMessage): number {
	const m = message as unknown as { role?: string } & Record<string, unknown>;
	switch (m.role) {
		case "user":
		case "assistant":
		case "toolResult":
		case "custom":
			return contentChars(m.content);
		case "bashExecution":
			return String(m.command ?? "").length + String(m.output ?? "").length;
		case "branchSummary":
		case "compactionSummary":
			return String(m.summary ?? "").length;
		case "system": {
			let n = contentChars(m.content);
			const sections = m.sections as Record<string, string | null> | undefined;
			if (sections) for (const v of Object.values(sections)) n += typeof v === "string" ? v.length : 0;
			if (Array.isArray(m.toolsAdded)) n += jsonLength(m.toolsAdded);
			return n;
		}
		default:
			return 0;
	}
}

/** Estimated tokens of one message: ceil(chars / 4). */
export function estimateTokens(message: AgentMessage): number {
	return Math.ceil(messageChars(message) / CHARS_PER_TOKEN);
}

/** Tokens a response's request and output occupied: `totalTokens`, or the sum of the parts when it is 0. */
export function calculateContextTokens(usage: Usage): number {
	return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

function usableUsage(message: AgentMessage): number {
	if (message.role !== "assistant") return 0;
	if (message.stopReason === "error" || message.stopReason === "aborted") return 0;
	return message.usage ? calculateContextTokens(message.usage) : 0;
}

export interface ContextEstimate {
	/** usageTokens + trailingTokens. */
	tokens: number;
	/** From the last trustworthy reported usage (0 when there is none). */
	usageTokens: number;
	/** Heuristic estimate of the messages after that usage. */
	trailingTokens: number;
	/** Index in the flat message list of the assistant whose usage was used, or -1. */
	lastUsageIndex: number;
}

/** Context tokens of a plain message list: last successful usage plus estimates after it. */
export function estimateContextTokens(messages: readonly AgentMessage[]): ContextEstimate {
	let trailing = 0;
	for (let i = messages.length - 1; i >= 0; i--) {
		const usage = usableUsage(messages[i]);
		if (usage > 0) return { tokens: usage + trailing, usageTokens: usage, trailingTokens: trailing, lastUsageIndex: i };
		trailing += estimateTokens(messages[i]);
	}
	return { tokens: trailing, usageTokens: 0, trailingTokens: trailing, lastUsageIndex: -1 };
}

/**
 * Context tokens of a session projection. A reported usage counts only when
 * it was measured on the context as it still is: it must come after the
 * leading compaction (kept entries before it were measured uncompacted), and
 * no later context_edit may change an entry at or before it.
 */
export function estimateProjectedContextTokens(projection: SessionProjection): ContextEstimate {
	const slots = projection.entries;
	let trustFrom = 0;
	const lead = slots[0]?.sourceEntry;
	if (lead?.type === "compaction") {
		trustFrom = slots.length;
		for (let i = 1; i < slots.length; i++) {
			if (slots[i].sourceEntry.parentId === lead.id) {
				trustFrom = i;
				break;
			}
		}
	}
	let slotOf: Map<string, number> | undefined;
	let minEditedSlot = Number.POSITIVE_INFINITY;
	let trailing = 0;
	let flatIndex = projection.messages.length;
	for (let k = slots.length - 1; k >= 0; k--) {
		const slot = slots[k];
		const source = slot.sourceEntry;
		if (source.type === "context_edit") {
			if (!slotOf) {
				slotOf = new Map();
				for (let j = 0; j < slots.length; j++) slotOf.set(slots[j].sourceEntry.id, j);
			}
			const target = slotOf.get(source.targetId);
			if (target !== undefined && target < minEditedSlot) minEditedSlot = target;
			continue;
		}
		for (let j = slot.messages.length - 1; j >= 0; j--) {
			flatIndex--;
			const message = slot.messages[j];
			const usage = k >= trustFrom && k < minEditedSlot ? usableUsage(message) : 0;
			if (usage > 0) {
				return { tokens: usage + trailing, usageTokens: usage, trailingTokens: trailing, lastUsageIndex: flatIndex };
			}
			trailing += estimateTokens(message);
		}
	}
	return { tokens: trailing, usageTokens: 0, trailingTokens: trailing, lastUsageIndex: -1 };
}

/** Settings that decide the threshold. */
export interface CompactionThreshold {
	enabled: boolean;
	reserveTokens: number;
}

/** True when auto-compaction should run: `tokens > contextWindow − reserveTokens`. */
export function shouldCompact(tokens: number, contextWindow: number, settings: CompactionThreshold): boolean {
	if (!settings.enabled || !(contextWindow > 0)) return false;
	return tokens > contextWindow - settings.reserveTokens;
}
