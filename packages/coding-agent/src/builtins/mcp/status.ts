// Plain-text status of the servers, for `/mcp` and `pi mcp list`: servers
// that need attention first, then the others, each with its state, tool
// count, exposure and source (a file, or the extension that registered it);
// the error and stderr tail of a failed server; registrations an mcp.json
// server overrides.
import type { ServerEntry } from "./manager.js";

const ORDER: Record<string, number> = {
	failed: 0,
	"needs-auth": 1,
	connecting: 2,
	connected: 3,
	disabled: 4,
	closed: 5,
};

const retrying = (e: ServerEntry) => e.state === "connecting" && e.lastError !== undefined;

/** Servers that need attention first. */
export function statusOrder(entries: ServerEntry[]): ServerEntry[] {
	const rank = (e: ServerEntry) => (retrying(e) ? ORDER.failed : (ORDER[e.state] ?? 9));
	return [...entries].sort((a, b) => rank(a) - rank(b));
}

/** One line: mark, name, state, tool count, exposure, source. */
export function statusLine(e: ServerEntry): string {
	const c = e.configured;
	const mark =
		e.state === "connected" ? "✓" : e.state === "disabled" ? "-" : e.state === "connecting" && !retrying(e) ? "…" : "✗";
	const count = e.state === "connected" ? `, ${e.registered.size} tool${e.registered.size === 1 ? "" : "s"}` : "";
	// A retry after a failure is "reconnecting", so the status never hides that the server failed.
	const state = retrying(e) ? "reconnecting" : e.state;
	return `${mark} ${e.name}: ${state}${count}, exposure ${c.config.exposure}, ${c.source} (${c.file})`;
}

/**
 * The status text. `overridden`: registrations an mcp.json server of the same
 * name overrides, listed after the servers.
 */
export function formatStatus(
	entries: ServerEntry[],
	configErrors: readonly string[],
	verbose = false,
	overridden: readonly string[] = [],
): string {
	const lines: string[] = [];
	for (const e of configErrors) lines.push(`✗ config: ${e}`);
	if (entries.length === 0 && configErrors.length === 0 && overridden.length === 0) {
		return "No MCP servers configured. Add one with `pi mcp add <name> -- <command>` or in ~/.pi/agent/mcp.json.";
	}
	for (const e of statusOrder(entries)) {
		const c = e.configured;
		lines.push(statusLine(e));
		const error = e.error ?? (e.state === "connecting" ? e.lastError : undefined);
		if (error && e.state !== "connected") lines.push(`    error: ${error}`);
		if (e.state === "failed" && e.stderrTail.length > 0) {
			lines.push("    stderr:");
			for (const l of e.stderrTail.slice(-5)) lines.push(`      ${l}`);
		}
		if (verbose && e.state === "connected") {
			for (const [name, r] of e.registered) {
				const differs = r.exposure !== c.config.exposure ? ` (${r.exposure})` : "";
				lines.push(`    ${name}${differs}`);
			}
		}
	}
	for (const o of overridden) lines.push(`- overridden: ${o}`);
	return lines.join("\n");
}
