// The extension UI of RPC mode. Dialogs (select, confirm, input, editor)
// become an `extension_ui_request` on stdout and wait for the client's
// `extension_ui_response` with the same id; notifications, status, widgets,
// title and editor text are fire-and-forget requests. A dialog also ends on
// its timeout, on its AbortSignal, or when the session shuts down; it then
// resolves with its "dismissed" value (undefined, or false for confirm), the
// same value a `cancelled` response gives.
// Features that need a real terminal (custom components, themes, footers) are
// inert here, with the documented degraded results.
// The contract (ExtensionUIContext) is defined under extensions/; this class
// implements it for the wire.
import { randomUUID } from "node:crypto";
import { plainExtensionTheme } from "../../extensions/plain-theme.js";
import type {
	ExtensionTheme,
	ExtensionUIContext,
	ExtensionUIDialogOptions,
	ExtensionWidgetOptions,
} from "../../extensions/ui-types.js";
import type { RpcExtensionUIRequest, RpcExtensionUIResponse } from "./rpc-types.js";

/** Distributes a request record; a promise means "written, but the stream wants the writer to wait". */
export type SendUIRequest = (request: RpcExtensionUIRequest) => void | Promise<void>;

export interface RpcExtensionUIOptions {
	/** Request ids (tests); default random UUIDs. */
	createId?: () => string;
	setTimeout?: (fn: () => void, ms: number) => unknown;
	clearTimeout?: (handle: unknown) => void;
	/** What `theme` returns (styling has no effect on the wire); default a plain theme. */
	theme?: ExtensionTheme;
}

interface PendingDialog {
	/** Settles the dialog with the client's answer, or dismisses it (undefined). */
	settle(response: RpcExtensionUIResponse | undefined): void;
}

type DialogRequest = Extract<RpcExtensionUIRequest, { method: "select" | "confirm" | "input" | "editor" }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** `ctx.ui` over the RPC sub-protocol, as far as a client without a terminal can honour it. */
export class RpcExtensionUI implements ExtensionUIContext {
	private readonly pending = new Map<string, PendingDialog>();
	/** Status keys the client holds a text for. */
	private readonly statusKeys = new Set<string>();
	/** Widget keys the client holds lines for. */
	private readonly widgetKeys = new Set<string>();
	private readonly createId: () => string;
	private readonly setTimer: (fn: () => void, ms: number) => unknown;
	private readonly clearTimer: (handle: unknown) => void;
	private closed = false;
	readonly theme: ExtensionTheme;

	constructor(
		private readonly send: SendUIRequest,
		options: RpcExtensionUIOptions = {},
	) {
		this.createId = options.createId ?? randomUUID;
		this.setTimer = options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
		this.clearTimer = options.clearTimeout ?? ((h) => clearTimeout(h as NodeJS.Timeout));
		this.theme = options.theme ?? plainExtensionTheme;
	}

	// -- dialogs ----------------------------------------------------------------------

	select(title: string, options: string[], opts: ExtensionUIDialogOptions = {}): Promise<string | undefined> {
		return this.dialog({ method: "select", title, options, ...timeoutField(opts) }, opts, answerValue);
	}

	confirm(title: string, message: string, opts: ExtensionUIDialogOptions = {}): Promise<boolean> {
		return this.dialog({ method: "confirm", title, message, ...timeoutField(opts) }, opts, (r) =>
			r && "confirmed" in r ? r.confirmed : false,
		);
	}

	input(title: string, placeholder?: string, opts: ExtensionUIDialogOptions = {}): Promise<string | undefined> {
		const fields = placeholder === undefined ? {} : { placeholder };
		return this.dialog({ method: "input", title, ...fields, ...timeoutField(opts) }, opts, answerValue);
	}

	editor(title: string, prefill?: string, opts: ExtensionUIDialogOptions = {}): Promise<string | undefined> {
		return this.dialog({ method: "editor", title, ...(prefill === undefined ? {} : { prefill }) }, opts, answerValue);
	}

	// -- fire-and-forget ----------------------------------------------------------------

	notify(message: string, type?: "info" | "warning" | "error"): void {
		this.fire({ method: "notify", message, ...(type ? { notifyType: type } : {}) });
	}

	/**
	 * Clearing a key the client was never sent is not sent either: extensions
	 * clear their status on start as a matter of course, and a client should not
	 * see a stray request (before its first response, even) for a status that never was.
	 */
	setStatus(key: string, text: string | undefined): void {
		if (text === undefined) {
			if (!this.statusKeys.delete(key)) return;
		} else this.statusKeys.add(key);
		this.fire({ method: "setStatus", statusKey: key, statusText: text });
	}

