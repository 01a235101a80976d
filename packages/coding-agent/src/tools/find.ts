import { promises as fs } from "node:fs";
import type { AgentTool } from "@pi/agent-core";
import { type Static, Type } from "typebox";
import { findFd, supportsFlag } from "./search/executables.js";
import { fdArgs, findFdRun } from "./search/find-engines.js";
import { findJsOffThread } from "./search/in-worker.js";
import type { FindQuery } from "./search/types.js";
import { listingResult } from "./shared/listing.js";
import { notices } from "./shared/notices.js";
import { onDisk, rawPathFor, resolveToCwd } from "./shared/paths.js";
import { DEFAULT_MAX_BYTES, type TruncationResult } from "./shared/truncate.js";

const findSchema = Type.Object({
	pattern: Type.String({
		description: "Glob for file names, e.g. '*.ts', 'package.json', or a path glob like 'src/**/*.spec.ts'",
	}),
	path: Type.Optional(Type.String({ description: "Directory to search (default: working directory)" })),
	limit: Type.Optional(Type.Number({ description: "Maximum number of results (default: 1000)" })),
});

export type FindToolInput = Static<typeof findSchema>;

export interface FindToolDetails {
	truncation?: TruncationResult;
	resultLimitReached?: number;
}

/** How find touches the file system; replace to search over ssh, in a container, etc. */
export interface FindOperations {
	exists(absolutePath: string): Promise<boolean> | boolean;
	/** All matching paths relative to the root, directories ending in "/", in order. Default: fd when on PATH, else JS. */
	search?(query: FindQuery): Promise<string[]>;
}

export interface FindToolOptions {
	operations?: FindOperations;
	/** "auto" (default): fd when on PATH and able to honour .gitignore here; "js": always the built-in engine. */
	engine?: "auto" | "js" | "fd";
	/** JS engine: a search running longer ends with an error (default 60 s). */
	timeLimitMs?: number;
}

export const DEFAULT_FIND_LIMIT = 1000;

export async function runFind(query: FindQuery, engine: "auto" | "js" | "fd" = "auto"): Promise<string[]> {
	const fd = engine === "js" ? undefined : findFd();
	if (engine === "fd" && !fd) throw new Error("fd is not installed");
	// fd takes its root as a UTF-8 path: a root whose name is not valid UTF-8 goes to the JS engine.
	if (fd && !rawPathFor(query.root)) {
		const args = await fdArgs(query, supportsFlag(fd, "--no-require-git"));
		if (args) return findFdRun(fd, args, query);
		if (engine === "fd") throw new Error("this fd cannot honour .gitignore outside a git repository");
	}
	return findJsOffThread(query);
}

export function createLocalFindOperations(engine: FindToolOptions["engine"] = "auto"): FindOperations {
	return {
		exists: async (p) => {
			try {
				await fs.stat(onDisk(p));
				return true;
			} catch {
				return false;
			}
		},
		search: (q) => runFind(q, engine),
	};
}

export function createFindTool(
	cwd: string,
	options: FindToolOptions = {},
): AgentTool<typeof findSchema, FindToolDetails | undefined> {
	const ops = options.operations ?? createLocalFindOperations(options.engine);
	return {
		name: "find",
		label: "find",
		description: `Find files and directories by glob pattern. A pattern without "/" matches names at any depth ('*.ts'); with "/" it matches paths ('src/**/*.ts'). Returns paths relative to the searched directory, directories ending in "/", in a stable order. Honours .gitignore; hidden files are included. Output stops at ${DEFAULT_FIND_LIMIT} results (change with limit) or ${DEFAULT_MAX_BYTES / 1024}KB.`,
		parameters: findSchema,
		async execute(_id, { pattern, path, limit }, signal) {
			signal?.throwIfAborted();
			const root = resolveToCwd(path || ".", cwd);
			if (!(await ops.exists(root))) throw new Error(`Path not found: ${root}`);
			const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_FIND_LIMIT));
			const query: FindQuery = { root, pattern, signal, timeLimitMs: options.timeLimitMs };
			const all = await (ops.search ? ops.search(query) : runFind(query, options.engine));
			if (all.length === 0) {
				return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };
			}
			const shown = all.slice(0, effectiveLimit);
			return listingResult<FindToolDetails>(shown, {
				countLimit:
					all.length > effectiveLimit
						? { notice: notices.resultLimit(effectiveLimit), details: { resultLimitReached: effectiveLimit } }
						: undefined,
			});
		},
	};
}
