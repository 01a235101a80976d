// @pi/tui — terminal UI library: differential renderer, input decoding, components.

export { type Component, Container, CURSOR_MARKER, type Focusable, isFocusable } from "./component.js";
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
export type {
	OverlayAnchor,
	OverlayHandle,
	OverlayMargin,
	OverlayOptions,
	SizeValue,
} from "./overlay.js";
export { StdinBuffer, type StdinBufferEventMap, type StdinBufferOptions } from "./stdin-buffer.js";
export { MemoryTerminal, ProcessTerminal, type ProcessTerminalOptions, type Terminal } from "./terminal.js";
export { type InputListener, type InputListenerResult, TUI, type TUIOptions } from "./tui.js";
export { AnsiState, escapeLength, stripAnsi } from "./utils/ansi.js";
export { sliceByColumn, sliceColumns, truncateToWidth } from "./utils/slice.js";
export { getSegmenter, graphemeWidth, visibleWidth } from "./utils/width.js";
export { wrapTextWithAnsi } from "./utils/wrap.js";
