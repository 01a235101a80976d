// builtin:tool-search — the `tool_search` tool as a bundled extension, written
// only against the public extension API. Registered inactive: `--tools
// +tool_search`, `"defaultTools": ["+tool_search"]`, `pi.setActiveTools()` or
// the MCP extension (for servers with deferred tools) turn it on.
// `-builtin:tool-search` in the `extensions` setting leaves it out.
import type { ExtensionContext, ExtensionFactory } from "../../extensions/types.js";
import { LoadedToolsFollower } from "./branch.js";
import { createToolSearchTool } from "./tool.js";

export function createToolSearchExtension(): ExtensionFactory {
	return (pi) => {
		const follower = new LoadedToolsFollower(pi);
		pi.registerTool(createToolSearchTool(pi, (names) => follower.noteLoaded(names)));
		const reconcile = (_event: unknown, ctx: ExtensionContext) => {
			// Only the branch's custom entries: a resumed long session keeps its messages on disk.
			follower.reconcile(ctx.sessionManager.getBranchEntries("custom"));
		};
		pi.on("session_start", reconcile);
		pi.on("session_tree", reconcile);
		// Also before every prompt: covers session switches and tools registered late (MCP).
		pi.on("before_agent_start", reconcile);
	};
}

export default createToolSearchExtension();