	/**
	 * Only line arrays cross the wire; component factories (terminal only) are ignored. As with the status,
	 * removing a widget the client was never sent is not sent.
	 */
	setWidget(key: string, content: unknown, options: ExtensionWidgetOptions = {}): void {
		if (content !== undefined && !isStringArray(content)) return;
		if (content === undefined) {
			if (!this.widgetKeys.delete(key)) return;
		} else this.widgetKeys.add(key);
		this.fire({
			method: "setWidget",
			widgetKey: key,
			widgetLines: content,
			...(options.placement ? { widgetPlacement: options.placement } : {}),
		});
	}

	setTitle(title: string): void {
		this.fire({ method: "setTitle", title });
	}

	setEditorText(text: string): void {
		this.fire({ method: "set_editor_text", text });
	}

	/** No paste handling without a terminal: the text simply becomes the editor text. */
	pasteToEditor(text: string): void {
		this.setEditorText(text);
	}

	// -- degraded without a terminal ---------------------------------------------------------

	getEditorText(): string {
		return "";
	}
	async custom(): Promise<undefined> {
		return undefined;
	}
	onTerminalInput(): () => void {
		return () => {};
	}
	setWorkingMessage(): void {}
	setWorkingVisible(): void {}
	setWorkingIndicator(): void {}
	setHiddenThinkingLabel(): void {}
	setFooter(): void {}
	setHeader(): void {}
	setEditorComponent(): void {}
	getEditorComponent(): undefined {
		return undefined;
	}
	addAutocompleteProvider(): void {}
	setToolsExpanded(): void {}
	getToolsExpanded(): boolean {
		return false;
	}
	getAllThemes(): { name: string; path: string | undefined }[] {
		return [];
	}
	getTheme(): undefined {
		return undefined;
	}
	setTheme(): { success: false; error: string } {
		return { success: false, error: "Theme switching is not supported in RPC mode" };
	}

	// -- the client side of the sub-protocol -----------------------------------------------------

	/** Delivers a client's answer; false when no open dialog has that id (late, duplicate or unknown). */
	handleResponse(response: RpcExtensionUIResponse): boolean {
		const dialog = this.pending.get(response.id);
		if (!dialog) return false;
		dialog.settle(response);
		return true;
	}

	/** Number of dialogs waiting for an answer. */
	get pendingCount(): number {
		return this.pending.size;
	}

	/** Dismisses every open dialog and every later one (no answer can come any more). */
	close(): void {
		this.closed = true;
		for (const dialog of [...this.pending.values()]) dialog.settle(undefined);
	}

	private fire(request: DistributiveOmit<RpcExtensionUIRequest, "type" | "id">): void {
		if (this.closed) return;
		void this.send({ type: "extension_ui_request", id: this.createId(), ...request } as RpcExtensionUIRequest);
	}

	private dialog<T>(
		request: DistributiveOmit<DialogRequest, "type" | "id">,
		opts: ExtensionUIDialogOptions,
		result: (response: RpcExtensionUIResponse | undefined) => T,
	): Promise<T> {
		if (this.closed || opts.signal?.aborted) return Promise.resolve(result(undefined));
		const id = this.createId();
		return new Promise<T>((resolve) => {
			let timer: unknown;
			const onAbort = () => settle(undefined);
			const settle = (response: RpcExtensionUIResponse | undefined) => {
				if (!this.pending.delete(id)) return;
				if (timer !== undefined) this.clearTimer(timer);
				opts.signal?.removeEventListener("abort", onAbort);
				resolve(result(response));
			};
			this.pending.set(id, { settle });
			if (opts.timeout !== undefined && opts.timeout > 0) timer = this.setTimer(() => settle(undefined), opts.timeout);
			opts.signal?.addEventListener("abort", onAbort, { once: true });
			void this.send({ type: "extension_ui_request", id, ...request } as RpcExtensionUIRequest);
		});
	}
}

function answerValue(response: RpcExtensionUIResponse | undefined): string | undefined {
	return response && "value" in response ? response.value : undefined;
}

function timeoutField(opts: ExtensionUIDialogOptions): { timeout?: number } {
	return opts.timeout !== undefined && opts.timeout > 0 ? { timeout: opts.timeout } : {};
}

function isStringArray(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((v) => typeof v === "string");
}
