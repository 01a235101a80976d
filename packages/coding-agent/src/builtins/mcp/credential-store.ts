// The MCP credential file, `<agentDir>/mcp-auth.json` (0600, written
// atomically), keyed by server name and URL. Several pi processes share it:
// every change is a read-modify-write under a cross-process lock, so one
// process saving tokens for one server never drops what another saved, and a
// file that is not valid JSON is reported, never overwritten.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import lockfile from "proper-lockfile";
import type { ConfiguredServer, HttpServerConfig } from "./config.js";

export interface StoredCredentials {
	tokens?: OAuthTokens;
	clientInformation?: OAuthClientInformationMixed;
	/** The redirect URI the stored client was registered with. */
	redirectUri?: string;
	/**
	 * Scope the server asked for in a 403 `insufficient_scope` (step-up) that
	 * the stored tokens lack: until a sign-in grants it, refreshing is
	 * pointless, so the tokens are offered without their refresh token and
	 * the SDK's auth flow goes to a new authorization (the next sign-in asks
	 * for it, added to the configured scope).
	 */
	requestedScope?: string;
	savedAt?: number;
}

type Store = Record<string, StoredCredentials>;

export const authFilePath = (agentDir: string) => join(agentDir, "mcp-auth.json");
const keyOf = (server: ConfiguredServer) => `${server.name}|${(server.config as HttpServerConfig).url}`;

/** The parsed file; `undefined` when it exists but is not a JSON object. */
function readStore(file: string): Store | undefined {
	if (!existsSync(file)) return {};
	try {
		const doc = JSON.parse(readFileSync(file, "utf8")) as unknown;
		return typeof doc === "object" && doc !== null && !Array.isArray(doc) ? (doc as Store) : undefined;
	} catch {
		return undefined;
	}
}

function writeStore(file: string, store: Store): void {
	const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
	chmodSync(tmp, 0o600);
	renameSync(tmp, file);
}

/** A server's stored credentials; none when the file is missing or unreadable. */
export function storedCredentials(agentDir: string, server: ConfiguredServer): StoredCredentials | undefined {
	return readStore(authFilePath(agentDir))?.[keyOf(server)];
}

/**
 * Changes one server's credentials (`undefined` from `change` deletes them)
 * while holding the file's lock; the other servers' entries are kept as they
 * are on disk at that moment.
 */
export async function updateCredentials(
	agentDir: string,
	server: ConfiguredServer,
	change: (current: StoredCredentials) => StoredCredentials | undefined,
): Promise<void> {
	const file = authFilePath(agentDir);
	mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
	const release = await lockfile.lock(file, {
		realpath: false,
		stale: 10_000,
		retries: { retries: 150, factor: 1.3, minTimeout: 10, maxTimeout: 200, randomize: true },
	});
	try {
		const store = readStore(file);
		if (store === undefined) {
			throw new Error(`${file} is not a JSON object; fix or delete it (MCP credentials were not saved)`);
		}
		const next = change(store[keyOf(server)] ?? {});
		if (next === undefined) delete store[keyOf(server)];
		else store[keyOf(server)] = { ...next, savedAt: Date.now() };
		writeStore(file, store);
	} finally {
		await release().catch(() => {
			// A lock directory removed by someone else is not worth failing the write for.
		});
	}
}
