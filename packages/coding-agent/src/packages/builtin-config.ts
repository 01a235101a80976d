// `pi config` rows for the extensions bundled with pi: each is on unless the
// `extensions` setting says `-builtin:<name>` (discovery.ts rules: the
// user's entries, then the project's, the last matching entry wins).
// Switching one rewrites only that built-in's entries in the scope's
// `extensions` list.
import type { ConfigRow } from "./config-model.js";

export const BUILTIN_IDENTITY = "builtin";
export const BUILTIN_SPEC = "pi (built-in)";

function entryFor(entry: string, name: string): boolean | undefined {
	const m = /^([+-]?)builtin:(.+)$/.exec(entry.trim());
	return m && m[2] === name ? m[1] !== "-" : undefined;
}

/** On or off after these `extensions` lists, in order. */
export function builtinEnabled(name: string, lists: readonly (readonly string[])[]): boolean {
	let on = true;
	for (const list of lists) {
		for (const entry of list) {
			const state = entryFor(entry, name);
			if (state !== undefined) on = state;
		}
	}
	return on;
}

export function builtinRows(names: readonly string[], lists: readonly (readonly string[])[]): ConfigRow[] {
	return names.map((name) => ({
		identity: BUILTIN_IDENTITY,
		spec: BUILTIN_SPEC,
		kind: "extensions",
		item: name,
		enabled: builtinEnabled(name, lists),
	}));
}

/**
 * The scope's `extensions` list with built-in `name` switched: its own
 * entries for it go, and one is added only when the inherited state
 * (`inherited`: the user's lists, for the project scope) differs.
 */
export function toggleBuiltin(
	list: readonly string[],
	name: string,
	enable: boolean,
	inherited: readonly (readonly string[])[],
): string[] {
	const rest = list.filter((e) => entryFor(e, name) === undefined);
	if (builtinEnabled(name, [...inherited, rest]) !== enable) rest.push(`${enable ? "+" : "-"}builtin:${name}`);
	return rest;
}
