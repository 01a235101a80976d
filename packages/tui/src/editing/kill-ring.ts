/**
 * Emacs-style kill ring: killed text is pushed, consecutive kills merge into
 * one entry, yank inserts the newest entry and yank-pop cycles older ones.
 */
export class KillRing {
	private ring: string[] = [];
	private readonly limit: number;

	constructor(limit = 60) {
		this.limit = limit;
	}

	/**
	 * Add killed text. With `accumulate`, merge into the newest entry: before it
	 * for backward kills (`prepend`), after it for forward kills.
	 */
	push(text: string, opts: { prepend: boolean; accumulate?: boolean }): void {
		if (text.length === 0) return;
		if (opts.accumulate && this.ring.length > 0) {
			const last = this.ring.pop() ?? "";
			this.ring.push(opts.prepend ? text + last : last + text);
			return;
		}
		this.ring.push(text);
		if (this.ring.length > this.limit) this.ring.shift();
	}

	/** Newest entry. */
	peek(): string | undefined {
		return this.ring[this.ring.length - 1];
	}

	/** Move the newest entry to the back, exposing the next older one. */
	rotate(): void {
		if (this.ring.length > 1) {
			const last = this.ring.pop() ?? "";
			this.ring.unshift(last);
		}
	}

	get length(): number {
		return this.ring.length;
	}
}
