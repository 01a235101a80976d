// Theme files: where they are, not what they say. The interactive mode
// validates and builds them (modes/interactive/themes); this module only
// lists candidate `.json` files in precedence order with their origin, so
// trust and the four sources are decided in one place (the resource loader).
import type { ResourceDiagnostic, ResourceOrigin } from "./diagnostics.js";
import { canonicalPath, listDir, pathKind } from "./files.js";
import type { LoadResult } from "./root-walk.js";

export interface ThemeFile {
	path: string;
	origin: ResourceOrigin;
}

export interface ThemeRoot {
	path: string;
	origin: ResourceOrigin;
	optional?: boolean;
}

/** A directory gives its direct `*.json` children (sorted); a file gives itself. */
export function collectThemeFiles(
	roots: readonly ThemeRoot[],
	include?: (filePath: string, origin: ResourceOrigin) => boolean,
): LoadResult<ThemeFile> {
	const items: ThemeFile[] = [];
	const diagnostics: ResourceDiagnostic[] = [];
	const seen = new Set<string>();
	const add = (path: string, origin: ResourceOrigin) => {
		if (include && !include(path, origin)) return;
		const key = canonicalPath(path);
		if (seen.has(key)) return;
		seen.add(key);
		items.push({ path, origin });
	};
	for (const root of roots) {
		const kind = pathKind(root.path);
		if (kind === "dir") {
			for (const e of listDir(root.path)) if (e.kind === "file" && e.name.endsWith(".json")) add(e.path, root.origin);
		} else if (kind === "file") {
			add(root.path, root.origin);
		} else if (!root.optional) {
			diagnostics.push({ type: "warning", kind: "theme", path: root.path, message: "theme path not found" });
		}
	}
	return { items, diagnostics };
}
