// The extensions bundled with pi, by name (`builtin:<name>` in settings and
// `-e`). Each is written only against the public extension API and loads
// like any other extension, from a lazy module import instead of jiti, so a
// run pays only for the built-ins it keeps. Order here is load order.
import type { ExtensionFactory } from "../extensions/types.js";

export const BUILTIN_EXTENSIONS: Record<string, () => Promise<ExtensionFactory>> = {
	mcp: () => import("../builtins/mcp/index.js").then((m) => m.default),
	codemode: () => import("../builtins/codemode/index.js").then((m) => m.default),
	"tool-search": () => import("../builtins/tool-search/index.js").then((m) => m.default),
	checkpoints: () => import("../builtins/checkpoints/index.js").then((m) => m.default),
	permissions: () => import("../builtins/permissions/index.js").then((m) => m.default),
};

export const BUILTIN_EXTENSION_NAMES: readonly string[] = Object.keys(BUILTIN_EXTENSIONS);
