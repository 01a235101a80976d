// @pi/tui — terminal UI library: differential renderer, input decoding, components.

export {
	type AutocompleteItem,
	type AutocompleteProvider,
	type AutocompleteSuggestions,
	type CombinedAutocompleteOptions,
	CombinedAutocompleteProvider,
	type CompletionResult,
	type FileLister,
	type SlashCommand,
	walkFiles,
} from "./autocomplete.js";
export {
	type Component,
	Container,
	CURSOR_MARKER,
	type Focusable,
	isFocusable,
	renderFakeCursor,
} from "./component.js";
export { Box } from "./components/box.js";
export { CancellableLoader } from "./components/cancellable-loader.js";
export { Editor, type EditorOptions, type EditorTheme, type TextChunk, wordWrapLine } from "./components/editor.js";
export { Image, type ImageOptions, type ImageTheme } from "./components/image.js";
export { Input } from "./components/input.js";
export { Loader, type LoaderIndicatorOptions } from "./components/loader.js";
export {
	type DefaultTextStyle,
	loadMarkdown,
	Markdown,
	type MarkdownTheme,
	onMarkdownLoaded,
} from "./components/markdown.js";
export {
	type SelectItem,
	SelectList,
	type SelectListLayoutOptions,
	type SelectListTheme,
	type SelectListTruncatePrimaryContext,
} from "./components/select-list.js";
export {
	type SettingItem,
	SettingsList,
	type SettingsListOptions,
	type SettingsListTheme,
} from "./components/settings-list.js";
export { Spacer } from "./components/spacer.js";
export { Text } from "./components/text.js";
export { TruncatedText } from "./components/truncated-text.js";
export { KillRing } from "./editing/kill-ring.js";
export { isPunctuationChar, isWhitespaceChar } from "./editing/text.js";
export { UndoStack } from "./editing/undo-stack.js";
export type { EditorComponent } from "./editor-component.js";
export { type FuzzyMatch, fuzzyFilter, fuzzyMatch } from "./fuzzy.js";
export { type BaseKey, formatKeyId, Key, type KeyCombo, type KeyId, parseKeyId } from "./key-ids.js";
export {
	getKeybindings,
	type Keybinding,
	type KeybindingConflict,
	type KeybindingDefinition,
	type KeybindingDefinitions,
	type Keybindings,
	type KeybindingsConfig,
	KeybindingsManager,
	setKeybindings,
	TUI_KEYBINDINGS,
} from "./keybindings.js";
export {
	decodeKittyPrintable,
	decodePrintableKey,
	isKeyRelease,
	isKeyRepeat,
	isKittyProtocolActive,
	type KeyEvent,
	type KeyEventType,
	matchesKey,
	parseKey,
	parseKeyEvents,
	setKittyProtocolActive,
} from "./keys.js";
export type { OverlayAnchor, OverlayHandle, OverlayMargin, OverlayOptions, SizeValue } from "./overlay.js";
export { drawScreenRecord, parseScreenRecord, type ScreenRecord, type ScreenState } from "./screen-record.js";
export { StdinBuffer, type StdinBufferEventMap, type StdinBufferOptions } from "./stdin-buffer.js";
export {
	AnsiTerminal,
	MemoryTerminal,
	ProcessTerminal,
	type ProcessTerminalOptions,
	type Terminal,
} from "./terminal.js";
export {
	type Appearance,
	appearanceFromColorFgBg,
	appearanceOf,
	BACKGROUND_QUERY_TIMEOUT_MS,
	type BackgroundQueryResult,
	type BackgroundQueryStreams,
	COLOR_SCHEME_NOTIFY_OFF,
	COLOR_SCHEME_NOTIFY_ON,
	parseBackgroundReply,
	parseColorSchemeReport,
	parseOscColor,
	queryTerminalBackground,
	type Rgb,
} from "./terminal-background.js";
export {
	allocateImageId,
	type CellDimensions,
	calculateImageRows,
	deleteAllKittyImages,
	deleteKittyImage,
	detectCapabilities,
	encodeITerm2,
	encodeKitty,
	getCapabilities,
	getCellDimensions,
	getGifDimensions,
	getImageDimensions,
	getJpegDimensions,
	getPngDimensions,
	getWebpDimensions,
	hyperlink,
	type ImageDimensions,
	type ImageProtocol,
	type ImageRenderOptions,
	imageFallback,
	isImageLine,
	renderImage,
	resetCapabilitiesCache,
	setCapabilities,
	setCellDimensions,
	type TerminalCapabilities,
} from "./terminal-image.js";
export { type InputListener, type InputListenerResult, TUI, type TUIOptions } from "./tui.js";
export { AnsiState, escapeLength, stripAnsi } from "./utils/ansi.js";
export { applyBackgroundToLine } from "./utils/background.js";
export { type CodeHighlightTheme, createCodeHighlighter } from "./utils/highlight.js";
export { type SliceResult, sliceByColumn, sliceColumns, truncateToWidth } from "./utils/slice.js";
export { getSegmenter, graphemeWidth, visibleWidth } from "./utils/width.js";
export { wrapTextWithAnsi } from "./utils/wrap.js";
