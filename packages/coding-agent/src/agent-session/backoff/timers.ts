// Timers behind an interface, so backoff waits are real in the product and
// instant (but recorded) in tests.

export interface Timers {
	setTimeout(callback: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
	setTimeout: (callback, ms) => setTimeout(callback, ms),
	clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class SleepAbortedError extends Error {
	constructor() {
		super("Retry cancelled");
		this.name = "SleepAbortedError";
	}
}

/** Waits `ms`; rejects with SleepAbortedError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, timers: Timers = realTimers): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(new SleepAbortedError());
			return;
		}
		const onAbort = () => {
			timers.clearTimeout(handle);
			reject(new SleepAbortedError());
		};
		const handle = timers.setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
