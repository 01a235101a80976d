// What the loaded extensions registered, resolved by name across all of them,
// and the load-time conflicts between them. Resolution rules (load order):
// tools and flags — the first registration wins; commands — duplicates are all
// kept as `name:1`, `name:2`; shortcuts — the later registration wins. Every
// conflict becomes one warning naming both files.
import type { LoadedExtension, RegisteredTool } from "./extension.js";
import type { ExtensionFlag, ExtensionShortcut, RegisteredCommand } from "./types.js";

/** A command as invoked: duplicates across extensions get `name:1`, `name:2` in load order. */
export interface ResolvedCommand extends RegisteredCommand {
	invocationName: string;
	extensionPath: string;
}

export function resolveTools(extensions: readonly LoadedExtension[]): RegisteredTool[] {
	const byName = new Map<string, RegisteredTool>();
	for (const ext of extensions) {
		for (const tool of ext.tools.values())
			if (!byName.has(tool.definition.name)) byName.set(tool.definition.name, tool);
	}
	return [...byName.values()];
}

export function resolveCommands(extensions: readonly LoadedExtension[]): ResolvedCommand[] {
	const counts = new Map<string, number>();
	for (const ext of extensions) for (const name of ext.commands.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
	const seen = new Map<string, number>();
	const out: ResolvedCommand[] = [];
	for (const ext of extensions) {
		for (const command of ext.commands.values()) {
			const n = (seen.get(command.name) ?? 0) + 1;
			seen.set(command.name, n);
			const invocationName = (counts.get(command.name) ?? 0) > 1 ? `${command.name}:${n}` : command.name;
			out.push({ ...command, invocationName, extensionPath: ext.path });
		}
	}
	return out;
}

export function resolveFlags(extensions: readonly LoadedExtension[]): ExtensionFlag[] {
	const byName = new Map<string, ExtensionFlag>();
	for (const ext of extensions) for (const f of ext.flags.values()) if (!byName.has(f.name)) byName.set(f.name, f);
	return [...byName.values()];
}

export function resolveShortcuts(extensions: readonly LoadedExtension[]): ExtensionShortcut[] {
	const byKey = new Map<string, ExtensionShortcut>();
	for (const ext of extensions) for (const s of ext.shortcuts.values()) byKey.set(s.shortcut, s);
	return [...byKey.values()];
}

/** The first extension (load order) for which `pick` finds something. */
export function firstRegistered<T>(
	extensions: readonly LoadedExtension[],
	pick: (ext: LoadedExtension) => T | undefined,
): T | undefined {
	for (const ext of extensions) {
		const found = pick(ext);
		if (found) return found;
	}
	return undefined;
}

/** One warning per duplicate registration, naming both files and how it is resolved. */
export function findConflicts(extensions: readonly LoadedExtension[]): string[] {
	const warnings: string[] = [];
	const owners = {
		tool: new Map<string, string>(),
		command: new Map<string, string>(),
		flag: new Map<string, string>(),
		shortcut: new Map<string, string>(),
	};
	const note = (seen: Map<string, string>, kind: string, name: string, path: string, resolution: string) => {
		const first = seen.get(name);
		if (first === undefined) seen.set(name, path);
		else if (first !== path)
			warnings.push(`Extension ${kind} ${name} is registered by both ${first} and ${path}; ${resolution}.`);
	};
	for (const ext of extensions) {
		for (const name of ext.tools.keys()) note(owners.tool, "tool", name, ext.path, "the first one is used");
		for (const name of ext.commands.keys()) {
			note(owners.command, "command", `/${name}`, ext.path, `both are kept as /${name}:1 and /${name}:2 (load order)`);
		}
		for (const name of ext.flags.keys()) note(owners.flag, "flag", `--${name}`, ext.path, "the first one is used");
		for (const key of ext.shortcuts.keys()) note(owners.shortcut, "shortcut", key, ext.path, "the later one is used");
	}
	return warnings;
}
