// BullMQ on Redis: one job per session (job id = session id, so a second add
// of the same session is a no-op). Lock settings decide failover time: a
// worker renews its job lock every lockDuration/2; when it dies, the lock
// expires after at most lockDuration and the next stalled-job check (every
// stalledInterval) moves the job back to wait for another worker.
import { Queue, type QueueOptions } from "bullmq";
import { Redis } from "ioredis";
import { FleetServiceError } from "./config.js";

export interface RunJobData {
	sessionId: string;
}

export interface LockSettings {
	lockDuration: number;
	stalledInterval: number;
	/** Runs attempted per job (errors and stalls both count towards failing it). */
	attempts: number;
	/** Wait before a failed run is tried again. */
	retryDelay: number;
	/** How often a worker re-queues sessions whose job is missing from Redis (reconcile.ts). */
	reconcileInterval: number;
}

/** Defaults: a dead worker's run moves on within lockDuration + stalledInterval (≤ 45 s). Env overrides: PI_FLEET_LOCK_MS, PI_FLEET_STALLED_MS, PI_FLEET_ATTEMPTS, PI_FLEET_RETRY_MS, PI_FLEET_RECONCILE_MS. */
export function lockSettings(env: NodeJS.ProcessEnv = process.env): LockSettings {
	const num = (name: string, fallback: number) => {
		const v = Number(env[name]);
		return Number.isFinite(v) && v > 0 ? v : fallback;
	};
	return {
		lockDuration: num("PI_FLEET_LOCK_MS", 30_000),
		stalledInterval: num("PI_FLEET_STALLED_MS", 15_000),
		attempts: num("PI_FLEET_ATTEMPTS", 3),
		retryDelay: num("PI_FLEET_RETRY_MS", 5_000),
		reconcileInterval: num("PI_FLEET_RECONCILE_MS", 30_000),
	};
}

export function redisConnection(url: string): QueueOptions["connection"] {
	const u = new URL(url);
	return {
		host: u.hostname,
		port: Number(u.port || 6379),
		...(u.username ? { username: decodeURIComponent(u.username) } : {}),
		...(u.password ? { password: decodeURIComponent(u.password) } : {}),
		db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
		maxRetriesPerRequest: null,
		// BullMQ's own reconnect waits grow to 20 s; a fleet wants its queue back soon after Redis is.
		retryStrategy: (times: number) => Math.min(250 * times, 2000),
	};
}

/** Fails fast, naming Redis and the redacted URL, when Redis cannot be reached. */
export async function checkRedis(url: string): Promise<void> {
	const client = new Redis(url, {
		lazyConnect: true,
		maxRetriesPerRequest: 0,
		enableOfflineQueue: false,
		connectTimeout: 3000,
		retryStrategy: () => null,
	});
	let cause: unknown;
	client.on("error", (e) => {
		cause ??= e;
	});
	try {
		await client.connect();
		await client.ping();
	} catch (e) {
		// ioredis rejects with "Connection is closed"; the socket's own error (ECONNREFUSED …) says more.
		throw new FleetServiceError("Redis", url, cause ?? e);
	} finally {
		client.disconnect();
	}
}

/**
 * Adds the job of a session's run (job id = session id: adding it again while it exists,
 * in any state, does nothing, so submit, a repeated submit and reconcile never make two).
 */
export async function enqueueRun(queue: Queue<RunJobData>, sessionId: string, settings: LockSettings): Promise<void> {
	await queue.add(
		"run",
		{ sessionId },
		{
			jobId: sessionId,
			attempts: settings.attempts,
			backoff: { type: "fixed", delay: settings.retryDelay },
			removeOnComplete: { age: 7 * 24 * 3600 },
			removeOnFail: { age: 30 * 24 * 3600 },
		},
	);
}

export function openQueue(url: string, name: string): Queue<RunJobData> {
	const queue = new Queue<RunJobData>(name, { connection: redisConnection(url) });
	queue.on("error", () => {});
	return queue;
}
