/**
 * grep's `glob` filter with rg's `--glob` meaning: gitignore-style patterns
 * rooted at the search directory; a leading "!" excludes instead of selects.
 */
import ignore from "ignore";

export interface GlobFilter {
	file(rel: string): boolean;
	/** False when a directory can be skipped entirely. */
	dir(rel: string): boolean;
}

export function createGlobFilter(glob: string | undefined): GlobFilter {
	if (!glob) return { file: () => true, dir: () => true };
	const negated = glob.startsWith("!");
	const ig = ignore().add(negated ? glob.slice(1) : glob);
	if (negated) {
		return { file: (rel) => !ig.ignores(rel), dir: (rel) => !ig.ignores(`${rel}/`) };
	}
	// A positive glob selects files; directories are always entered.
	return { file: (rel) => ig.ignores(rel), dir: () => true };
}
