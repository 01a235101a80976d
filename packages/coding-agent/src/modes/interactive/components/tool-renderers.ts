// How each tool call looks: a title line from its arguments and a body from
// its result (or streamed partial result). Built-in tools get their own
// form (bash: command and output tail; read: path and range; edit: coloured
// diff; write: content preview); any other tool a generic one.
import type { AppTheme } from "../theme-fallback.js";

export interface ToolView {
	args: Record<string, unknown>;
	/** Text content of the (partial) result. */
	output: string;
	details: unknown;
	status: "pending" | "running" | "done" | "error";
	expanded: boolean;
}

export interface ToolRenderer {
	title(view: ToolView, theme: AppTheme): string;
	/** Body lines (unwrapped); empty for none. */
	body(view: ToolView, theme: AppTheme): string[];
}

const COLLAPSED_LINES = 10;
const BASH_COLLAPSED_LINES = 5;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function shortenPath(path: string): string {
	const home = process.env.HOME;
	return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** Keeps the first (or last) `n` lines and says how many more there are. */
function clip(lines: string[], n: number, theme: AppTheme, fromEnd = false): string[] {
	if (lines.length <= n) return lines;
	const hidden = lines.length - n;
	const note = theme.fg("muted", `… ${hidden} more line${hidden === 1 ? "" : "s"} (ctrl+o to expand)`);
	return fromEnd ? [note, ...lines.slice(-n)] : [...lines.slice(0, n), note];
}

function trimTrailingEmpty(lines: string[]): string[] {
	let end = lines.length;
	while (end > 0 && lines[end - 1].trim() === "") end--;
	return lines.slice(0, end);
}

function outputLines(view: ToolView, theme: AppTheme): string[] {
	if (!view.output) return [];
	return trimTrailingEmpty(view.output.replace(/\t/g, "   ").split("\n")).map((l) => theme.fg("toolOutput", l));
}

const bash: ToolRenderer = {
	title: (v, t) => t.bold(`$ ${str(v.args.command) || "…"}`),
	body(v, t) {
		const lines = outputLines(v, t);
		const shown = v.expanded ? lines : clip(lines, BASH_COLLAPSED_LINES, t, true);
		if (v.status === "running" && lines.length === 0) return [t.fg("muted", "(running…)")];
		return shown;
	},
};

const read: ToolRenderer = {
	title(v, t) {
		const path = shortenPath(str(v.args.path) || "…");
		const offset = num(v.args.offset);
		const limit = num(v.args.limit);
		let range = "";
		if (offset !== undefined || limit !== undefined) {
			const start = offset ?? 1;
			range = limit !== undefined ? `:${start}-${start + limit - 1}` : `:${start}`;
		}
		return `${t.bold("read")} ${t.fg("accent", path)}${t.fg("warning", range)}`;
	},
	body(v, t) {
		if (v.status === "error") return outputLines(v, t);
		const lines = outputLines(v, t);
		return v.expanded ? lines : clip(lines, COLLAPSED_LINES, t);
	},
};

function colorDiff(diff: string, t: AppTheme): string[] {
	return diff
		.split("\n")
		.filter((l) => !l.startsWith("---") && !l.startsWith("+++"))
		.map((l) => {
			if (l.startsWith("+")) return t.fg("toolDiffAdded", l);
			if (l.startsWith("-")) return t.fg("toolDiffRemoved", l);
			if (l.startsWith("@@")) return t.fg("accent", l);
			return t.fg("toolDiffContext", l);
		});
}

const edit: ToolRenderer = {
	title: (v, t) => `${t.bold("edit")} ${t.fg("accent", shortenPath(str(v.args.path) || "…"))}`,
	body(v, t) {
		if (v.status === "error") return outputLines(v, t);
		const diff = str((v.details as { diff?: unknown } | undefined)?.diff);
		if (!diff) return [];
		const lines = colorDiff(diff, t);
		return v.expanded ? lines : clip(lines, COLLAPSED_LINES * 2, t);
	},
};

const write: ToolRenderer = {
	title(v, t) {
		const content = str(v.args.content);
		// A final newline ends the last line; it does not start another one.
		const n = content ? content.split("\n").length - (content.endsWith("\n") ? 1 : 0) : 0;
		const size = content ? t.fg("muted", ` (${n} line${n === 1 ? "" : "s"})`) : "";
		return `${t.bold("write")} ${t.fg("accent", shortenPath(str(v.args.path) || "…"))}${size}`;
	},
	body(v, t) {
		if (v.status === "error") return outputLines(v, t);
		const content = str(v.args.content);
		if (!content) return [];
		const lines = trimTrailingEmpty(content.replace(/\t/g, "   ").split("\n")).map((l) => t.fg("toolOutput", l));
		return v.expanded ? lines : clip(lines, COLLAPSED_LINES, t);
	},
};

function compactArgs(args: Record<string, unknown>): string {
	const parts: string[] = [];
	for (const [k, v] of Object.entries(args)) {
		const s = typeof v === "string" ? v : JSON.stringify(v);
		parts.push(`${k}=${s && s.length > 60 ? `${s.slice(0, 57)}...` : s}`);
	}
	return parts.join(" ");
}

function searchTitle(name: string, main: string) {
	return (v: ToolView, t: AppTheme) => {
		const { [main]: first, ...rest } = v.args;
		const extra = compactArgs(rest);
		return `${t.bold(name)} ${t.fg("accent", str(first))}${extra ? t.fg("muted", ` ${extra}`) : ""}`;
	};
}

const generic = (name: string): ToolRenderer => ({
	title: (v, t) => `${t.bold(name)} ${t.fg("muted", compactArgs(v.args))}`,
	body(v, t) {
		const lines = outputLines(v, t);
		return v.expanded ? lines : clip(lines, COLLAPSED_LINES, t);
	},
});

const renderers: Record<string, ToolRenderer> = {
	bash,
	read,
	edit,
	write,
	grep: { title: searchTitle("grep", "pattern"), body: generic("grep").body },
	find: { title: searchTitle("find", "pattern"), body: generic("find").body },
	ls: { title: searchTitle("ls", "path"), body: generic("ls").body },
};

export function getToolRenderer(name: string): ToolRenderer {
	return renderers[name] ?? generic(name);
}
