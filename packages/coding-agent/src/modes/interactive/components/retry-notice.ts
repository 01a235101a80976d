// "Retrying in 4s (attempt 2/3)": a countdown line while auto-retry waits
// out a backoff; replaced by the outcome when the wait ends.
import { CachedItem, type ThemeSource } from "./cached.js";

export class RetryNoticeItem extends CachedItem {
	private timer: NodeJS.Timeout | undefined;
	private endsAt: number;
	private outcome: string | undefined;

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
			this.changed();
			this.onTick();
		}, 1000);
		this.timer.unref?.();
	}

	/** Stops the countdown and shows how the retry ended (undefined: remove the countdown text). */
	end(outcome?: string): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
		this.outcome = outcome;
		this.changed();
	}

	protected draw(): string[] {
		const t = this.theme();
		if (this.outcome !== undefined) return this.outcome ? ["", ` ${t.fg("muted", this.outcome)}`] : [];
		const seconds = Math.max(0, Math.ceil((this.endsAt - this.now()) / 1000));
		const text = `Retrying in ${seconds}s (attempt ${this.attempt}/${this.maxAttempts}) after: ${this.errorMessage}`;
		return ["", ` ${t.fg("warning", text)}${t.fg("dim", "  esc to cancel")}`];
	}
}
