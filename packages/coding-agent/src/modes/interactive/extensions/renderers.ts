// Extension renderers in the transcript: custom messages
// (registerMessageRenderer), custom entries (registerEntryRenderer), tool
// calls (a tool's renderCall/renderResult, registerToolRenderer resolvers)
// and the markdown transformer chain. Whatever an extension's renderer does —
// throw while building or while drawing, return nothing — the transcript
// stays intact: the default rendering is drawn with a one-line notice.
import type { Component } from "@pi/tui";
import type { ExtensionRunner } from "../../../extensions/runner.js";
import type {
	MarkdownMessageType,
	MarkdownTransformContext,
	ToolRenderContext,
	ToolRenderers,
} from "../../../extensions/types.js";
import type { CustomMessage } from "../../../messages.js";
import type { CustomEntry } from "../../../session/types.js";
import type { Expandable, ThemeSource } from "../components/cached.js";

function message(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A transcript item drawn by an extension's component, with the default look as fallback. */
export class RenderedItem implements Component, Expandable {
	private component: Component | undefined;
	private built = false;
	private failure: string | undefined;

	constructor(
		private readonly theme: ThemeSource,
		/** Names the renderer in the failure notice. */
		private readonly what: string,
		private readonly make: (expanded: boolean) => Component | undefined,
		private readonly fallback: (expanded: boolean) => Component | undefined,
		private expanded: boolean,
	) {}

	setExpanded(expanded: boolean): void {
		if (this.expanded === expanded) return;
		this.expanded = expanded;
		this.built = false;
		this.failure = undefined;
	}

	invalidate(): void {
		this.component?.invalidate?.();
	}

	private build(): void {
		if (this.built) return;
		this.built = true;
		if (this.failure) {
			this.component = this.fallback(this.expanded);
			return;
		}
		try {
			this.component = this.make(this.expanded) ?? this.fallback(this.expanded);
		} catch (error) {
			this.failure = message(error);
			this.component = this.fallback(this.expanded);
		}
	}

	render(width: number): string[] {
		this.build();
		let lines: string[] = [];
		try {
			lines = this.component?.render(width) ?? [];
		} catch (error) {
			// The extension's component broke while drawing: from now on the default look.
			this.failure = message(error);
			this.built = false;
			this.build();
			lines = this.component?.render(width) ?? [];
		}
		if (!this.failure) return lines;
		const t = this.theme();
		return [
			...lines,
			` ${t.fg("warning", `${this.what} failed: ${this.failure.split("\n")[0]} (default rendering shown)`)}`,
		];
	}
}

export interface RendererHooks {
	theme: ThemeSource;
	keyText(id: string): string;
	requestRender(): void;
	cwd: string;
}

export function keyHelpers(keyText: (id: string) => string) {
	return {
		keyText,
		keyHint: (id: string, description: string) => {
			const keys = keyText(id);
			return keys ? `${keys} ${description}` : description;
		},
	};
}

/** The registered renderers, looked up at draw time so /reload and late registrations apply. */
export class ExtensionRenderers {
	constructor(
		private readonly runner: ExtensionRunner,
		private readonly hooks: RendererHooks,
	) {}

	/** An item for a custom message with a registered renderer; undefined: the default item. */
	customMessage(
		m: CustomMessage,
		expanded: boolean,
		fallback: (expanded: boolean) => Component | undefined,
	): Component | undefined {
		const renderer = this.runner.getMessageRenderer(m.customType);
		if (!renderer) return undefined;
		const helpers = keyHelpers((id) => this.hooks.keyText(id));
		return new RenderedItem(
			this.hooks.theme,
			`Message renderer for "${m.customType}"`,
			(exp) => renderer(m, { expanded: exp, outputPad: 1, ...helpers }, this.hooks.theme()),
			fallback,
			expanded,
		);
	}

	/** An item for a custom entry; undefined when no renderer is registered (entries are not shown then). */
	customEntry(entry: CustomEntry, expanded: boolean): Component | undefined {
		const renderer = this.runner.getEntryRenderer(entry.customType);
		if (!renderer) return undefined;
		const helpers = keyHelpers((id) => this.hooks.keyText(id));
		return new RenderedItem(
			this.hooks.theme,
			`Entry renderer for "${entry.customType}"`,
			(exp) => renderer(entry, { expanded: exp, ...helpers }, this.hooks.theme()),
			() => undefined,
			expanded,
		);
	}

	/** renderCall/renderResult for a tool: resolvers in load order, then the registered tool's own. */
	tool(toolName: string): ToolRenderers | undefined {
		const resolvers = this.runner.getToolRendererResolvers();
		const own = (): ToolRenderers | undefined => {
			const def = this.runner.getTools().find((t) => t.definition.name === toolName)?.definition;
			if (!def || (!def.renderCall && !def.renderResult)) return undefined;
			return { renderShell: def.renderShell, renderCall: def.renderCall, renderResult: def.renderResult };
		};
		const at = (i: number): ToolRenderers | undefined => {
			const resolver = resolvers[i];
			if (!resolver) return own();
			try {
				return resolver(toolName, () => at(i + 1));
			} catch {
				return at(i + 1);
			}
		};
		return at(0);
	}

	/** The markdown transformer chain for one surface (a throwing transformer is skipped). */
	transformMarkdown(markdown: string, context: MarkdownTransformContext): string {
		let out = markdown;
		for (const { transformer, messageTypes } of this.runner.getMarkdownTransformers()) {
			if (!messageTypes.has(context.messageType)) continue;
			try {
				const next = transformer(out, context);
				if (typeof next === "string") out = next;
			} catch {
				// keep what the chain produced so far
			}
		}
		return out;
	}

	hasMarkdownTransformers(type: MarkdownMessageType): boolean {
		return this.runner.getMarkdownTransformers().some((t) => t.messageTypes.has(type));
	}

	hooksForTools(): RendererHooks {
		return this.hooks;
	}
}

/** Per tool-call state the render context carries between calls. */
export interface ToolRenderSlotState {
	state: Record<string, unknown>;
	lastCall: Component | undefined;
	lastResult: Component | undefined;
}

export type ToolRenderContextInput = Omit<
	ToolRenderContext<Record<string, unknown>, Record<string, unknown>>,
	"keyText" | "keyHint" | "lastComponent"
>;
