// Tool names and exposure: `mcp__<server>__<tool>` with every character
// other than letters, digits and `_` replaced by `_`; when two tools of one
// server collide after that, each of them gets a short hash of its original
// name, so the names stay stable whatever order the server lists them in.
import { createHash } from "node:crypto";
import type { Exposure } from "./config.js";

const sanitize = (s: string) => s.replace(/[^A-Za-z0-9_]/g, "_");

export const namespaceOf = (server: string) => `mcp__${sanitize(server)}`;

/** Server tool name → registered tool name, for one server's whole list. */
export function toolNames(server: string, tools: readonly string[]): Map<string, string> {
	const prefix = `${namespaceOf(server)}__`;
	const counts = new Map<string, number>();
	for (const t of tools) counts.set(sanitize(t), (counts.get(sanitize(t)) ?? 0) + 1);
	const out = new Map<string, string>();
	for (const t of tools) {
		const base = sanitize(t);
		const hash = createHash("sha256").update(t).digest("hex").slice(0, 8);
		out.set(t, (counts.get(base) ?? 0) > 1 ? `${prefix}${base}_${hash}` : `${prefix}${base}`);
	}
	return out;
}

function matches(pattern: string, name: string): boolean {
	if (!pattern.includes("*")) return pattern === name;
	const source = pattern
		.split("*")
		.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
		.join(".*");
	return new RegExp(`^${source}$`).test(name);
}

/** A tool's effective exposure: an exact `toolExposure` key wins, then the first matching pattern, then the server's. */
export function exposureOf(tool: string, server: Exposure, toolExposure: Record<string, Exposure>): Exposure {
	if (Object.hasOwn(toolExposure, tool)) return toolExposure[tool];
	for (const [pattern, exposure] of Object.entries(toolExposure)) {
		if (pattern.includes("*") && matches(pattern, tool)) return exposure;
	}
	return server;
}
