import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { AgentTool } from "@pi/agent-core";
import { type Static, Type } from "typebox";
import { describeFsError } from "./shared/fs-errors.js";
import { listingResult } from "./shared/listing.js";
import { notices } from "./shared/notices.js";
import { resolveToCwd } from "./shared/paths.js";
import type { TruncationResult } from "./shared/truncate.js";

const lsSchema = Type.Object({
	path: Type.Optional(Type.String({ description: "Directory to list (default: working directory)" })),
	limit: Type.Optional(Type.Number({ description: "Maximum number of entries (default: 500)" })),
});

export type LsToolInput = Static<typeof lsSchema>;

export interface LsToolDetails {
	truncation?: TruncationResult;
	entryLimitReached?: number;
}

/** How ls touches the file system; replace to list over ssh, in a container, etc. */
export interface LsOperations {
	exists(absolutePath: string): Promise<boolean> | boolean;
	/** Follows symlinks (a link to a directory is listed as a directory). Throws if missing. */
	stat(absolutePath: string): Promise<{ isDirectory(): boolean }> | { isDirectory(): boolean };
	readdir(absolutePath: string): Promise<string[]> | string[];
}

export interface LsToolOptions {
	operations?: LsOperations;
}

export const DEFAULT_LS_LIMIT = 500;

export function createLocalLsOperations(): LsOperations {
	return {
		exists: async (p) => {
			try {
				await fs.lstat(p);
				return true;
			} catch {
				return false;
			}
		},
		stat: (p) => fs.stat(p),
		readdir: (p) => fs.readdir(p),
	};
}

function compareInsensitive(a: string, b: string): number {
	const la = a.toLowerCase();
	const lb = b.toLowerCase();
	if (la !== lb) return la < lb ? -1 : 1;
	return a < b ? -1 : a > b ? 1 : 0;
}

export function createLsTool(
	cwd: string,
	options: LsToolOptions = {},
): AgentTool<typeof lsSchema, LsToolDetails | undefined> {
	const ops = options.operations ?? createLocalLsOperations();
	return {
		name: "ls",
		label: "ls",
		description: `List a directory's entries, sorted case-insensitively, directories marked with a trailing "/", dotfiles included. Output stops at ${DEFAULT_LS_LIMIT} entries (change with limit) or 50KB.`,
		parameters: lsSchema,
		async execute(_id, { path, limit }, signal) {
			signal?.throwIfAborted();
			const dir = resolveToCwd(path || ".", cwd);
			if (!(await ops.exists(dir))) throw new Error(`Path not found: ${dir}`);
			let isDir: boolean;
			try {
				isDir = (await ops.stat(dir)).isDirectory();
			} catch (error) {
				throw new Error(describeFsError(error, dir, "list"));
			}
			if (!isDir) throw new Error(`Not a directory: ${dir}`);
			let names: string[];
			try {
				names = await ops.readdir(dir);
			} catch (error) {
				throw new Error(describeFsError(error, dir, "list"));
			}
			if (names.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };
			names.sort(compareInsensitive);
			const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LS_LIMIT));
			const shown = names.slice(0, effectiveLimit);
			const entries = await Promise.all(
				shown.map(async (name) => {
					try {
						return (await ops.stat(join(dir, name))).isDirectory() ? `${name}/` : name;
					} catch {
						return name; // Dangling symlink or vanished entry: still worth listing.
					}
				}),
			);
			return listingResult<LsToolDetails>(entries, {
				countLimit:
					names.length > effectiveLimit
						? { notice: notices.entryLimit(effectiveLimit), details: { entryLimitReached: effectiveLimit } }
						: undefined,
			});
		},
	};
}
