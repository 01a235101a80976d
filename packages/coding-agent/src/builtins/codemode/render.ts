// How a codemode call draws in the interactive app (the tool's renderCall /
// renderResult). The call: the script, highlighted as JavaScript, its first
// lines while collapsed (Ctrl+O shows all). The result: one line per inner
// tool call (status, name, arguments, duration) under a count, then the
// script's output — its first lines while collapsed. The inner calls are not
// drawn as items of their own; this is where they show.
import type { Component } from "@pi/tui";
// Only the text utilities: the renderers are defined in every mode, the TUI is loaded when something draws.
import { truncateToWidth, wrapTextWithAnsi } from "@pi/tui/text";
import type { ExtensionTheme, ToolRenderContext, ToolRenderResultOptions } from "../../extensions/types.js";

// The shapes of tool.ts's CodemodeCall / CodemodeDetails that drawing reads (declared here: tool.ts imports this file).
interface CodemodeCall {
	name: string;
	args: string;
	status: "running" | "ok" | "error" | "cancelled";
	durationMs?: number;
	error?: string;
}
interface CodemodeDetails {
	calls: CodemodeCall[];
	fullOutputPath?: string;
	limit?: string;
}

const SCRIPT_LINES = 8;
const OUTPUT_LINES = 6;
const CALL_LINES = 6;

/** Pre-styled lines; code lines are cut at the width, prose wraps. */
class Lines implements Component {
	constructor(private readonly lines: { text: string; wrap: boolean }[]) {}
	render(width: number): string[] {
		const w = Math.max(1, width);
		return this.lines.flatMap((l) => (l.wrap ? wrapTextWithAnsi(l.text, w) : [truncateToWidth(l.text, w, "…")]));
	}
	invalidate(): void {}
}

const expandHint = (theme: ExtensionTheme, context: { keyHint(id: string, d: string): string }, hidden: number) =>
	theme.fg(
		"dim",
		`… ${hidden} more line${hidden === 1 ? "" : "s"} (${context.keyHint("app.tools.expand", "to expand")})`,
	);

function highlight(code: string, theme: ExtensionTheme): string[] {
	try {
		const lines = theme.getMarkdownTheme().highlightCode?.(code, "javascript");
		if (lines && lines.length > 0) return lines;
	} catch {
		// an unknown highlighter failure: plain text below
	}
	return code.split("\n").map((l) => theme.fg("text", l));
}

export function renderCodemodeCall(
	args: { code?: unknown },
	theme: ExtensionTheme,
	context: ToolRenderContext<unknown, { code?: unknown }>,
): Component {
	const code = (typeof args.code === "string" ? args.code : "").replace(/\s+$/, "");
	const all = code === "" ? [] : code.split("\n");
	const title = `${theme.bold(theme.fg("accent", "codemode"))} ${theme.fg("muted", `script, ${all.length} line${all.length === 1 ? "" : "s"}`)}`;
	const lines: { text: string; wrap: boolean }[] = [{ text: title, wrap: true }];
	if (all.length === 0) return new Lines(lines);
	const shown = context.expanded ? all.length : Math.min(all.length, SCRIPT_LINES);
	const highlighted = highlight(all.slice(0, shown).join("\n"), theme);
	for (const line of highlighted) lines.push({ text: `  ${line}`, wrap: false });
	if (shown < all.length) lines.push({ text: `  ${expandHint(theme, context, all.length - shown)}`, wrap: true });
	return new Lines(lines);
}

function callLine(call: CodemodeCall, theme: ExtensionTheme): string {
	const mark =
		call.status === "ok"
			? theme.fg("success", "✓")
			: call.status === "error"
				? theme.fg("error", "✗")
				: call.status === "cancelled"
					? theme.fg("warning", "⊘")
					: theme.fg("muted", "…");
	const time = call.durationMs !== undefined ? theme.fg("dim", ` ${(call.durationMs / 1000).toFixed(2)} s`) : "";
	const error = call.error ? theme.fg("error", ` — ${call.error.split("\n")[0]}`) : "";
	return `${mark} ${theme.fg("text", call.name)} ${theme.fg("muted", call.args)}${time}${error}`;
}

function callsSummary(calls: readonly CodemodeCall[], theme: ExtensionTheme): string {
	const count = (s: CodemodeCall["status"]) => calls.filter((c) => c.status === s).length;
	const parts = [`${calls.length} tool call${calls.length === 1 ? "" : "s"}`];
	if (count("running") > 0) parts.push(`${count("running")} running`);
	if (count("error") > 0) parts.push(theme.fg("error", `${count("error")} failed`));
	if (count("cancelled") > 0) parts.push(theme.fg("warning", `${count("cancelled")} cancelled`));
	return theme.fg("muted", parts.join(" · "));
}

export function renderCodemodeResult(
	result: { content?: { type: string; text?: string }[]; details?: CodemodeDetails },
	options: ToolRenderResultOptions,
	theme: ExtensionTheme,
	context: ToolRenderContext<unknown, { code?: unknown }>,
): Component {
	const lines: { text: string; wrap: boolean }[] = [];
	const calls = result.details?.calls ?? [];
	if (calls.length > 0) {
		lines.push({ text: callsSummary(calls, theme), wrap: true });
		const shown = options.expanded ? calls.length : Math.min(calls.length, CALL_LINES);
		// Collapsed: the latest calls (what is running now), else the first ones.
		const list = options.isPartial ? calls.slice(calls.length - shown) : calls.slice(0, shown);
		for (const call of list) lines.push({ text: `  ${callLine(call, theme)}`, wrap: false });
		if (shown < calls.length)
			lines.push({
				text: `  ${theme.fg("dim", `… ${calls.length - shown} more call${calls.length - shown === 1 ? "" : "s"}`)}`,
				wrap: true,
			});
	}
	if (options.isPartial) return new Lines(lines);
	const text = (result.content ?? [])
		.filter((c) => c.type === "text")
		.map((c) => c.text ?? "")
		.join("\n")
		.replace(/\s+$/, "");
	const [header = "", ...output] = text === "" ? [] : text.split("\n");
	if (header) lines.push({ text: theme.fg(context.isError ? "error" : "muted", header), wrap: true });
	if (result.details?.limit) lines.push({ text: theme.fg("warning", `limit: ${result.details.limit}`), wrap: true });
	const shown = options.expanded ? output.length : Math.min(output.length, OUTPUT_LINES);
	for (const line of output.slice(0, shown)) {
		const style = line.startsWith("Script error:") ? "error" : "toolOutput";
		lines.push({ text: theme.fg(style, line), wrap: options.expanded });
	}
	if (shown < output.length) lines.push({ text: expandHint(theme, context, output.length - shown), wrap: true });
	if (result.details?.fullOutputPath)
		lines.push({ text: theme.fg("dim", `full output: ${result.details.fullOutputPath}`), wrap: true });
	return new Lines(lines);
}
