// Moving an AgentSession to another conversation in place: a new empty
// session, another session file, a fork before one of the user's messages, or
// a clone of the active branch. The SessionManager changes its file in place,
// so every collaborator that holds it stays valid; what has to follow is the
// Agent (transcript cache, queues, session id) and the model runtime (the
// model and thinking level recorded in the session we arrive in).
import type { Agent } from "@pi/agent-core";
import { lastAnsweredBy, restoredSelection } from "../config/virtual-models.js";
import type { SessionLifecycleHooks } from "../extensions/session-hooks.js";
import { messageText } from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";
import type { ModelRuntime } from "./model-runtime.js";
import type { QueueReport } from "./queue-report.js";
import type { TranscriptSync } from "./transcript.js";

export interface SessionSwitchHost {
	agent: Agent;
	sessionManager: SessionManager;
	models: ModelRuntime;
	transcript: TranscriptSync;
	/** The queue report starts afresh in the session we arrive in. */
	queue: Pick<QueueReport, "reset">;
	/** Ends any active run (and retry/compaction wait) before the session moves. */
	abort(): Promise<void>;
	/** The session_before_switch / session_before_fork gates (extensions); none by default. */
	hooks: SessionLifecycleHooks;
	/** Told after every completed move (AgentSessionRuntime follows a change of folder). */
	afterSwitch?: SwitchObserver;
}

/** How the session moved, and from which file (session_start's `reason` / `previousSessionFile`). */
export interface SessionSwitchEvent {
	reason: "new" | "resume" | "fork";
	previousSessionFile: string | undefined;
}

export type SwitchObserver = (event: SessionSwitchEvent) => Promise<void>;

export interface ForkableMessage {
	entryId: string;
	text: string;
}

/**
 * Every user message of the session (all branches, append order) that has text. Only user messages
 * are read, and those on disk are not kept: a long session's list does not load the whole file.
 */
export function getForkMessages(sessionManager: SessionManager): ForkableMessage[] {
	const out: ForkableMessage[] = [];
	sessionManager.forEachEntry(
		(type, role) => type === "message" && role === "user",
		(entry, id) => {
			// A line that no longer parses reads as a stand-in: not a user message.
			if (entry.type !== "message" || entry.message.role !== "user") return;
			const text = messageText(entry.message);
			if (text) out.push({ entryId: id, text });
		},
	);
	return out;
}

/** The Agent mirrors the session the manager now holds. */
function followSession(host: SessionSwitchHost): void {
	host.agent.reset();
	host.agent.sessionId = host.sessionManager.getSessionId();
	host.transcript.refresh();
	host.queue.reset();
}

/** A session starts by recording its model and level, as createAgentSession does. */
function recordStart(host: SessionSwitchHost): void {
	const model = host.models.model;
	if (!model) return;
	host.sessionManager.appendModelChange(model.provider, model.id);
	host.sessionManager.appendThinkingLevelChange(host.models.thinkingLevel);
}

export async function startNewSession(
	host: SessionSwitchHost,
	options: { parentSession?: string } = {},
): Promise<void> {
	await host.abort();
	host.sessionManager.newSession(options.parentSession ? { parentSession: options.parentSession } : {});
	followSession(host);
	recordStart(host);
}

/** Opens another session file; its recorded model is restored when it is known and has credentials. */
export async function switchToSession(host: SessionSwitchHost, sessionPath: string): Promise<void> {
	await host.abort();
	host.sessionManager.setSessionFile(sessionPath);
	followSession(host);
	const context = host.sessionManager.buildSessionContext();
	const registry = host.models.registry;
	const selection = restoredSelection(host.sessionManager.getBranchEntries("model_change"), context.model, (p, id) =>
		registry.find(p, id),
	);
	if (selection) {
		const { provider, modelId } = selection;
		host.models.restore(provider, modelId, context.thinkingLevel, lastAnsweredBy(context.messages));
	}
}

