// Which files a stretch of conversation read and changed, taken from the
// built-in tools' calls (read: path; write/edit: path). Kept cumulatively:
// each compaction starts from the previous one's lists, so a summary of a
// summary still names every file the session touched.
import type { AgentMessage } from "@pi/agent-core";

export interface FileOperations {
	read: Set<string>;
	written: Set<string>;
	edited: Set<string>;
}

/** What compaction and branch_summary entries store in `details`. */
export interface FileListDetails {
	readFiles: string[];
	modifiedFiles: string[];
}

export function createFileOps(): FileOperations {
	return { read: new Set(), written: new Set(), edited: new Set() };
}

/** Adds the file paths of an assistant message's read/write/edit calls. */
export function extractFileOpsFromMessage(message: AgentMessage, ops: FileOperations): void {
	if (message.role !== "assistant" || !Array.isArray(message.content)) return;
	for (const block of message.content) {
		if (block.type !== "toolCall") continue;
		const args = block.arguments as Record<string, unknown> | undefined;
		const path = typeof args?.path === "string" ? args.path : typeof args?.file_path === "string" ? args.file_path : "";
		if (!path) continue;
		if (block.name === "read") ops.read.add(path);
		else if (block.name === "write") ops.written.add(path);
		else if (block.name === "edit") ops.edited.add(path);
	}
}

/** Seeds operations from earlier details (a previous compaction or branch summary). */
export function addFileListDetails(ops: FileOperations, details: unknown): void {
	if (!details || typeof details !== "object") return;
	const d = details as Partial<FileListDetails>;
	if (Array.isArray(d.readFiles)) for (const f of d.readFiles) if (typeof f === "string") ops.read.add(f);
	if (Array.isArray(d.modifiedFiles)) for (const f of d.modifiedFiles) if (typeof f === "string") ops.edited.add(f);
}

/** readFiles: read but never modified; modifiedFiles: written or edited. Both sorted. */
export function computeFileLists(ops: FileOperations): FileListDetails {
	const modified = new Set([...ops.written, ...ops.edited]);
	const readFiles = [...ops.read].filter((f) => !modified.has(f)).sort();
	return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The tagged blocks appended to a summary ("" when there are no files). */
export function formatFileOperations(readFiles: readonly string[], modifiedFiles: readonly string[]): string {
	const parts: string[] = [];
	if (readFiles.length > 0) parts.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
	if (modifiedFiles.length > 0) parts.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
	return parts.length > 0 ? `\n\n${parts.join("\n\n")}` : "";
}

/** A summary without its file-list blocks (they are re-appended from `details`). */
export function stripFileOperations(summary: string): string {
	return summary.replace(/\n*<(read-files|modified-files)>[\s\S]*?<\/\1>/g, "").trimEnd();
}
