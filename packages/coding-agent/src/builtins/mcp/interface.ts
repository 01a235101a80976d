// What builtin:mcp promises other extensions (builtin:codemode,
// builtin:tool-search, or anyone's): the shapes below plus the rules in
// README.md, section "Interface for codemode/tool-search". Import these with
// `import type` only; nothing here runs.
//
// The promise is deliberately made of the public extension API: MCP tools are
// ordinary registered tools (`pi.getAllTools()` finds them with their
// `exposure`, `namespace` and `annotations`), and the only MCP-specific
// pieces are the result details below and two event-bus channels.

/** Tool names MCP registers start with this; the server's namespace is `mcp__<server>`. */
export const MCP_TOOL_PREFIX = "mcp__";

/** The three resource tools (registered once any connected server offers resources). */
export const MCP_RESOURCE_TOOL_NAMES = [
	"list_mcp_resources",
	"list_mcp_resource_templates",
	"read_mcp_resource",
] as const;

/** A content block of an MCP `CallToolResult`, as the server sent it (text, image, audio, resource, resource_link). */
export type McpContentBlock = { type: string; [key: string]: unknown };

/** The MCP `CallToolResult` as the server sent it. */
export interface McpCallToolResult {
	content: McpContentBlock[];
	structuredContent?: Record<string, unknown>;
	isError?: boolean;
	[key: string]: unknown;
}

/**
 * `details` of every result an MCP tool's `execute` returns (also through
 * `ctx.executeTool`). A codemode script's `tools.mcp__s__t(args)` resolves to
 * `details.result` (the complete CallToolResult, `isError` included) rather
 * than to the model-facing `content`, which may be shortened.
 */
export interface McpToolResultDetails {
	kind: "mcp_tool_result";
	/** Server name as configured. */
	server: string;
	/** Tool name as the server knows it (before prefixing and sanitising). */
	tool: string;
	result: McpCallToolResult;
	/** Set when the model-facing text was shortened; the full text is in this file. */
	fullOutputPath?: string;
}

/** `details` of `read_mcp_resource` results: scripts resolve to `{ server, uri, contents }`. */
export interface McpResourceReadDetails {
	kind: "mcp_resource_read";
	server: string;
	uri: string;
	contents: Record<string, unknown>[];
}

export function isMcpToolResultDetails(details: unknown): details is McpToolResultDetails {
	return typeof details === "object" && details !== null && (details as { kind?: unknown }).kind === "mcp_tool_result";
}

/**
 * `pi.events` channels builtin:mcp emits on (payloads below). Listeners must
 * not assume an order between servers.
 */
export const MCP_EVENTS = {
	/** A server's tools were (re)registered or withdrawn: search indexes and codemode listings are stale. */
	toolsChanged: "mcp:tools_changed",
	/** A server changed state (connecting, connected, failed, needs sign-in, disabled). */
	serverState: "mcp:server_state",
} as const;

export type McpServerStateName = "disabled" | "connecting" | "connected" | "failed" | "needs-auth" | "closed";

export interface McpToolsChangedEvent {
	server: string;
	/** Registered (non-hidden) tool names of this server after the change. */
	tools: string[];
}

export interface McpServerStateEvent {
	server: string;
	state: McpServerStateName;
	error?: string;
}
