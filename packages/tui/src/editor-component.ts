import type { AutocompleteProvider } from "./autocomplete.js";
import type { Component } from "./component.js";

/**
 * What the app needs from a prompt editor, so extensions can supply their own
 * (vim mode, custom keys) in place of the built-in `Editor`.
 */
export interface EditorComponent extends Component {
	getText(): string;
	setText(text: string): void;
	handleInput(data: string): void;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	addToHistory?(text: string): void;
	insertTextAtCursor?(text: string): void;
	/** Text with markers (e.g. collapsed pastes) expanded; defaults to getText(). */
	getExpandedText?(): string;
	setAutocompleteProvider?(provider: AutocompleteProvider): void;
	borderColor?: (str: string) => string;
	setPaddingX?(padding: number): void;
	setAutocompleteMaxVisible?(maxVisible: number): void;
}
