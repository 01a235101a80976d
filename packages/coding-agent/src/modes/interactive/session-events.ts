// Session events on the screen: the transcript (chat-view) draws messages and
// tool calls; here the rest follows — entries added outside events drawn in
// order, the working row and the terminal's progress while a run or a
// compaction works, the queued messages, the footer, and a failed write.
import type { TUI } from "@pi/tui";
import type { AgentSession } from "../../agent-session/agent-session.js";
import type { AgentSessionEvent } from "../../agent-session/events.js";
import type { ChatView } from "./components/chat-view.js";
import type { QueueView } from "./components/queue-view.js";
import { WORKING, type WorkingRow } from "./components/working-row.js";
import type { StatusKind } from "./context.js";

export interface SessionEventViews {
	session: AgentSession;
	tui: TUI;
	chat: ChatView;
	working: WorkingRow;
	queue: QueueView;
	/** settings terminal.showTerminalProgress */
	showProgress: boolean;
	refreshStatus(): void;
	showStatus(text: string, kind: StatusKind): void;
}

export function showSessionEvent(event: AgentSessionEvent, v: SessionEventViews): void {
	const { chat, session, working } = v;
	// Entries added outside events (extension entries, messages appended while idle) are drawn first, in order.
	if (event.type === "message_start") chat.syncEntries(session.sessionManager);
	chat.handleEvent(event);
	if (event.type === "message_end") chat.syncEntries(session.sessionManager, true);
	switch (event.type) {
		case "agent_start":
			if (v.showProgress) v.tui.terminal.setProgress?.(true);
			working.show(WORKING);
			break;
		case "agent_settled":
			if (v.showProgress) v.tui.terminal.setProgress?.(false);
			working.hide();
			v.refreshStatus();
			break;
		case "compaction_start":
			working.show(
				event.reason === "manual" ? "Compacting context... (esc to cancel)" : "Auto-compacting... (esc to cancel)",
			);
			break;
		case "compaction_end":
			if (session.isStreaming) working.show(WORKING);
			else working.hide();
			v.refreshStatus();
			break;
		case "queue_update":
			v.queue.set(event.steering, event.followUp);
			v.tui.requestRender();
			break;
		case "message_end":
		case "session_info_changed":
		case "thinking_level_changed":
			v.refreshStatus();
			break;
		case "entry_appended":
			// A prompt-cache refresh's usage: the footer's totals include it.
			v.refreshStatus();
			break;
		case "cache_warming_error":
			v.showStatus(event.errorMessage, "warning");
			break;
		case "session_write_failed":
			// The run stops here (nothing unrecorded is announced); say where and why.
			v.showStatus(
				`Session not saved: writing ${event.file ?? "the session file"} failed${event.code ? ` (${event.code})` : ""}: ${event.errorMessage}. The run stopped; entries before this one are on disk.`,
				"error",
			);
			break;
		default:
			break;
	}
}
