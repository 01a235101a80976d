// One tool call in the transcript, from the moment its arguments start
// streaming until its result: a tinted box (pending, success, error) with a
// title and a body that Ctrl+O expands and collapses.
import { applyBackgroundToLine, type Component, Image, wrapTextWithAnsi } from "@pi/tui";
import type { ToolRenderers } from "../../../extensions/types.js";
import { keyHelpers, type RendererHooks } from "../extensions/renderers.js";
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

/** An extension's renderCall/renderResult for this tool (see extensions/renderers.ts). */
export interface CustomToolRendering {
	renderers: ToolRenderers;
	hooks: RendererHooks;
}

export class ToolExecutionItem extends CachedItem implements Expandable {
	private readonly view: ToolView;
	private images: Image[] = [];
	/** The raw (partial) result, for an extension's renderResult. */
	private result: unknown;
	private startedAt: number | undefined;
	private durationMs: number | undefined;
	private readonly slots: { state: Record<string, unknown>; call?: Component; result?: Component } = { state: {} };

	constructor(
		theme: ThemeSource,
		readonly toolCallId: string,
		readonly toolName: string,
		args: unknown,
		expanded: boolean,
		private readonly custom?: CustomToolRendering,
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
		this.startedAt = Date.now();
		this.changed();
	}

	/** A streamed partial result (bash output so far). */
	setPartial(result: unknown): void {
		this.view.output = resultText(result);
		this.view.details = (result as ResultLike | undefined)?.details;
		this.result = result;
		this.changed();
	}

	finish(result: unknown, isError: boolean): void {
		this.result = result;
		if (this.startedAt !== undefined) this.durationMs = Date.now() - this.startedAt;
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
		const wrap = (lines: string[]) => lines.flatMap((l) => wrapTextWithAnsi(l, inner));
		let title = wrap([r.title(this.view, t)]);
		let body = wrap(r.body(this.view, t));
		const custom = this.custom ? this.drawCustom(this.custom, inner) : undefined;
		if (custom?.call) title = custom.call;
		if (custom?.result) body = custom.result;
		const notes = custom?.notes.map((n) => t.fg("warning", n)) ?? [];
		if (this.custom?.renderers.renderShell === "self" && custom)
			return ["", ...title, ...body, ...notes, ...this.images.flatMap((i) => i.render(width))];
		const raw = [...title];
		if (body.length > 0) raw.push("", ...body);
		raw.push(...notes);
		const out = [""];
		const paint = (s: string) => t.bg(bg, s);
		out.push(applyBackgroundToLine("", width, paint));
		for (const line of raw) out.push(applyBackgroundToLine(` ${line}`, width, paint));
		out.push(applyBackgroundToLine("", width, paint));
		// Images go below the box: their escape sequences must not be cut or tinted.
		for (const image of this.images) out.push(...image.render(width));
		return out;
	}

	/** The extension's slots at `width`; a slot that throws keeps the default and adds a note. */
	private drawCustom(custom: CustomToolRendering, width: number): CustomDraw {
		const { renderers, hooks } = custom;
		const theme = hooks.theme();
		const view = this.view;
		const base = {
			args: view.args,
			toolCallId: this.toolCallId,
			invalidate: () => {
				this.changed();
				hooks.requestRender();
			},
			state: this.slots.state,
			cwd: hooks.cwd,
			executionStarted: view.status !== "pending",
			argsComplete: view.status !== "pending",
			isPartial: view.status === "running",
			expanded: view.expanded,
			showImages: true,
			isError: view.status === "error",
			durationMs: this.durationMs,
			outputPad: 1,
			...keyHelpers(hooks.keyText),
		};
		const out: CustomDraw = { notes: [] };
		const fail = (slot: string, error: unknown) =>
			out.notes.push(
				`${slot} of ${this.toolName} failed: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]} (default rendering shown)`,
			);
		if (renderers.renderCall) {
			try {
				const c = renderers.renderCall(view.args, theme, { ...base, lastComponent: this.slots.call });
				this.slots.call = c;
				out.call = c.render(width);
			} catch (error) {
				fail("renderCall", error);
			}
		}
		if (renderers.renderResult && this.result !== undefined) {
			try {
				const c = renderers.renderResult(
					this.result as Parameters<NonNullable<ToolRenderers["renderResult"]>>[0],
					{ expanded: view.expanded, isPartial: view.status === "running" },
					theme,
					{ ...base, lastComponent: this.slots.result },
				);
				this.slots.result = c;
				out.result = c.render(width);
			} catch (error) {
				fail("renderResult", error);
			}
		}
		return out;
	}
}

export interface CustomDraw {
	call?: string[];
	result?: string[];
	/** One line per renderer that threw (the default rendering is used for its slot). */
	notes: string[];
}

function asRecord(v: unknown): Record<string, unknown> {
	return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
