// The dialogs behind `ctx.ui.select/confirm/input/editor`: each takes the
// editor's place (as the built-in selectors do) until answered. Every dialog
// ends exactly once — answered, Esc (the "dismissed" value: undefined, or
// false for confirm), its `timeout` (a countdown shown in the title), or its
// `signal` aborting — and then puts the editor back.
import {
	type Component,
	Editor,
	type Focusable,
	Input,
	isFocusable,
	type KeybindingsManager,
	SelectList,
	type TUI,
	truncateToWidth,
	wrapTextWithAnsi,
} from "@pi/tui";
import type { ExtensionUIDialogOptions } from "../../../extensions/ui-types.js";
import { liveSelectListTheme, type ThemeSource } from "../selectors/frame.js";

export interface DialogHost {
	tui: TUI;
	theme: ThemeSource;
	keybindings: KeybindingsManager;
	/** Shows the component in place of the editor; returns the function that restores it. */
	showInEditorArea(component: Component): () => void;
}

/** A titled frame with an optional message, a body and a hint line. */
class DialogFrame implements Component, Focusable {
	private _focused = false;
	suffix = "";

	constructor(
		private readonly theme: ThemeSource,
		private readonly title: string,
		private readonly message: string | undefined,
		readonly body: Component,
		private readonly hints: string,
	) {}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		if (isFocusable(this.body)) this.body.focused = value;
	}

	invalidate(): void {
		this.body.invalidate?.();
	}

	render(width: number): string[] {
		const t = this.theme();
		const rule = t.fg("border", "─".repeat(Math.max(1, width)));
		const out = [rule];
		const inner = Math.max(1, width - 2);
		for (const line of wrapTextWithAnsi(t.bold(t.fg("accent", this.title + this.suffix)), inner)) out.push(` ${line}`);
		if (this.message) {
			for (const para of this.message.split("\n"))
				for (const line of wrapTextWithAnsi(para, inner)) out.push(` ${line}`);
		}
		out.push(...this.body.render(width));
		out.push(truncateToWidth(` ${t.fg("dim", this.hints)}`, width, "…"));
		out.push(rule);
		return out;
	}

	handleInput(data: string): void {
		this.body.handleInput?.(data);
	}
}

/**
 * Runs one dialog: `build(finish)` makes the body and calls `finish(value)`
 * when answered; Esc, the timeout and the signal finish with `dismissed`.
 */
function runDialog<T>(
	host: DialogHost,
	o: {
		title: string;
		message?: string;
		hints: string;
		dismissed: T;
		options?: ExtensionUIDialogOptions;
		build(finish: (value: T) => void): Component;
		/** Whether Esc should reach the body instead (never for these dialogs). */
	},
): Promise<T> {
	const signal = o.options?.signal;
	if (signal?.aborted) return Promise.resolve(o.dismissed);
	return new Promise<T>((resolve) => {
		let done = false;
		let restore: (() => void) | undefined;
		let timer: NodeJS.Timeout | undefined;
		const finish = (value: T) => {
			if (done) return;
			done = true;
			if (timer) clearInterval(timer);
			signal?.removeEventListener("abort", onAbort);
			restore?.();
			resolve(value);
		};
		const onAbort = () => finish(o.dismissed);
		const body = o.build(finish);
		const frame = new DialogFrame(host.theme, o.title, o.message, body, o.hints);
		const escaping: Component & Focusable = {
			get focused() {
				return frame.focused;
			},
			set focused(v: boolean) {
				frame.focused = v;
			},
			render: (w) => frame.render(w),
			invalidate: () => frame.invalidate(),
			handleInput: (data) => {
				if (host.keybindings.matches(data, "tui.select.cancel")) finish(o.dismissed);
				else frame.handleInput(data);
			},
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		const timeout = o.options?.timeout;
		if (timeout !== undefined && timeout > 0) {
			const ends = Date.now() + timeout;
			const tick = () => {
				const left = ends - Date.now();
				if (left <= 0) {
					finish(o.dismissed);
					return;
				}
				frame.suffix = ` (${Math.ceil(left / 1000)}s)`;
				host.tui.requestRender();
			};
			tick();
			if (!done) {
				timer = setInterval(tick, 250);
				timer.unref?.();
			}
		}
		if (!done) restore = host.showInEditorArea(escaping);
	});
}

export function selectDialog(
	host: DialogHost,
	title: string,
	options: string[],
	opts?: ExtensionUIDialogOptions,
): Promise<string | undefined> {
	return runDialog<string | undefined>(host, {
		title,
		hints: "↑↓ navigate · enter select · esc cancel",
		dismissed: undefined,
		options: opts,
		build: (finish) => {
			const list = new SelectList(
				options.map((o) => ({ value: o, label: o })),
				Math.min(10, Math.max(1, options.length)),
				liveSelectListTheme(host.theme),
			);
			list.onSelect = (item) => finish(item.value);
			return list;
		},
	});
}

export function confirmDialog(
	host: DialogHost,
	title: string,
	message: string,
	opts?: ExtensionUIDialogOptions,
): Promise<boolean> {
	return runDialog<boolean>(host, {
		title,
		message,
		hints: "↑↓ navigate · enter select · y/n · esc cancel",
		dismissed: false,
		options: opts,
		build: (finish) => {
			const list = new SelectList(
				[
					{ value: "yes", label: "Yes" },
					{ value: "no", label: "No" },
				],
				2,
				liveSelectListTheme(host.theme),
			);
			list.onSelect = (item) => finish(item.value === "yes");
			return {
				render: (w) => list.render(w),
				invalidate: () => list.invalidate(),
				handleInput: (data) => {
					if (data === "y" || data === "Y") finish(true);
					else if (data === "n" || data === "N") finish(false);
					else list.handleInput(data);
				},
			};
		},
	});
}

export function inputDialog(
	host: DialogHost,
	title: string,
	placeholder: string | undefined,
	opts?: ExtensionUIDialogOptions,
): Promise<string | undefined> {
	return runDialog<string | undefined>(host, {
		title,
		message: placeholder ? host.theme().fg("dim", placeholder) : undefined,
		hints: "enter submit · esc cancel",
		dismissed: undefined,
		options: opts,
		build: (finish) => {
			const input = new Input();
			input.onSubmit = (value) => finish(value);
			return input;
		},
	});
}

/** Multi-line: Enter submits, Shift+Enter adds a line, Ctrl+G opens $VISUAL/$EDITOR when given. */
export function editorDialog(
	host: DialogHost,
	title: string,
	prefill: string | undefined,
	external?: (text: string) => string | undefined,
	opts?: ExtensionUIDialogOptions,
): Promise<string | undefined> {
	return runDialog<string | undefined>(host, {
		title,
		hints: `enter submit · shift+enter new line${external ? " · ctrl+g external editor" : ""} · esc cancel`,
		dismissed: undefined,
		options: opts,
		build: (finish) => {
			const editor = new Editor(host.tui, host.theme().getEditorTheme());
			if (prefill) editor.setText(prefill);
			editor.onSubmit = (text) => finish(text);
			const wrapper: Component & Focusable = {
				get focused() {
					return editor.focused;
				},
				set focused(v: boolean) {
					editor.focused = v;
				},
				render: (w) => editor.render(w),
				invalidate: () => editor.invalidate(),
				handleInput: (data) => {
					if (external && host.keybindings.matches(data, "app.editor.external")) {
						const edited = external(editor.getExpandedText());
						if (edited !== undefined) editor.setText(edited);
						host.tui.requestRender(true);
						return;
					}
					editor.handleInput(data);
					host.tui.renderNow();
				},
			};
			return wrapper;
		},
	});
}
