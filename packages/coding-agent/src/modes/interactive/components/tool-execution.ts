// One tool call in the transcript, from the moment its arguments start
// streaming until its result: a tinted box (pending, success, error) with a
// title and a body that Ctrl+O expands and collapses.
import { applyBackgroundToLine, Image, wrapTextWithAnsi } from "@pi/tui";
import type { ThemeBg } from "../theme-fallback.js";
import { CachedItem, type Expandable, type ThemeSource } from "./cached.js";
import { imageOptions } from "./image-options.js";
import { getToolRenderer, type ToolView } from "./tool-renderers.js";

interface ResultLike {
	content?: { type: string; text?: string; data?: string; mimeType?: string }[];
	details?: unknown;
}

function resultText(result: unknown): string {
	const content = (result as ResultLike | undefined)?.content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const c of content) if (c.type === "text" && typeof c.text === "string") parts.push(c.text);
	return parts.join("\n");
}

export class ToolExecutionItem extends CachedItem implements Expandable {
	private readonly view: ToolView;
	private images: Image[] = [];

	constructor(
		theme: ThemeSource,
		readonly toolCallId: string,
		readonly toolName: string,
		args: unknown,
		expanded: boolean,
	) {
		super(theme);
		this.view = { args: asRecord(args), output: "", details: undefined, status: "pending", expanded };
	}

	get status(): ToolView["status"] {
		return this.view.status;
	}

	setArgs(args: unknown): void {
		this.view.args = asRecord(args);
		this.changed();
	}

	/** The tool started running. */
	start(args: unknown): void {
		this.view.args = asRecord(args);
		this.view.status = "running";
		this.changed();
	}

	/** A streamed partial result (bash output so far). */
	setPartial(result: unknown): void {
		this.view.output = resultText(result);
		this.view.details = (result as ResultLike | undefined)?.details;
		this.changed();
	}

	finish(result: unknown, isError: boolean): void {
		this.view.output = resultText(result);
		const content = (result as ResultLike | undefined)?.content;
		this.images = (Array.isArray(content) ? content : [])
			.filter((c) => c.type === "image" && typeof c.data === "string" && typeof c.mimeType === "string")
			.map(
				(c) =>
					new Image(
						c.data as string,
						c.mimeType as string,
						{ fallbackColor: (s) => this.theme().fg("muted", s) },
						{
							maxWidthCells: imageOptions.maxWidthCells,
						},
					),
			);
		this.view.details = (result as ResultLike | undefined)?.details;
		this.view.status = isError ? "error" : "done";
		this.changed();
	}

	setExpanded(expanded: boolean): void {
		if (this.view.expanded === expanded) return;
		this.view.expanded = expanded;
		this.changed();
	}

	protected draw(width: number): string[] {
		const t = this.theme();
		const r = getToolRenderer(this.toolName);
		const bg: ThemeBg =
			this.view.status === "error" ? "toolErrorBg" : this.view.status === "done" ? "toolSuccessBg" : "toolPendingBg";
		const inner = Math.max(1, width - 2);
		const raw = [r.title(this.view, t)];
		const body = r.body(this.view, t);
		if (body.length > 0) raw.push("", ...body);
		const out = [""];
		const paint = (s: string) => t.bg(bg, s);
		out.push(applyBackgroundToLine("", width, paint));
		for (const line of raw) {
			for (const w of wrapTextWithAnsi(line, inner)) out.push(applyBackgroundToLine(` ${w}`, width, paint));
		}
		out.push(applyBackgroundToLine("", width, paint));
		// Images go below the box: their escape sequences must not be cut or tinted.
		for (const image of this.images) out.push(...image.render(width));
		return out;
	}
}

function asRecord(v: unknown): Record<string, unknown> {
	return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
