// Between the registry of `pi.registerMcpServer` servers and the extension
// that connects them: once a session is bound, every registration change is
// dispatched as `mcp_servers_change` (servers registered while loading are
// read with `pi.getMcpServers()` at `session_start`). An extension with a
// handler for that event is the one that connects registered servers; when
// there is none (built-in MCP disabled, or replaced by an extension that does
// not handle it), each registration is reported once as an extension error.
import type { ExtensionRunner } from "./runner.js";

export class McpServersWatch {
	/** Servers already reported as connected by nothing. */
	private readonly reported = new Set<string>();

	constructor(private readonly runner: ExtensionRunner) {}

	/** Starts dispatching changes (the bridge calls it when it binds the runner to a session). */
	start(): void {
		const { runtime } = this.runner;
		runtime.mcpServers.setChangeListener(() => {
			void this.runner.emit({ type: "mcp_servers_change", servers: runtime.mcpServers.list() });
			this.reportUnhandled();
		});
	}

	/** Reports registrations no extension connects (after session_start, and after each change). */
	reportUnhandled(): void {
		if (this.runner.hasHandlers("mcp_servers_change")) return;
		for (const server of this.runner.runtime.mcpServers.list()) {
			if (this.reported.has(server.name)) continue;
			this.reported.add(server.name);
			this.runner.emitError({
				extensionPath: server.extensionPath,
				event: "register_mcp_server",
				error: `MCP server "${server.name}" is registered, but no loaded extension connects MCP servers (the built-in MCP support is disabled, or an extension replaced it without handling mcp_servers_change)`,
			});
		}
	}
}
