// Events an AgentSession emits: every agent-core event (after the session has
// recorded it) plus session-level facts. Compaction, retry and settle events
// are declared here for the collaborators that will emit them.
import type { AgentEvent } from "@pi/agent-core";
import type { ThinkingLevel } from "@pi/ai";
import type { SessionEntry } from "../session/types.js";
import type { CompactionResult } from "./compaction/summarize.js";

export type CompactionReason = "manual" | "threshold" | "overflow";

export type AgentSessionEvent =
	| AgentEvent
	/** The full pending queues, on every change. */
	| { type: "queue_update"; steering: string[]; followUp: string[] }
	| { type: "session_info_changed"; name: string | undefined }
	| { type: "thinking_level_changed"; level: ThinkingLevel }
	| { type: "compaction_start"; reason: CompactionReason }
	| {
			type: "compaction_end";
			reason: CompactionReason;
			result: CompactionResult | undefined;
			aborted: boolean;
			willRetry: boolean;
			errorMessage?: string;
	  }
	| { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
	| { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
	/**
	 * Recording an entry failed (disk full, read-only, another writer): the run is stopped, as
	 * nothing unrecorded may be announced. `code` is the errno when there is one.
	 */
	| { type: "session_write_failed"; file: string | undefined; code?: string; errorMessage: string }
	/** Everything (retries, overflow compaction, queues) is done; `prompt()` resolves after this. */
	| { type: "agent_settled"; aborted: boolean }
	/**
	 * An entry was appended outside a run's messages: an extension's custom entry (`pi.appendEntry`),
	 * its custom message stored without a turn (`pi.sendMessage` while idle), a prompt-cache refresh's
	 * `usage` entry (kind "cache_warm").
	 */
	| { type: "entry_appended"; entry: SessionEntry }
	/** A prompt-cache refresh failed; warming stopped, the conversation is untouched. */
	| { type: "cache_warming_error"; errorMessage: string };

export type AgentSessionEventType = AgentSessionEvent["type"];
export type AgentSessionListener = (event: AgentSessionEvent) => void | Promise<void>;
