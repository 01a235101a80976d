// One owner of the transcript: the session projection. The Agent keeps a
// message list of its own (for `continue()`, UIs, stats), but it is only a
// cache of the active branch. TranscriptSync is the single place that cache
// is refreshed, and AgentSession calls it before every model request
// (prepareRequest) as well as after anything moved the session outside a
// run (compaction, tree navigation, session switches, retry edits). So a new
// writer of the session (an extension appending a custom message, MCP) only
// appends through the SessionManager; the next request carries the entry
// without the writer refreshing anything.
import type { Agent, AgentMessage } from "@pi/agent-core";
import type { SessionManager } from "../session/session-manager.js";

export class TranscriptSync {
	constructor(
		private readonly agent: Agent,
		private readonly sessionManager: SessionManager,
	) {}

	/**
	 * The active branch's messages, projected afresh (for the request); the
	 * Agent's copy is set to the conversation part of it. Recorded system
	 * messages (prompt and tool patches) reach the model through the request
	 * only: the cache is what UIs, `get_messages` and `continue()` look at, as
	 * it was before the projection owned it.
	 */
	project(): AgentMessage[] {
		const messages = this.sessionManager.buildSessionContext().messages;
		this.agent.replaceMessages(messages.filter((m) => m.role !== "system"));
		return messages;
	}

	/** Realigns the Agent's copy after the session changed (same as project(), result unused). */
	readonly refresh = (): void => {
		this.project();
	};
}
