// Saving a change made in `/mcp` (enabled, exposure) to the mcp.json file
// that defines the server, keeping every other key of the file and of the
// entry. The file is replaced atomically and stays private (0600): entries
// may hold header values and environment.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Exposure } from "./config.js";

export interface ServerSettingsPatch {
	enabled?: boolean;
	exposure?: Exposure;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Applies `patch` to `mcpServers[name]` of `file` (an override entry is created when the name is missing). */
export function saveServerSettings(file: string, name: string, patch: ServerSettingsPatch): void {
	const doc: unknown = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
	if (!isRecord(doc)) throw new Error(`${file} must hold a JSON object`);
	const servers = doc.mcpServers ?? {};
	if (!isRecord(servers)) throw new Error(`${file}: "mcpServers" must be an object`);
	const entry = servers[name] ?? {};
	if (!isRecord(entry)) throw new Error(`${file}: server "${name}" must be an object`);
	if (patch.enabled !== undefined) {
		// `enabled: true` is the default: drop the key instead of writing it.
		if (patch.enabled) delete entry.enabled;
		else entry.enabled = false;
	}
	if (patch.exposure !== undefined) entry.exposure = patch.exposure;
	servers[name] = entry;
	doc.mcpServers = servers;
	mkdirSync(dirname(file), { recursive: true });
	const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
	renameSync(tmp, file);
}
