// What the resource loaders report besides their items: one record per
// problem (or, for --verbose, per note), naming the file and, where known,
// the line and the frontmatter/JSON field. Loaders never throw for bad input;
// they skip the item and say why here.

export type ResourceKind = "skill" | "prompt" | "theme" | "context" | "system-prompt";

export interface ResourceDiagnostic {
	/** `info` lines are shown only with --verbose. */
	type: "warning" | "error" | "collision" | "info";
	kind: ResourceKind;
	message: string;
	/** The file (or directory) concerned. */
	path?: string;
	/** 1-based line in `path`. */
	line?: number;
	/** Frontmatter key or JSON field, e.g. `description` or `colors.accent`. */
	field?: string;
	/** For collisions: the item kept and the one skipped. */
	collision?: { name: string; winnerPath: string; loserPath: string };
}

/** `path:line: field: message` with the parts that are known. */
export function formatDiagnostic(d: ResourceDiagnostic): string {
	const where = d.path ? `${d.path}${d.line !== undefined ? `:${d.line}` : ""}: ` : "";
	const field = d.field ? `${d.field}: ` : "";
	return `${where}${field}${d.message}`;
}

/** A start-up line for one diagnostic, e.g. `Warning (skill): /x/SKILL.md:3: name: …`. */
export function formatDiagnosticLine(d: ResourceDiagnostic): string {
	const label = d.type === "error" ? "Error" : d.type === "info" ? "Note" : "Warning";
	return `${label} (${d.kind}): ${formatDiagnostic(d)}`;
}

/** Where a resource came from, for collisions and the --verbose listing. */
export type ResourceSourceKind = "cli" | "project" | "user" | "package" | "extension";

export interface ResourceOrigin {
	source: ResourceSourceKind;
	/** Package root, or the extension that contributed the path. */
	owner?: string;
}

export function describeOrigin(origin: ResourceOrigin): string {
	return origin.owner ? `${origin.source} ${origin.owner}` : origin.source;
}
