// The loaded set follows the branch: the tools `tool_search` loaded on the
// current branch are the union of the `tool-search` entries on it. After a
// move in the tree, a resume or a fork, tools this extension loaded that the
// new branch never loaded are taken out of the active set, and the branch's
// loads are put back. Tools activated by other means are left alone.
import type { ExtensionAPI } from "../../extensions/types.js";
import { TOOL_SEARCH_ENTRY_TYPE, type ToolSearchEntryData } from "./tool.js";

interface EntryLike {
	type: string;
	customType?: string;
	data?: unknown;
}

export function loadedOnBranch(branch: readonly EntryLike[]): Set<string> {
	const out = new Set<string>();
	for (const entry of branch) {
		if (entry.type !== "custom" || entry.customType !== TOOL_SEARCH_ENTRY_TYPE) continue;
		const loaded = (entry.data as Partial<ToolSearchEntryData> | undefined)?.loaded;
		if (Array.isArray(loaded)) for (const name of loaded) if (typeof name === "string") out.add(name);
	}
	return out;
}

export class LoadedToolsFollower {
	/** What this extension put into the active set (as of the last reconcile). */
	private applied = new Set<string>();

	constructor(private readonly pi: Pick<ExtensionAPI, "getAllTools" | "getActiveTools" | "setActiveTools">) {}

	/** A `tool_search` call activated these (and recorded them on the current branch). */
	noteLoaded(names: readonly string[]): void {
		for (const name of names) this.applied.add(name);
	}

	/** Brings the active set in line with the branch's loads. */
	reconcile(branch: readonly EntryLike[]): void {
		const wanted = loadedOnBranch(branch);
		const registered = new Map(this.pi.getAllTools().map((t) => [t.name, t.exposure]));
		const active = this.pi.getActiveTools();
		const next = active.filter((name) => !(this.applied.has(name) && !wanted.has(name)));
		for (const name of wanted) {
			const exposure = registered.get(name);
			if (exposure && exposure !== "hidden" && !next.includes(name)) next.push(name);
		}
		// Loads whose tools are not registered yet (an MCP server still connecting) are applied on a later reconcile.
		this.applied = new Set([...wanted].filter((name) => registered.has(name)));
		const changed = next.length !== active.length || next.some((name, i) => active[i] !== name);
		if (changed) this.pi.setActiveTools(next);
	}
}
