// `/mcp` in the interactive app: the servers (those that need attention
// first) in a live selector (live-list.ts); a chosen server offers its tools and connection
// details, reconnect, sign in / sign out (HTTP), exposure and enable /
// disable. Exposure and enabled changes are saved to the file that defines
// the server (extension-registered servers: this session only); in a trusted
// project a user-level server can also be enabled or disabled for this
// project alone — an override entry in .pi/mcp.json, which then receives the
// server's later changes. Everything goes through `ctx.ui` dialogs, so it is
// plain public extension API.
import type { ExtensionCommandContext } from "../../extensions/types.js";
import { EXPOSURES, type Exposure, projectConfigPath } from "./config.js";
import { saveServerSettings } from "./config-edit.js";
import { pickServerLive } from "./live-list.js";
import type { McpManager, ServerEntry } from "./manager.js";
import { formatStatus, statusLine } from "./status.js";

export interface MenuDeps {
	manager: McpManager | undefined;
	configErrors: readonly string[];
	/** Extension registrations an mcp.json server of the same name overrides. */
	overridden: readonly string[];
	login(entry: ServerEntry): Promise<void>;
	logout(entry: ServerEntry): Promise<void>;
	/** Subscribes to server changes (state, tools); returns the unsubscribe function. */
	onChange(listener: () => void): () => void;
}

const BACK = "← Back";
const DISABLE_IN_PROJECT = "Disable in this project";
const ENABLE_IN_PROJECT = "Enable in this project";

export async function showMcpMenu(ctx: ExtensionCommandContext, deps: MenuDeps): Promise<void> {
	const m = deps.manager;
	if (deps.configErrors.length > 0) ctx.ui.notify(formatStatus([], deps.configErrors), "warning");
	if (deps.overridden.length > 0) ctx.ui.notify(formatStatus([], [], false, deps.overridden), "info");
	if (!m || m.servers.size === 0) {
		if (deps.configErrors.length === 0) ctx.ui.notify(formatStatus([], []), "info");
		return;
	}
	for (;;) {
		// The list follows the servers while it is open (connecting, failed, reconnecting, tools).
		const name = await pickServerLive(ctx, { manager: m, onChange: deps.onChange });
		const entry = name === undefined ? undefined : m.servers.get(name);
		if (!entry) return;
		await serverMenu(ctx, m, entry, deps);
	}
}

async function serverMenu(ctx: ExtensionCommandContext, m: McpManager, entry: ServerEntry, deps: MenuDeps) {
	for (;;) {
		const c = entry.configured;
		const enabled = c.config.enabled;
		const actions: string[] = ["Tools and details"];
		if (enabled) actions.push("Reconnect");
		if (c.config.type === "http") actions.push("Sign in", "Sign out");
		actions.push(`Exposure: ${c.config.exposure}`);
		// A project override's enabled state is this project's; a user-level server offers both.
		if (!c.projectOverride) actions.push(enabled ? "Disable" : "Enable");
		if ((c.source === "user" || c.projectOverride) && ctx.isProjectTrusted())
			actions.push(enabled ? DISABLE_IN_PROJECT : ENABLE_IN_PROJECT);
		actions.push(BACK);
		const action = await ctx.ui.select(`MCP server "${entry.name}" — ${statusLine(entry)}`, actions);
		if (action === undefined || action === BACK) return;
		try {
			if (action === "Tools and details") {
				await m.waitFor([entry.name]);
				ctx.ui.notify(details(entry), "info");
			} else if (action === "Reconnect") {
				await m.reconnect(entry.name);
				ctx.ui.notify(formatStatus([entry], []), entry.state === "connected" ? "info" : "error");
			} else if (action === "Sign in") {
				await deps.login(entry);
			} else if (action === "Sign out") {
				await deps.logout(entry);
			} else if (action.startsWith("Exposure:")) {
				const choice = await ctx.ui.select(
					`Exposure of "${entry.name}"`,
					EXPOSURES.map((x) => (x === c.config.exposure ? `${x} (current)` : x)),
				);
				if (choice === undefined) continue;
				const exposure = choice.replace(/ \(current\)$/, "") as Exposure;
				if (exposure === c.config.exposure) continue;
				c.config.exposure = exposure;
				persist(ctx, entry, { exposure });
				m.reexpose(entry);
				ctx.ui.notify(`MCP server "${entry.name}": exposure ${exposure}${savedWhere(entry)}`, "info");
			} else if (action === DISABLE_IN_PROJECT || action === ENABLE_IN_PROJECT) {
				const on = action === ENABLE_IN_PROJECT;
				const file = projectConfigPath(ctx.cwd);
				saveServerSettings(file, entry.name, { enabled: on });
				// From now on the project's override entry is where this server's changes go.
				entry.configured = { ...c, source: "project", file, projectOverride: true };
				if (on) await m.enable(entry);
				else await m.disable(entry);
				ctx.ui.notify(
					`MCP server "${entry.name}" ${on ? "enabled" : "disabled"} in this project (saved to ${file})`,
					"info",
				);
			} else if (action === "Disable") {
				await m.disable(entry);
				persist(ctx, entry, { enabled: false });
				ctx.ui.notify(`MCP server "${entry.name}" disabled${savedWhere(entry)}`, "info");
			} else if (action === "Enable") {
				persist(ctx, entry, { enabled: true });
				await m.enable(entry);
				ctx.ui.notify(formatStatus([entry], []), entry.state === "connected" ? "info" : "error");
			}
		} catch (error) {
			ctx.ui.notify(`MCP ${action} for "${entry.name}" failed: ${(error as Error).message}`, "error");
		}
	}
}

function persist(ctx: ExtensionCommandContext, entry: ServerEntry, patch: Parameters<typeof saveServerSettings>[2]) {
	if (entry.configured.source === "extension") return;
	try {
		saveServerSettings(entry.configured.file, entry.name, patch);
	} catch (error) {
		ctx.ui.notify(`Could not save the change to ${entry.configured.file}: ${(error as Error).message}`, "error");
	}
}

const savedWhere = (entry: ServerEntry) =>
	entry.configured.source === "extension" ? " for this session" : ` (saved to ${entry.configured.file})`;

/** Connection details and every tool with its effective exposure. */
function details(entry: ServerEntry): string {
	const c = entry.configured.config;
	const lines = [formatStatus([entry], [], true)];
	lines.push(c.type === "stdio" ? `    command: ${[c.command, ...c.args].join(" ")}` : `    url: ${c.url}`);
	if (entry.instructions) lines.push(`    instructions: ${entry.instructions.split("\n")[0]}`);
	return lines.join("\n");
}
