// Measuring, cutting and wrapping styled text, with nothing of the terminal,
// the renderer or markdown behind it: `@pi/tui/text` is for code that builds
// lines for the TUI but is loaded in every mode (a tool's renderers), so a
// `pi -p` run does not load the whole TUI (and marked) to define them.
export { AnsiState, escapeLength, stripAnsi } from "./utils/ansi.js";
export { type SliceResult, sliceByColumn, sliceColumns, truncateToWidth } from "./utils/slice.js";
export { getSegmenter, graphemeWidth, visibleWidth } from "./utils/width.js";
export { wrapTextWithAnsi } from "./utils/wrap.js";
