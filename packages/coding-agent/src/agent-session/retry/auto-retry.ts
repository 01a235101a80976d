// Retry bookkeeping across the runs of one prompt: counts attempts, emits
// auto_retry_start/auto_retry_end, and sleeps through the backoff (abortable).
// The caller decides what a retry is (omit the failed reply, continue()).
import type { AssistantMessage } from "@pi/ai";
import { decideRetry, type RetryPolicySettings } from "../backoff/retry-policy.js";
import { realTimers, SleepAbortedError, sleep, type Timers } from "../backoff/timers.js";
import type { AgentSessionEvent } from "../events.js";

export interface AutoRetryOptions {
	getSettings(): RetryPolicySettings;
	emit(event: AgentSessionEvent): Promise<void> | void;
	timers?: Timers;
}

export class AutoRetry {
	/** Replaceable (tests use instant, recording timers). */
	timers: Timers;
	private attempt = 0;
	private controller: AbortController | undefined;
	/** The error that ended the last failed chain (cleared by reset()). */
	finalError: string | undefined;

	constructor(private readonly o: AutoRetryOptions) {
		this.timers = o.timers ?? realTimers;
	}

	/** Retries made so far in the current chain (0 when none). */
	get attempts(): number {
		return this.attempt;
	}

	/** True while waiting out a backoff delay. */
	get isWaiting(): boolean {
		return this.controller !== undefined;
	}

	get enabled(): boolean {
		return this.o.getSettings().enabled;
	}

	/**
	 * A transient failure happened: announce the next attempt and wait its
	 * delay. Resolves true when the caller should retry now; false when the
	 * chain is over (attempts exhausted, delay too long, or aborted), after
	 * emitting `auto_retry_end`.
	 */
	async schedule(failed: AssistantMessage, signal?: AbortSignal): Promise<boolean> {
		const settings = this.o.getSettings();
		const next = this.attempt + 1;
		const decision = decideRetry(next, settings, failed);
		if (!decision.retry) {
			// A delay above the cap is reported even before any attempt: the user must learn why nothing retried.
			await this.finish(false, decision.message, decision.reason === "too_long");
			return false;
		}
		this.attempt = next;
		const controller = new AbortController();
		this.controller = controller;
		const onOuter = () => controller.abort();
		signal?.addEventListener("abort", onOuter, { once: true });
		try {
			await this.o.emit({
				type: "auto_retry_start",
				attempt: next,
				maxAttempts: settings.maxRetries,
				delayMs: decision.delayMs,
				errorMessage: failed.errorMessage ?? "Request failed",
			});
			await sleep(decision.delayMs, controller.signal, this.timers);
			return true;
		} catch (error) {
			if (!(error instanceof SleepAbortedError)) throw error;
			await this.finish(false, "Retry cancelled");
			return false;
		} finally {
			signal?.removeEventListener("abort", onOuter);
			this.controller = undefined;
		}
	}

	/** Ends a chain (success, or a final error). Silent when no attempt was made, unless `always`. */
	async finish(success: boolean, finalError?: string, always = false): Promise<void> {
		const attempt = this.attempt;
		this.attempt = 0;
		if (attempt === 0 && !always) return;
		if (!success) this.finalError = finalError;
		await this.o.emit({
			type: "auto_retry_end",
			success,
			attempt,
			...(success || finalError === undefined ? {} : { finalError }),
		});
	}

	/** Cancels a backoff wait (the chain then ends with "Retry cancelled"). */
	abort(): void {
		this.controller?.abort();
	}

	/** Forgets the chain without events (a new prompt starts). */
	reset(): void {
		this.attempt = 0;
		this.finalError = undefined;
	}
}
