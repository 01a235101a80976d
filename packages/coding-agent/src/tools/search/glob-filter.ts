/**
 * grep's `glob` filter with rg's `--glob` meaning: gitignore-style patterns
 * rooted at the search directory, taking precedence over ignore files. A
 * positive glob selects matching files (and lets matching directories be
 * entered even if ignored); a leading "!" excludes matches.
 */
import { ignoreFactory } from "../../lazy-cjs.js";

/** "include"/"exclude" decide; undefined falls through to the ignore files. */
export type Override = (rel: string, isDir: boolean) => "include" | "exclude" | undefined;

export function createGlobOverride(glob: string | undefined): Override | undefined {
	if (!glob) return undefined;
	const negated = glob.startsWith("!");
	const ig = ignoreFactory()().add(negated ? glob.slice(1) : glob);
	if (negated) return (rel, isDir) => (ig.ignores(isDir ? `${rel}/` : rel) ? "exclude" : undefined);
	return (rel, isDir) => {
		if (ig.ignores(isDir ? `${rel}/` : rel)) return "include";
		return isDir ? undefined : "exclude";
	};
}
