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

	/** The active branch's messages, projected afresh; the Agent's copy is set to match. */
	project(): AgentMessage[] {
		const messages = this.sessionManager.buildSessionContext().messages;
		this.agent.replaceMessages(messages);
		return messages;
	}

	/** Realigns the Agent's copy after the session changed (same as project(), result unused). */
	readonly refresh = (): void => {
		this.project();
	};
}
