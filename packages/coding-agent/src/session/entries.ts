// Entry construction for SessionManager: the header, the envelope, and the
// body of each entry type. Pure: the manager supplies ids, timestamps and
// anything read from the tree. Key order here is the key order on disk, as
// every pi writes it (and as the fast paths of readers expect), so optional
// fields are added in a fixed order and only when set.

import type { Message, SystemMessage, Usage } from "@pi/ai";
import { containsSecret, redact } from "@pi/ai";
import type { BashExecutionMessage, CustomMessage } from "../messages.js";
import {
	CURRENT_SESSION_VERSION,
	type FileEntry,
	type LabelEntry,
	type SessionEntry,
	type SessionHeader,
} from "./types.js";

/** An entry without its envelope (id, parentId, timestamp). */
export type EntryInit = Omit<SessionEntry, "id" | "parentId" | "timestamp">;

/** The optional trailer shared by compaction and branch_summary entries. */
interface SummaryExtras {
	details?: unknown;
	fromHook?: boolean;
	usage?: unknown;
}

export function newHeader(id: string, timestamp: string, cwd: string, parentSession?: string): SessionHeader {
	const header: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id, timestamp, cwd };
	if (parentSession) header.parentSession = parentSession;
	return header;
}

/** One line of the session file (without its newline). */
export function serialize(entry: FileEntry): string {
	const text = JSON.stringify(entry);
	// A configured secret (key, header value, URL password) never reaches the file, whatever echoed it.
	return containsSecret(text) ? redact(text) : text;
}

/** A user or assistant message: the entries that make a new session worth a file. */
export function isConversation(entry: SessionEntry): boolean {
	return entry.type === "message" && (entry.message.role === "user" || entry.message.role === "assistant");
}

/** The full entry: envelope fields first, then the body. */
export function withEnvelope<T extends SessionEntry>(
	init: EntryInit,
	id: string,
	parentId: string | null,
	timestamp: string,
): T {
	const { type, ...rest } = init as { type: string };
	return { type, id, parentId, timestamp, ...rest } as unknown as T;
}

function addSummaryExtras(init: Record<string, unknown>, { details, usage, fromHook }: SummaryExtras): void {
	if (details !== undefined) init.details = details;
	if (usage !== undefined) init.usage = usage;
	if (fromHook !== undefined) init.fromHook = fromHook;
}

/** Summaries are not messages: they have compaction/branch_summary entries of their own. */
export function messageInit(message: Message | CustomMessage | BashExecutionMessage): EntryInit {
	const role = (message as { role: string }).role;
	if (role === "compactionSummary" || role === "branchSummary") {
		throw new Error(`${role} messages are stored as compaction/branch_summary entries, not messages`);
	}
	return { type: "message", message } as EntryInit;
}

export function usageInit(kind: string, provider: string, model: string, usage: Usage, note?: string): EntryInit {
	return { type: "usage", kind, provider, model, usage, ...(note ? { note } : {}) } as EntryInit;
}

/**
 * A compaction body. `firstKeptEntryId` is already resolved (the entry's own id
 * when nothing is kept); `system` is the system message current at the leaf,
 * stored as the checkpoint with the entry's timestamp.
 */
export function compactionInit(
	summary: string,
	firstKeptEntryId: string,
	tokensBefore: number,
	extras: SummaryExtras,
	system: SystemMessage | undefined,
	timestamp: string,
): EntryInit {
	const init: Record<string, unknown> = { type: "compaction", summary, firstKeptEntryId, tokensBefore };
	addSummaryExtras(init, extras);
	if (system) init.systemMessage = { ...system, timestamp: Date.parse(timestamp) };
	return init as EntryInit;
}

export function branchSummaryInit(fromId: string, summary: string, extras: SummaryExtras): EntryInit {
	const init: Record<string, unknown> = { type: "branch_summary", fromId, summary };
	addSummaryExtras(init, extras);
	return init as EntryInit;
}

/** Names are one line. */
export function sessionInfoInit(name: string): EntryInit {
	return { type: "session_info", name: name.replace(/[\r\n]+/g, " ").trim() } as EntryInit;
}

/** An empty or missing label clears it (the key is left out). */
export function labelInit(targetId: string, label: string | undefined): EntryInit {
	const init: Record<string, unknown> = { type: "label", targetId };
	if (label) init.label = label;
	return init as EntryInit;
}

/** A label re-created at the end of a branched session, keeping its original time. */
export function labelEntry(
	id: string,
	parentId: string | null,
	timestamp: string,
	targetId: string,
	label: string,
): LabelEntry {
	return { type: "label", id, parentId, timestamp, targetId, label };
}
