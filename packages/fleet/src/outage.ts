// A server going away mid-run is not the run's fault. While PostgreSQL is down,
// every step of a run that needs it (copying lines, recording a tool intent,
// the final status) waits and tries again instead of failing the attempt: the
// child's lines stay in the worker's local file and are copied once the server
// is back, and a tool waits for its intent to be stored before it runs. The
// outage is logged once, naming the server and its URL, and its end once.
import { FleetServiceError, redactUrl } from "./config.js";

const CONNECTION_CODES = new Set([
	"ECONNREFUSED",
	"ECONNRESET",
	"ECONNABORTED",
	"EPIPE",
	"ETIMEDOUT",
	"EHOSTUNREACH",
	"ENETUNREACH",
	"ENOTFOUND",
	"EAI_AGAIN",
	// PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now
	"57P01",
	"57P02",
	"57P03",
]);

/**
 * Whether `e` says the server could not be reached (or went away), as opposed to
 * refusing what we asked. pg reports a dropped connection without a code, so
 * those few messages of its own are matched.
 */
export function isUnreachable(e: unknown): boolean {
	if (e instanceof FleetServiceError) return true;
	const err = e as { code?: unknown; message?: unknown } | undefined;
	const code = typeof err?.code === "string" ? err.code : "";
	// SQLSTATE class 08: connection exception.
	if (CONNECTION_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
	const message = typeof err?.message === "string" ? err.message : "";
	return (
		message.startsWith("Connection terminated") ||
		message === "Client has encountered a connection error and is not queryable" ||
		message.startsWith("timeout exceeded when trying to connect") ||
		message === "Connection is closed."
	);
}

export class Outage {
	private downSince: number | undefined;
	private lastReminder = 0;

	constructor(
		readonly service: "Redis" | "PostgreSQL",
		private readonly url: string,
		private readonly log: (message: string) => void,
		/** Longest wait between two tries while the server is down. */
		private readonly maxDelayMs = 2000,
	) {}

	get isDown(): boolean {
		return this.downSince !== undefined;
	}

	/** Records a failure to reach the server; logs the first of an outage, and a reminder each minute. */
	down(cause: unknown, what: string): void {
		const now = Date.now();
		if (this.downSince === undefined) {
			this.downSince = now;
			this.lastReminder = now;
			const err = cause instanceof FleetServiceError ? cause : new FleetServiceError(this.service, this.url, cause);
			this.log(`${err.message} — ${what} waits for it and goes on when it is back`);
		} else if (now - this.lastReminder >= 60_000) {
			this.lastReminder = now;
			this.log(
				`${this.service} at ${redactUrl(this.url)} still not reachable after ${Math.round((now - this.downSince) / 1000)} s`,
			);
		}
	}

	/** Records that the server answered; logs the end of an outage. */
	up(): void {
		if (this.downSince === undefined) return;
		const seconds = ((Date.now() - this.downSince) / 1000).toFixed(1);
		this.downSince = undefined;
		this.log(`${this.service} at ${redactUrl(this.url)} is reachable again (down ${seconds} s)`);
	}

	/**
	 * Runs `fn`, trying again while the server cannot be reached; any other error is thrown,
	 * and so is the outage itself once `wanted()` says the result is no longer needed.
	 */
	async retry<T>(what: string, fn: () => Promise<T>, wanted: () => boolean = () => true): Promise<T> {
		let delay = 200;
		for (;;) {
			try {
				const out = await fn();
				this.up();
				return out;
			} catch (e) {
				if (!isUnreachable(e) || !wanted()) throw e;
				this.down(e, what);
				await new Promise((r) => setTimeout(r, delay));
				delay = Math.min(delay * 2, this.maxDelayMs);
			}
		}
	}
}
