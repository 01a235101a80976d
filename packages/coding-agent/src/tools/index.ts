/** The built-in tools and their factories. */
import type { AgentTool } from "@pi/agent-core";
import { type BashToolOptions, createBashTool } from "./bash.js";
import { createEditTool, type EditToolOptions } from "./edit.js";
import { createFindTool, type FindToolOptions } from "./find.js";
import { createGrepTool, type GrepToolOptions } from "./grep.js";
import { createLsTool, type LsToolOptions } from "./ls.js";
import { createReadTool, type ReadToolOptions } from "./read.js";
import { FileTracker } from "./shared/file-tracker.js";
import { createWriteTool, type WriteToolOptions } from "./write.js";

export * from "./bash.js";
export * from "./edit.js";
export { unifiedDiff } from "./edit-diff.js";
export * from "./find.js";
export * from "./grep.js";
export * from "./ls.js";
export { OutputAccumulator, type OutputSnapshot, sanitizeOutput } from "./output-accumulator.js";
export * from "./read.js";
export type { FindQuery, GrepMatch, GrepQuery } from "./search/types.js";
export { atomicWriteFile } from "./shared/atomic-write.js";
export { withFileMutationQueue } from "./shared/file-mutation-queue.js";
export { FileTracker } from "./shared/file-tracker.js";
export { expandPath, resolveExistingPath, resolveToCwd } from "./shared/paths.js";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	GREP_MAX_LINE_LENGTH,
	type TruncationOptions,
	type TruncationResult,
	truncateHead,
	truncateLine,
	truncateTail,
} from "./shared/truncate.js";
export * from "./write.js";

export type ToolName = "read" | "bash" | "edit" | "write" | "grep" | "find" | "ls";
// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live in one list
export type Tool = AgentTool<any, any>;

export const allToolNames: readonly ToolName[] = ["read", "bash", "edit", "write", "grep", "find", "ls"];
/** Active unless the user chooses otherwise. */
export const defaultToolNames: readonly ToolName[] = ["read", "bash", "edit", "write"];
export const readOnlyToolNames: readonly ToolName[] = ["read", "grep", "find", "ls"];

export interface ToolsOptions {
	read?: ReadToolOptions;
	bash?: BashToolOptions;
	edit?: EditToolOptions;
	write?: WriteToolOptions;
	grep?: GrepToolOptions;
	find?: FindToolOptions;
	ls?: LsToolOptions;
	/** Shared by read/write/edit for change-on-disk detection; one is created per tool set when omitted. */
	tracker?: FileTracker;
}

export const toolFactories: Record<ToolName, (cwd: string, options: ToolsOptions, tracker: FileTracker) => Tool> = {
	read: (cwd, o, tracker) => createReadTool(cwd, { tracker, ...o.read }),
	bash: (cwd, o) => createBashTool(cwd, o.bash),
	edit: (cwd, o, tracker) => createEditTool(cwd, { tracker, ...o.edit }),
	write: (cwd, o, tracker) => createWriteTool(cwd, { tracker, ...o.write }),
	grep: (cwd, o) => createGrepTool(cwd, o.grep),
	find: (cwd, o) => createFindTool(cwd, o.find),
	ls: (cwd, o) => createLsTool(cwd, o.ls),
};

export function createTool(name: ToolName, cwd: string, options: ToolsOptions = {}): Tool {
	return toolFactories[name](cwd, options, options.tracker ?? new FileTracker());
}

export function createTools(names: readonly ToolName[], cwd: string, options: ToolsOptions = {}): Tool[] {
	const tracker = options.tracker ?? new FileTracker();
	return names.map((name) => toolFactories[name](cwd, options, tracker));
}

/** read, bash, edit, write. */
export function createCodingTools(cwd: string, options: ToolsOptions = {}): Tool[] {
	return createTools(defaultToolNames, cwd, options);
}

/** read, grep, find, ls. */
export function createReadOnlyTools(cwd: string, options: ToolsOptions = {}): Tool[] {
	return createTools(readOnlyToolNames, cwd, options);
}

export function createAllTools(cwd: string, options: ToolsOptions = {}): Record<ToolName, Tool> {
	const tracker = options.tracker ?? new FileTracker();
	const out = {} as Record<ToolName, Tool>;
	for (const name of allToolNames) out[name] = toolFactories[name](cwd, options, tracker);
	return out;
}
