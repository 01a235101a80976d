import { promises as fs } from "node:fs";
import type { AgentTool } from "@pi/agent-core";
import { type Static, Type } from "typebox";
import { unifiedDiff } from "./edit-diff.js";
import { EditMatchError, type EditSpec, type MatchedEdit, matchEdit } from "./edit-match.js";
import { atomicWriteFile, writeRawPathInPlace } from "./shared/atomic-write.js";
import { readRegularFile } from "./shared/bounded-read.js";
import { withFileMutationQueue } from "./shared/file-mutation-queue.js";
import type { FileTracker } from "./shared/file-tracker.js";
import { describeFsError } from "./shared/fs-errors.js";
import { onDisk, rawPathFor, resolveExistingPath } from "./shared/paths.js";

const editSchema = Type.Object({
	path: Type.String({ description: "Path to the file to edit (relative to the working directory, or absolute)" }),
	edits: Type.Array(
		Type.Object(
			{
				oldText: Type.String({
					description: "Exact text to replace; must occur exactly once in the original file",
				}),
				newText: Type.String({ description: "Replacement text" }),
			},
			{ additionalProperties: false },
		),
		{ minItems: 1, description: "One or more replacements, all matched against the original file" },
	),
});

export type EditToolInput = Static<typeof editSchema>;

export interface EditToolDetails {
	/** Unified diff of the change. */
	diff: string;
	/** First changed line in the new file (1-indexed). */
	firstChangedLine?: number;
}

/** How edit touches the file system; replace to edit over ssh, in a container, etc. */
export interface EditOperations {
	/** The local default refuses non-regular files (devices, FIFOs) and files above 256MB. */
	readFile(absolutePath: string): Promise<Buffer>;
	/** Replace the file's content (the local default: see shared/atomic-write.ts for what each kind of file gets). */
	writeFile(absolutePath: string, content: string, signal?: AbortSignal): Promise<void>;
	/** Throws when the file is not readable and writable. */
	access(absolutePath: string): Promise<void>;
}

export interface EditToolOptions {
	operations?: EditOperations;
	/** Shared with read/write: refuses edits to files changed on disk since the model last saw them. */
	tracker?: FileTracker;
}

export function createLocalEditOperations(): EditOperations {
	return {
		// onDisk/rawPathFor: a name shown with U+FFFD (not valid UTF-8 on disk) edits the file it came from.
		readFile: (p) => readRegularFile(onDisk(p)),
		writeFile: (p, content, signal) => {
			const raw = rawPathFor(p);
			return raw ? writeRawPathInPlace(raw, content) : atomicWriteFile(p, content, { signal });
		},
		access: (p) => fs.access(onDisk(p), fs.constants.R_OK | fs.constants.W_OK),
	};
}

/** Accepts the legacy single-edit shape and `edits` sent as a JSON string. */
export function prepareEditArguments(args: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = { ...args };
	if (typeof out.edits === "string") {
		try {
			out.edits = JSON.parse(out.edits);
		} catch {
			// Leave it: validation reports the bad shape.
		}
	}
	if (typeof out.oldText === "string" && typeof out.newText === "string") {
		const list = Array.isArray(out.edits) ? [...out.edits] : [];
		list.push({ oldText: out.oldText, newText: out.newText });
		out.edits = list;
		delete out.oldText;
		delete out.newText;
	}
	return out;
}

const BOM = "\uFEFF";