/**
 * Continues in a new session file holding the active path before the user
 * message `entryId`; returns that message's text (for the caller's editor).
 */
export async function forkBefore(host: SessionSwitchHost, entryId: string): Promise<{ text: string }> {
	const entry = host.sessionManager.getEntry(entryId);
	if (entry?.type !== "message" || entry.message.role !== "user") {
		throw new Error(`Invalid entry ID for forking: ${entryId} is not a user message`);
	}
	const text = messageText(entry.message);
	await host.abort();
	host.sessionManager.createBranchedSession(entry.parentId);
	followSession(host);
	if (!entry.parentId) recordStart(host);
	return { text };
}

/**
 * Continues in a new session file holding the path from the root through
 * `entryId` (any entry: a clone "at" it); null: the current leaf (`/clone`),
 * an empty session starting afresh.
 */
export async function forkAt(host: SessionSwitchHost, entryId: string | null): Promise<void> {
	if (entryId !== null && !host.sessionManager.getEntry(entryId)) {
		throw new Error(`Invalid entry ID for forking: ${entryId} is not an entry of this session`);
	}
	await host.abort();
	const leaf = entryId ?? host.sessionManager.getLeafId();
	host.sessionManager.createBranchedSession(leaf);
	followSession(host);
	if (!leaf) recordStart(host);
}

// -- the gated moves AgentSession exposes ----------------------------------------------

/** A fresh, empty session, unless a `session_before_switch` handler cancels it. */
export async function gatedNewSession(
	host: SessionSwitchHost,
	options: { parentSession?: string } = {},
): Promise<{ cancelled: boolean }> {
	const gate = await host.hooks.beforeSwitch?.({ reason: "new" });
	if (gate?.cancel) return { cancelled: true };
	const previousSessionFile = host.sessionManager.getSessionFile();
	await startNewSession(host, options);
	await host.afterSwitch?.({ reason: "new", previousSessionFile });
	return { cancelled: false };
}

/** Another session file, unless a `session_before_switch` handler cancels it. */
export async function gatedSwitch(host: SessionSwitchHost, sessionPath: string): Promise<{ cancelled: boolean }> {
	const gate = await host.hooks.beforeSwitch?.({ reason: "resume", targetSessionFile: sessionPath });
	if (gate?.cancel) return { cancelled: true };
	const previousSessionFile = host.sessionManager.getSessionFile();
	await switchToSession(host, sessionPath);
	await host.afterSwitch?.({ reason: "resume", previousSessionFile });
	return { cancelled: false };
}

/**
 * A fork from `entryId`, unless a `session_before_fork` handler cancels it:
 * position "before" (default) continues before that user message and returns
 * its text (for the editor); "at" keeps the path through the entry itself.
 * The gate is asked before the entry is checked (as 1.6.0).
 */
export async function gatedFork(
	host: SessionSwitchHost,
	entryId: string,
	position: "before" | "at" = "before",
): Promise<{ text: string; cancelled: boolean }> {
	const gate = await host.hooks.beforeFork?.({ entryId, position });
	if (gate?.cancel) return { text: "", cancelled: true };
	const previousSessionFile = host.sessionManager.getSessionFile();
	let result = { text: "" };
	if (position === "at") await forkAt(host, entryId);
	else result = await forkBefore(host, entryId);
	await host.afterSwitch?.({ reason: "fork", previousSessionFile });
	return { ...result, cancelled: false };
}

/** A clone of the active path (a fork "at" the leaf), cancellable like a fork. */
export async function gatedClone(host: SessionSwitchHost): Promise<{ cancelled: boolean }> {
	const gate = await host.hooks.beforeFork?.({ entryId: host.sessionManager.getLeafId() ?? "", position: "at" });
	if (gate?.cancel) return { cancelled: true };
	const previousSessionFile = host.sessionManager.getSessionFile();
	await forkAt(host, null);
	await host.afterSwitch?.({ reason: "fork", previousSessionFile });
	return { cancelled: false };
}
