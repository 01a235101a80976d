// Session events on the screen: the transcript (chat-view) draws messages and
// tool calls; here the rest follows — entries added outside events drawn in
// order, the working row and the terminal's progress while a run or a
// compaction works, the queued messages, the footer, and a failed write.
import type { TUI } from "@pi/tui";
import type { AgentSession } from "../../agent-session/agent-session.js";
import type { AgentSessionEvent } from "../../agent-session/events.js";
import { detectCacheMiss, formatCacheMiss, formatCacheWarmed, formatSummaryCost } from "./cache-notices.js";
import type { ChatView } from "./components/chat-view.js";
import type { NoticeItem } from "./components/notice.js";
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
	/** Setting showCacheMissNotices, read at each event (it can change while the app runs). */
	cacheNotices(): boolean;
}

/** The last cache-warm line drawn, so a warm right after it adds up into it. */
const lastWarm = new WeakMap<ChatView, { item: NoticeItem; cost: number; note?: string }>();

function showCacheNotices(event: AgentSessionEvent, v: SessionEventViews): void {
	const { chat, session } = v;
	const readPrice = (provider: string, model: string) => session.modelRegistry.find(provider, model)?.cost.cacheRead;
	if (event.type === "message_end" && event.message.role === "assistant") {
		const miss = detectCacheMiss(session.sessionManager.getBranch(), event.message, readPrice);
		const text = miss && formatCacheMiss(miss);
		if (text) chat.addNotice(text, "warning");
	} else if (event.type === "entry_appended" && event.entry.type === "usage" && event.entry.kind === "cache_warm") {
		const { usage, note } = event.entry;
		const last = lastWarm.get(chat);
		if (last && chat.children.at(-1) === last.item && last.note === note) {
			last.cost += usage.cost.total;
			last.item.setText(formatCacheWarmed(last.cost, note));
			v.tui.requestRender();
			return;
		}
		const item = chat.addNotice(formatCacheWarmed(usage.cost.total, note), "muted");
		lastWarm.set(chat, { item, cost: usage.cost.total, note });
	} else if (event.type === "compaction_end" && event.result?.usage) {
		chat.addNotice(formatSummaryCost("compaction", event.result.usage), "warning");
	}
}

export function showSessionEvent(event: AgentSessionEvent, v: SessionEventViews): void {
	const { chat, session, working } = v;
	// Entries added outside a run's messages (extension entries, custom messages appended while idle) are
	// drawn when announced, and before the next message in any case, in order.
	if (event.type === "message_start" || event.type === "entry_appended") chat.syncEntries(session.sessionManager);
	chat.handleEvent(event);
	if (event.type === "message_end") chat.syncEntries(session.sessionManager, true);
	if (v.cacheNotices()) showCacheNotices(event, v);
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
