// Starts throwaway PostgreSQL and Redis servers on random loopback ports for one
// test file, and stops them (even when a test failed). Either can be stopped
// and started again on the same port with its data (Redis keeps an append-only
// file synced on every write), or Redis started again without its data, as a
// server without persistence comes back. PostgreSQL runs as the
// `postgres` user when the tests run as root (initdb refuses root). When a
// binary is missing, `missingServices()` says which, for describe.skipIf.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function postgresBin(): string | undefined {
	const root = "/usr/lib/postgresql";
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
	for (const v of versions) if (existsSync(join(root, v, "bin", "initdb"))) return join(root, v, "bin");
	return undefined;
}

function redisBin(): string | undefined {
	try {
		return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim() || undefined;
	} catch {
		return undefined;
	}
}

/** Why the fleet tests cannot run here, or undefined when they can. */
export function missingServices(): string | undefined {
	const missing: string[] = [];
	if (!redisBin()) missing.push("redis-server (apt-get install redis-server)");
	if (!postgresBin()) missing.push("PostgreSQL's initdb under /usr/lib/postgresql/*/bin (apt-get install postgresql)");
	return missing.length ? `fleet tests skipped: missing ${missing.join(" and ")}` : undefined;
}

export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

export interface Services {
	databaseUrl: string;
	redisUrl: string;
	root: string;
	/** Stops Redis (SIGKILL, to test it being down); `startRedis` starts it again on the same port, with its data unless `empty`. */
	stopRedis(): Promise<void>;
	startRedis(options?: { empty?: boolean }): Promise<void>;
	/** Stops PostgreSQL at once (`pg_ctl -m immediate`: connections cut, as a crash) and starts it again with its data. */
	stopPostgres(): void;
	startPostgres(): void;
	stop(): Promise<void>;
}

const isRoot = process.getuid?.() === 0;

function asPostgres(bin: string, args: string[]): void {
	const cmd = isRoot ? "runuser" : bin;
	const argv = isRoot ? ["-u", "postgres", "--", bin, ...args] : args;
	execFileSync(cmd, argv, { stdio: "pipe", timeout: 60_000 });
}

/**
 * Waits until the Redis server `child` answers PING on `port`. Something else may hold the port
 * (a free port is only free when it was picked): then this child exits at once, and that is
 * reported as `PortTaken` instead of taking whatever listens there for this server.
 */
class PortTaken extends Error {}

async function waitForRedis(child: ChildProcess, port: number, ms: number): Promise<void> {
	const { connect } = await import("node:net");
	const exited = () => child.exitCode !== null || child.signalCode !== null;
	const until = Date.now() + ms;
	for (;;) {
		if (exited()) throw new PortTaken(`redis-server exited at start (port ${port} taken?)`);
		const ok = await new Promise<boolean>((resolve) => {
			const s = connect(port, "127.0.0.1");
			let reply = "";
			s.setEncoding("latin1");
			s.once("connect", () => s.write("PING\r\n"));
			s.on("data", (d: string) => {
				reply += d;
				if (reply.includes("\r\n")) {
					s.destroy();
					resolve(reply.startsWith("+PONG"));
				}
			});
			s.once("error", () => resolve(false));
			s.once("close", () => resolve(false));
		});
		// An answer from another server on the port is not ours: only trust it while our child lives.
		if (ok && !exited()) return;
		if (Date.now() > until) throw new Error(`redis-server does not answer PING on 127.0.0.1:${port} after ${ms} ms`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

/** `fsync`: PostgreSQL syncs its WAL (benchmarks); tests run without it, as a throwaway server may. */
export async function startServices(options: { fsync?: boolean } = {}): Promise<Services> {
	const pgBin = postgresBin();
	const redis = redisBin();
	if (!pgBin || !redis) throw new Error(missingServices());
	const root = mkdtempSync(join(tmpdir(), "pi-fleet-services-"));
	chmodSync(root, 0o755);
	const data = join(root, "pg");
	const sockets = join(root, "sock");
	mkdirSync(data);
	mkdirSync(sockets);
	if (isRoot) {
		const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
		const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
		chownSync(data, uid, gid);
		chownSync(sockets, uid, gid);
	}
	// Ports are picked just before each server's first start, and picked again when that start
	// finds its port taken (by another test file's server or an outgoing connection meanwhile).
	let pgPort = 0;
	let pgStarted = false;
	let redisChild: ChildProcess | undefined;
	let redisPort = 0;

	const stopPg = () => {
		if (!pgStarted) return;
		pgStarted = false;
		try {
			asPostgres(join(pgBin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
		} catch {
			// already gone
		}
	};
	const startPg = () => {
		asPostgres(join(pgBin, "pg_ctl"), [
			"-D",
			data,
			"-l",
			join(data, "log"),
			"-o",
			`-p ${pgPort} -k ${sockets} -c listen_addresses=127.0.0.1 -c fsync=${options.fsync ? "on" : "off"} -c max_connections=200`,
			"-w",
			"start",
		]);
		pgStarted = true;
	};
	const redisDir = join(root, "redis");
	mkdirSync(redisDir);
	const startRedis = async ({ empty = false } = {}) => {
		if (empty) rmSync(redisDir, { recursive: true, force: true });
		mkdirSync(redisDir, { recursive: true });
		redisChild = spawn(
			redis,
			[
				"--port",
				String(redisPort),
				"--bind",
				"127.0.0.1",
				"--save",
				"",
				"--appendonly",
				"yes",
				"--appendfsync",
				"always",
				"--dir",
				redisDir,
			],
			{ stdio: "ignore" },
		);
		await waitForRedis(redisChild, redisPort, 10_000);
	};
	const stopRedis = async () => {
		const child = redisChild;
		redisChild = undefined;
		if (!child || child.exitCode !== null) return;
		const exited = new Promise((r) => child.once("exit", r));
		child.kill("SIGKILL");
		await exited;
	};
	const stop = async () => {
		await stopRedis();
		stopPg();
		rmSync(root, { recursive: true, force: true });
	};
	try {
		asPostgres(join(pgBin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
		for (let attempt = 1; ; attempt++) {
			pgPort = await freePort();
			try {
				startPg();
				break;
			} catch (e) {
				// pg_ctl -w start fails when the server cannot bind its port.
				if (attempt === 3) throw e;
			}
		}
		for (let attempt = 1; ; attempt++) {
			redisPort = await freePort();
			try {
				await startRedis();
				break;
			} catch (e) {
				if (!(e instanceof PortTaken) || attempt === 3) throw e;
			}
		}
	} catch (e) {
		await stop();
		throw e;
	}
	return {
		databaseUrl: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
		redisUrl: `redis://127.0.0.1:${redisPort}`,
		root,
		stopRedis,
		startRedis,
		stopPostgres: stopPg,
		startPostgres: startPg,
		stop,
	};
}
