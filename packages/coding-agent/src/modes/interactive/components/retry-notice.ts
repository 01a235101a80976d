// "Retrying in 4s (attempt 2/3) after: <error>": a countdown while auto-retry
// waits out a backoff. When the wait is over it says the attempt is under way
// (nothing left to cancel with esc), and when the chain ends it is replaced by
// the outcome. Long errors wrap at word boundaries instead of being cut.
import { wrapTextWithAnsi } from "@pi/tui";
import { CachedItem, type ThemeSource } from "./cached.js";

export type RetryOutcome = { kind: "succeeded" } | { kind: "failed"; text: string } | { kind: "hidden" };

export class RetryNoticeItem extends CachedItem {
	private timer: NodeJS.Timeout | undefined;
	private readonly endsAt: number;
	private outcome: RetryOutcome | undefined;

	constructor(
		theme: ThemeSource,
		private readonly attempt: number,
		private readonly maxAttempts: number,
		delayMs: number,
		private readonly errorMessage: string,
		private readonly onTick: () => void,
		private readonly now: () => number = Date.now,
	) {
		super(theme);
		this.endsAt = now() + delayMs;
		this.timer = setInterval(() => {
			if (this.now() >= this.endsAt) this.stopTimer();
			this.changed();
			this.onTick();
		}, 1000);
		this.timer.unref?.();
	}

	/** Whether the chain is still open (waiting, or its attempt under way). */
	get isOpen(): boolean {
		return this.outcome === undefined;
	}

	/** Stops the countdown and shows how the retry chain ended. */
	end(outcome: RetryOutcome): void {
		this.stopTimer();
		this.outcome = outcome;
		this.changed();
	}

	private stopTimer(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}

	protected draw(width: number): string[] {
		const t = this.theme();
		const wrap = (text: string, color: "warning" | "muted" | "error", hint = "") => [
			"",
			...wrapTextWithAnsi(`${t.fg(color, text)}${hint}`, Math.max(1, width - 2)).map((l) => ` ${l}`),
		];
		const attempt = `attempt ${this.attempt}/${this.maxAttempts}`;
		const outcome = this.outcome;
		if (outcome?.kind === "hidden") return [];
		if (outcome?.kind === "failed") return wrap(outcome.text, "error");
		if (outcome?.kind === "succeeded")
			return wrap(`Recovered on retry (${attempt}) after: ${this.errorMessage}`, "muted");
		const seconds = Math.ceil((this.endsAt - this.now()) / 1000);
		if (seconds <= 0) return wrap(`Retrying now (${attempt}) after: ${this.errorMessage}`, "muted");
		return wrap(
			`Retrying in ${seconds}s (${attempt}) after: ${this.errorMessage}`,
			"warning",
			t.fg("dim", "  esc to cancel"),
		);
	}
}
