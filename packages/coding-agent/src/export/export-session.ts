// Export entry points shared by the CLI, the interactive /export and RPC
// export_html: pick the output name, read the session (from its file when it
// has one, else from memory), render, write atomically.
import { basename, resolve } from "node:path";
import { redact as redactSecrets } from "@pi/ai";
import type { SessionManager } from "../session/session-manager.js";
import type { SessionLoadWarning } from "../session/types.js";
import { type ExportSource, type Redactor, renderSessionHtml } from "./render.js";
import { openSessionSource, SessionExportError } from "./source.js";
import { writeFileAtomically } from "./write.js";

export interface ExportOptions {
	/** Directory relative output paths resolve against (default: process.cwd()). */
	cwd?: string;
	redact?: Redactor;
	generator?: string;
}

export interface ExportResult {
	path: string;
	entries: number;
	bytes: number;
	warnings: SessionLoadWarning[];
}

/** `pi-session-<session file name>.html`, as the reference names exports. */
export function defaultExportName(sessionFile: string | undefined, sessionId: string): string {
	const stem = sessionFile ? basename(sessionFile).replace(/\.jsonl$/, "") : sessionId;
	return `pi-session-${stem}.html`;
}

function renderTo(path: string, source: ExportSource, options: ExportOptions): { bytes: number; entries: number } {
	const { bytes, result } = writeFileAtomically(path, (sink) =>
		renderSessionHtml(source, sink, { redact: options.redact, generator: options.generator }),
	);
	return { bytes, entries: result.entries };
}

/** Exports a session file to HTML. `output` defaults to the reference's name in `cwd`. */
export function exportSessionFile(
	input: string,
	output: string | undefined,
	options: ExportOptions & { leafId?: string | null } = {},
): ExportResult {
	const cwd = options.cwd ?? process.cwd();
	const file = resolve(cwd, input);
	const source = openSessionSource(file, options.leafId);
	try {
		const path = resolve(cwd, output ?? defaultExportName(file, source.header.id));
		const { bytes, entries } = renderTo(path, source, options);
		return { path, entries, bytes, warnings: source.warnings };
	} finally {
		source.close();
	}
}

/** Exports the session a SessionManager holds, its current leaf marked active. */
export function exportSessionManager(
	sm: SessionManager,
	output: string | undefined,
	options: ExportOptions = {},
): ExportResult {
	const cwd = options.cwd ?? process.cwd();
	const file = sm.getSessionFile();
	const path = resolve(cwd, output ?? defaultExportName(file, sm.getSessionId()));
	if (file && sm.isPersisted() && sm.isFlushed()) {
		return exportSessionFile(file, path, { ...options, cwd, leafId: sm.getLeafId() });
	}
	const header = sm.getHeader();
	if (!header) throw new SessionExportError("The session has no header to export");
	const { bytes, entries } = renderTo(path, { header, entries: sm.getEntries(), leafId: sm.getLeafId() }, options);
	return { path, entries, bytes, warnings: [] };
}

/** Writes the session as JSONL (header, then every entry in file order), atomically. */
export function exportSessionJsonl(sm: SessionManager, output: string, options: ExportOptions = {}): ExportResult {
	const path = resolve(options.cwd ?? process.cwd(), output);
	const header = sm.getHeader();
	if (!header) throw new SessionExportError("The session has no header to export");
	const redact = options.redact ?? redactSecrets;
	let entries = 0;
	const { bytes } = writeFileAtomically(path, (sink) => {
		sink(`${redact(JSON.stringify(header))}\n`);
		for (const e of sm.getEntries()) {
			sink(`${redact(JSON.stringify(e))}\n`);
			entries++;
		}
	});
	return { path, entries, bytes, warnings: [] };
}
