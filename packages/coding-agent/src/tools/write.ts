import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentTool } from "@pi/agent-core";
import { type Static, Type } from "typebox";
import { atomicWriteFile } from "./shared/atomic-write.js";
import { withFileMutationQueue } from "./shared/file-mutation-queue.js";
import type { FileTracker } from "./shared/file-tracker.js";
import { describeFsError, errorCode } from "./shared/fs-errors.js";
import { resolveToCwd } from "./shared/paths.js";

const writeSchema = Type.Object({
	path: Type.String({ description: "Path to the file to write (relative to the working directory, or absolute)" }),
	content: Type.String({ description: "The complete new content of the file" }),
});

export type WriteToolInput = Static<typeof writeSchema>;

/** How write touches the file system; replace to write over ssh, in a container, etc. */
export interface WriteOperations {
	/** Replace the file's content (the local default: see shared/atomic-write.ts for what each kind of file gets). */
	writeFile(absolutePath: string, content: string, signal?: AbortSignal): Promise<void>;
	/** Create a directory and its parents. */
	mkdir(dir: string): Promise<void>;
}

export interface WriteToolOptions {
	operations?: WriteOperations;
	tracker?: FileTracker;
}

export function createLocalWriteOperations(): WriteOperations {
	return {
		writeFile: (p, content, signal) => atomicWriteFile(p, content, { signal }),
		// Synchronous like the atomic write's own small calls: one mkdir(2), no thread-pool round trip.
		mkdir: async (dir) => {
			mkdirSync(dir, { recursive: true });
		},
	};
}

export function createWriteTool(cwd: string, options: WriteToolOptions = {}): AgentTool<typeof writeSchema, undefined> {
	const ops = options.operations ?? createLocalWriteOperations();
	return {
		name: "write",
		label: "write",
		description:
			"Create or overwrite a file with the given content, creating parent directories as needed. The whole file is replaced atomically. Prefer edit for changing part of an existing file.",
		parameters: writeSchema,
		async execute(_id, { path, content }, signal) {
			signal?.throwIfAborted();
			const abs = resolveToCwd(path, cwd);
			return withFileMutationQueue(abs, async () => {
				signal?.throwIfAborted();
				try {
					await ops.mkdir(dirname(abs));
				} catch (error) {
					const code = errorCode(error);
					if (code === "EEXIST" || code === "ENOTDIR") {
						throw new Error(`Cannot write ${path}: a parent of this path is a file, not a directory`);
					}
					throw new Error(describeFsError(error, path, "write"));
				}
				try {
					await ops.writeFile(abs, content, signal);
				} catch (error) {
					if (signal?.aborted) throw error;
					throw new Error(describeFsError(error, path, "write"));
				}
				const bytes = Buffer.byteLength(content, "utf8");
				options.tracker?.record(abs, Buffer.from(content, "utf8"), Date.now());
				return {
					content: [{ type: "text", text: `Successfully wrote ${bytes} bytes to ${path}` }],
					details: undefined,
				};
			});
		},
	};
}
