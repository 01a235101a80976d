// Polling of an OAuth device-authorization grant (RFC 8628): wait `interval`
// between polls, add 5 s on every `slow_down` (or take the server's new
// interval when it names one), stop at the code's expiry or on cancel.
import { cancellableSleep, LoginError, throwIfCancelled } from "./interaction.js";

export type PollResult<T> =
	| { status: "complete"; value: T }
	| { status: "pending" }
	| { status: "slow_down"; intervalSeconds?: number }
	| { status: "failed"; message: string };

export interface DevicePollOptions<T> {
	poll: () => Promise<PollResult<T>>;
	/** Server-given interval; RFC 8628 says 5 s when absent. */
	intervalSeconds?: number;
	expiresInSeconds: number;
	signal: AbortSignal;
	/** Wait one interval before the first poll (GitHub answers an early poll with slow_down). */
	waitFirst?: boolean;
	/** Timing knobs for tests; production uses the RFC values. */
	timing?: { secondMs?: number; minIntervalMs?: number };
	now?: () => number;
}

export async function pollDeviceCode<T>(options: DevicePollOptions<T>): Promise<T> {
	const second = options.timing?.secondMs ?? 1000;
	const minInterval = options.timing?.minIntervalMs ?? 1000;
	const now = options.now ?? Date.now;
	const deadline = now() + options.expiresInSeconds * second;
	let interval = Math.max(minInterval, (options.intervalSeconds ?? 5) * second);
	let slowDowns = 0;
	if (options.waitFirst) await cancellableSleep(interval, options.signal);
	while (now() < deadline) {
		throwIfCancelled(options.signal);
		const result = await options.poll();
		if (result.status === "complete") return result.value;
		if (result.status === "failed") throw new LoginError(result.message);
		if (result.status === "slow_down") {
			slowDowns++;
			interval =
				result.intervalSeconds && result.intervalSeconds > 0
					? Math.max(minInterval, result.intervalSeconds * second)
					: interval + 5 * second;
		}
		const left = deadline - now();
		if (left <= 0) break;
		await cancellableSleep(Math.min(interval, left), options.signal);
	}
	throw new LoginError(
		slowDowns > 0
			? "The device code expired; the server asked to slow down, which often means the clock of this machine is off."
			: "The device code expired before the login was approved; start again.",
	);
}
