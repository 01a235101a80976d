/**
 * The editor's autocomplete popup: asks the provider for suggestions (async,
 * stale answers dropped), shows them in a SelectList and applies the choice.
 */
import type { AutocompleteItem, AutocompleteProvider, CompletionResult } from "../autocomplete.js";
import { SelectList, type SelectListTheme } from "./select-list.js";

export interface EditorBuffer {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

export class EditorAutocomplete {
	provider?: AutocompleteProvider;
	maxVisible: number;
	private list: SelectList | null = null;
	/** The latest request, settled when its answer is applied. */
	pending: Promise<void> = Promise.resolve();
	private prefix = "";
	private requestId = 0;
	private abort?: AbortController;
	private readonly theme: SelectListTheme;
	private readonly onUpdate: () => void;

	constructor(theme: SelectListTheme, maxVisible: number, onUpdate: () => void) {
		this.theme = theme;
		this.maxVisible = maxVisible;
		this.onUpdate = onUpdate;
	}

	isShowing(): boolean {
		return this.list !== null;
	}

	getList(): SelectList | null {
		return this.list;
	}

	/** Ask for suggestions for the buffer; the popup appears when they arrive. */
	request(buffer: EditorBuffer, force = false): Promise<void> {
		const provider = this.provider;
		if (!provider) return Promise.resolve();
		this.abort?.abort();
		const abort = new AbortController();
		this.abort = abort;
		const id = ++this.requestId;
		const snapshot = { lines: buffer.lines.slice(), line: buffer.cursorLine, col: buffer.cursorCol };
		this.pending = provider
			.getSuggestions(snapshot.lines, snapshot.line, snapshot.col, { signal: abort.signal, force })
			.then(
				(result) => {
					if (id !== this.requestId || abort.signal.aborted) return;
					if (!result || result.items.length === 0) {
						this.hide();
					} else {
						this.show(result.items, result.prefix);
					}
					this.onUpdate();
				},
				() => {
					if (id === this.requestId) this.hide();
				},
			);
		return this.pending;
	}

	private show(items: AutocompleteItem[], prefix: string): void {
		const previous = this.list?.getSelectedItem()?.value;
		this.prefix = prefix;
		const list = new SelectList(items, this.maxVisible, this.theme);
		// Keep the highlight on an exact or prefix match of what was typed.
		let best = items.findIndex((i) => i.value === prefix || i.value === prefix.replace(/^\//, ""));
		if (best === -1 && previous !== undefined) best = items.findIndex((i) => i.value === previous);
		if (best > 0) list.setSelectedIndex(best);
		this.list = list;
	}

	hide(): void {
		this.abort?.abort();
		this.abort = undefined;
		this.requestId++;
		this.list = null;
	}

	/** Apply the highlighted item; returns the new buffer, or null when nothing is shown. */
	apply(buffer: EditorBuffer): CompletionResult | null {
		const item = this.list?.getSelectedItem();
		if (!item || !this.provider) return null;
		const result = this.provider.applyCompletion(buffer.lines, buffer.cursorLine, buffer.cursorCol, item, this.prefix);
		this.hide();
		return result;
	}

	/** Selected item (for tests and apps). */
	selected(): AutocompleteItem | null {
		return this.list?.getSelectedItem() ?? null;
	}
}
