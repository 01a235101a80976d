// Builds the compaction and retry collaborators of an AgentSession from the
// session's parts, so the coordinator wires them in a few lines.
import { type Agent, getDefaultStreamFn, type StreamFn } from "@pi/agent-core";
import type { Model, ThinkingLevel } from "@pi/ai";
import type { SettingsManager } from "../../config/settings.js";
import type { SessionManager } from "../../session/session-manager.js";
import type { RetryPolicySettings } from "../backoff/retry-policy.js";
import type { Timers } from "../backoff/timers.js";
import { Compactor, type CompactorHost } from "../compaction/compactor.js";
import type { AgentSessionEvent } from "../events.js";
import { AutoRetry } from "../retry/auto-retry.js";
import type { TranscriptSync } from "../transcript.js";
import { type RecoveryHost, RunRecovery } from "./recovery.js";

export interface RecoveryParts {
	agent: Agent;
	sessionManager: SessionManager;
	settings: SettingsManager;
	getModel(): Model | undefined;
	/** See CompactorHost.getContextWindow. */
	getContextWindow?(): number;
	/** See RecoveryHost.replyModel. */
	replyModel?: RecoveryHost["replyModel"];
	getThinkingLevel(): ThinkingLevel;
	emit(event: AgentSessionEvent): Promise<void> | void;
	/** Backoff timers (tests); default the real ones. */
	timers?: Timers;
	/** Extension seams for compaction (session_before_compact / session_compact), read at each compaction. */
	getHooks?: CompactorHost["getHooks"];
	/** Refreshes the Agent's transcript cache from the session projection. */
	transcript: TranscriptSync;
	/** The `agent_before_settle` boundary (see RecoveryHost.beforeSettle). */
	beforeSettle?: RecoveryHost["beforeSettle"];
	/** The stream function for requests outside the loop (routes virtual models as `direct`); default the agent's. */
	getDirectStreamFn?: () => StreamFn;
}

/** Default cap on any retry wait when settings do not name one. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

/** Retry settings as the policy reads them (`retry.maxAgentDelayMs`, else the provider cap). */
export function retryPolicySettings(settings: SettingsManager): RetryPolicySettings {
	const r = settings.getRetrySettings();
	return {
		enabled: r.enabled,
		maxRetries: r.maxRetries,
		baseDelayMs: r.baseDelayMs,
		maxDelayMs: r.maxAgentDelayMs ?? r.provider?.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
	};
}

export function createRecovery(p: RecoveryParts): { compactor: Compactor; retry: AutoRetry; recovery: RunRecovery } {
	const { agent, sessionManager } = p;
	let retry: AutoRetry | undefined;
	const compactor = new Compactor({
		sessionManager,
		getModel: p.getModel,
		getContextWindow: p.getContextWindow,
		getThinkingLevel: p.getThinkingLevel,
		getStreamFn: () => p.getDirectStreamFn?.() ?? agent.streamFn ?? getDefaultStreamFn(),
		getApiKey: (provider) => agent.getApiKey?.(provider),
		getCompactionSettings: () => p.settings.getCompactionSettings(),
		getBranchSummarySettings: () => p.settings.getBranchSummarySettings(),
		getSessionId: () => sessionManager.getSessionId(),
		getRetry: () => (retry ? { settings: retryPolicySettings(p.settings), timers: retry.timers } : undefined),
		emit: p.emit,
		onContextChanged: p.transcript.refresh,
		getHooks: p.getHooks,
	});
	retry = new AutoRetry({ getSettings: () => retryPolicySettings(p.settings), emit: p.emit, timers: p.timers });
	const recovery = new RunRecovery(
		{
			agent,
			sessionManager,
			getModel: p.getModel,
			replyModel: p.replyModel,
			emit: p.emit,
			refreshTranscript: p.transcript.refresh,
			beforeSettle: p.beforeSettle,
		},
		compactor,
		retry,
	);
	return { compactor, retry, recovery };
}
