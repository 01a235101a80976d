// builtin:codemode — the `codemode` tool as a bundled extension, written only
// against the public extension API. It registers `codemode` inactive; `--tools
// +codemode`, `"defaultTools": ["+codemode"]`, `pi.setActiveTools()` or the
// MCP extension (for servers whose tools are only reachable from scripts)
// turn it on. `-builtin:codemode` in the `extensions` setting leaves it out.
import type { ExtensionFactory } from "../../extensions/types.js";
import { type CodemodeToolOptions, createCodemodeTool } from "./tool.js";

export type CodemodeExtensionOptions = CodemodeToolOptions;

export function createCodemodeExtension(options: CodemodeExtensionOptions = {}): ExtensionFactory {
	return (pi) => {
		pi.registerTool(createCodemodeTool(pi, options));
	};
}

export default createCodemodeExtension();
