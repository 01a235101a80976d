// Which failed responses are worth sending again, and after how long.
// Decided from the provider's structured error facts (errorInfo), never from
// the error text: rate limits, overload, 5xx, network resets and cut streams
// are transient; auth, bad requests and context overflow are not (overflow
// has its own recovery: compact, then retry once).
import { type AssistantMessage, isContextOverflow } from "@pi/ai";

export interface RetryPolicySettings {
	enabled: boolean;
	maxRetries: number;
	baseDelayMs: number;
	/** Longest wait allowed (computed backoff or server-requested); 0 turns the cap off. */
	maxDelayMs: number;
}

/** True for a failed response whose error the provider marked as transient. */
export function isRetryableError(message: AssistantMessage, contextWindow?: number): boolean {
	if (message.stopReason !== "error") return false;
	if (!message.errorInfo?.retryable) return false;
	return !isContextOverflow(message, contextWindow);
}

export type RetryDecision =
	| { retry: true; delayMs: number }
	| { retry: false; reason: "exhausted" | "too_long"; message: string };

/** A delay for humans: "750 ms", "4 s", "2 min 5 s". */
export function formatDelay(ms: number): string {
	if (ms < 1000) return `${Math.round(ms)} ms`;
	const s = Math.round(ms / 1000);
	if (s < 60) return `${s} s`;
	const m = Math.floor(s / 60);
	return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
}

/**
 * The delay before retry number `attempt` (1-based): base·2^(attempt−1),
 * or the server's retry-after when that is longer. A server asking for more
 * than the allowed maximum fails fast instead of hanging the session.
 */
export function decideRetry(attempt: number, settings: RetryPolicySettings, message: AssistantMessage): RetryDecision {
	const error = message.errorMessage ?? "Request failed";
	if (attempt > settings.maxRetries) {
		return { retry: false, reason: "exhausted", message: error };
	}
	const backoff = settings.baseDelayMs * 2 ** (attempt - 1);
	const requested = message.errorInfo?.retryAfterMs;
	const cap = settings.maxDelayMs > 0 ? settings.maxDelayMs : Number.POSITIVE_INFINITY;
	if (requested !== undefined && requested > cap) {
		return {
			retry: false,
			reason: "too_long",
			message: `${error} (the provider asked to wait ${formatDelay(requested)} before retrying, longer than the ${formatDelay(cap)} allowed; not retrying)`,
		};
	}
	return { retry: true, delayMs: Math.min(Math.max(backoff, requested ?? 0), cap) };
}
