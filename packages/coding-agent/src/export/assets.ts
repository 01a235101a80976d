/// <reference path="./raw-assets.d.ts" />
// The page's template, styles and script, kept as files of their own
// (page/) and inlined as text at build time (`?raw`: the esbuild plugin in
// scripts/build.mjs, Vite in tests), so the exporter reads nothing from disk
// and the page loads nothing from the network.
import app from "./page/app.js?raw";
import styles from "./page/styles.css?raw";
import template from "./page/template.html?raw";
import text from "./page/text.js?raw";
import tools from "./page/tools.js?raw";

/** The script parts in dependency order, as one inline script. */
const script = [text, tools, app].join("\n");

export const pageAssets = { template, styles, script } as const;