/** Applies all edits to the original text, or throws without side effects. */
export function applyEdits(
	original: string,
	edits: EditSpec[],
	path: string,
): { content: string; matches: MatchedEdit[] } {
	let normalized: ReturnType<typeof matchEdit>["normalized"];
	const matches: MatchedEdit[] = [];
	edits.forEach((edit, i) => {
		const r = matchEdit(original, normalized, edit, i, edits.length, path);
		normalized = r.normalized;
		matches.push(r.match);
	});
	const ordered = [...matches].sort((a, b) => a.start - b.start);
	for (let k = 1; k < ordered.length; k++) {
		if (ordered[k].start < ordered[k - 1].end) {
			const [i, j] = [ordered[k - 1].index, ordered[k].index].sort((x, y) => x - y);
			throw new EditMatchError(
				`edits[${i}] and edits[${j}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
			);
		}
	}
	let content = original;
	for (let k = ordered.length - 1; k >= 0; k--) {
		const m = ordered[k];
		content = content.slice(0, m.start) + m.replacement + content.slice(m.end);
	}
	if (content === original) {
		throw new EditMatchError(`No changes made to ${path}. The replacement text is identical to the text it replaces.`);
	}
	return { content, matches };
}

function toleranceNote(matches: MatchedEdit[], total: number): string {
	const notes: string[] = [];
	for (const m of matches) {
		const who = total === 1 ? "The edit" : `edits[${m.index}]`;
		if (m.tolerance === "line-endings") {
			notes.push(
				`${who} matched after adapting line endings to the file's; newText was written with the same line endings.`,
			);
		} else if (m.tolerance === "normalized") {
			notes.push(
				`${who} matched only after ignoring differences in trailing whitespace, line endings, or quote/dash/space characters; only the matched text was replaced.`,
			);
		}
	}
	return notes.length > 0 ? `\n${notes.join("\n")}` : "";
}

export function createEditTool(
	cwd: string,
	options: EditToolOptions = {},
): AgentTool<typeof editSchema, EditToolDetails | undefined> {
	const ops = options.operations ?? createLocalEditOperations();
	return {
		name: "edit",
		label: "edit",
		description:
			"Edit a file by exact text replacement. Each edits[i].oldText must appear exactly once in the current file (include enough surrounding lines to make it unique) and is replaced by newText; all edits are matched against the original file and applied together, or none is. Use several edits for separate regions of one file; never overlapping ones.",
		parameters: editSchema,
		prepareArguments: prepareEditArguments,
		async execute(_id, { path, edits }, signal) {
			signal?.throwIfAborted();
			const abs = resolveExistingPath(path, cwd);
			return withFileMutationQueue(abs, async () => {
				let raw: Buffer;
				try {
					await ops.access(abs);
					raw = await ops.readFile(abs);
				} catch (error) {
					throw new Error(describeFsError(error, path, "edit"));
				}
				signal?.throwIfAborted();
				const decoded = raw.toString("utf8");
				if (!Buffer.from(decoded, "utf8").equals(raw)) {
					throw new Error(
						`Cannot edit ${path}: it is not valid UTF-8 text, and editing it as text could corrupt it. Use bash for binary or other encodings.`,
					);
				}
				if (options.tracker?.changedSince(abs, raw)) {
					throw new Error(
						`${path} has changed on disk since it was last read. Read it again before editing, so the edit is based on its current content.`,
					);
				}
				const bom = decoded.startsWith(BOM) ? BOM : "";
				const original = decoded.slice(bom.length);
				let result: ReturnType<typeof applyEdits>;
				try {
					result = applyEdits(original, edits, path);
				} catch (error) {
					if (error instanceof EditMatchError) throw new Error(error.message);
					throw error;
				}
				const output = bom + result.content;
				try {
					await ops.writeFile(abs, output, signal);
				} catch (error) {
					if (signal?.aborted) throw error;
					throw new Error(describeFsError(error, path, "edit"));
				}
				options.tracker?.record(abs, Buffer.from(output, "utf8"), Date.now());
				const { diff, firstChangedLine } = unifiedDiff(path, original, result.content);
				const n = edits.length;
				return {
					content: [
						{
							type: "text",
							text: `Successfully replaced ${n} block(s) in ${path}.${toleranceNote(result.matches, n)}`,
						},
					],
					details: { diff, firstChangedLine },
				};
			});
		},
	};
}
