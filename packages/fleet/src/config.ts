// Where the fleet's servers are: PI_FLEET_REDIS_URL / PI_FLEET_DATABASE_URL,
// else `fleet.redisUrl` / `fleet.databaseUrl` in the user's settings.json.
// Every message that names a server shows its URL with the password redacted.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getAgentDir } from "@pi/coding-agent";

export interface FleetConfig {
	redisUrl: string;
	databaseUrl: string;
	/** BullMQ queue name (PI_FLEET_QUEUE, default "pi-fleet"). */
	queue: string;
}

export class FleetConfigError extends Error {
	override name = "FleetConfigError";
}

function settingsFleet(env: NodeJS.ProcessEnv): Record<string, unknown> {
	const file = join(getAgentDir(env), "settings.json");
	if (!existsSync(file)) return {};
	try {
		const parsed = JSON.parse(readFileSync(file, "utf8")) as { fleet?: unknown };
		return parsed.fleet && typeof parsed.fleet === "object" ? (parsed.fleet as Record<string, unknown>) : {};
	} catch (e) {
		throw new FleetConfigError(`Cannot read ${file}: ${(e as Error).message}`);
	}
}

export function loadFleetConfig(env: NodeJS.ProcessEnv = process.env): FleetConfig {
	const settings = settingsFleet(env);
	const pick = (envName: string, key: string): string => {
		const value = env[envName] || (typeof settings[key] === "string" ? (settings[key] as string) : "");
		if (!value) {
			throw new FleetConfigError(
				`No ${key === "redisUrl" ? "Redis" : "PostgreSQL"} URL: set ${envName} or "fleet": { "${key}": … } in ${join(getAgentDir(env), "settings.json")}`,
			);
		}
		return value;
	};
	return {
		redisUrl: pick("PI_FLEET_REDIS_URL", "redisUrl"),
		databaseUrl: pick("PI_FLEET_DATABASE_URL", "databaseUrl"),
		queue: env.PI_FLEET_QUEUE || "pi-fleet",
	};
}

/** The URL with any password replaced by "***" (for messages and logs). */
export function redactUrl(url: string): string {
	try {
		const u = new URL(url);
		if (u.password) u.password = "***";
		return u.toString();
	} catch {
		return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
	}
}

/** A server could not be reached or refused us; names which one and where. */
export class FleetServiceError extends Error {
	override name = "FleetServiceError";
	constructor(
		readonly service: "Redis" | "PostgreSQL",
		url: string,
		cause: unknown,
	) {
		const code = (cause as NodeJS.ErrnoException)?.code;
		super(
			`${service} at ${redactUrl(url)} is not reachable: ${code ? `${code} ` : ""}${(cause as Error)?.message ?? cause}`,
		);
	}
}
