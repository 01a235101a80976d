// `pi config [-l]`: switch each resource of each installed package on or off.
// The screen (modes/interactive/package-config.ts) shows one scope at a time;
// each switch rewrites that package's settings entry (only the `packages` key,
// under the settings lock, file replaced atomically).
import { getAgentDir } from "../../config/paths.js";
import { resolveProjectTrust } from "../../config/project-trust.js";
import { BUILTIN_IDENTITY, builtinRows, toggleBuiltin } from "../../packages/builtin-config.js";
import { buildConfigView, toggleResource, type UserBase } from "../../packages/config-model.js";
import type { InstallContext } from "../../packages/install.js";
import {
	editPackageEntries,
	editSettingsArray,
	entrySource,
	readPackageEntries,
	readSettingsStrings,
	settingsLocation,
} from "../../packages/settings-file.js";
import { parseSource, sourceIdentity } from "../../packages/source.js";
import { BUILTIN_EXTENSION_NAMES } from "../builtin-extensions.js";
import type { CommandIo } from "./io.js";

const HELP = `Usage: pi config [-l]

Switches each resource (extension, skill, prompt template, theme) of each installed package, and
each extension bundled with pi, on or off. Changes are saved at once: as filters on the package's
settings entry, and for a bundled extension as -builtin:<name> (or +builtin:<name>) in "extensions".

Keys: ↑↓ move · space/enter switch · tab user/project settings · esc quit

Options:
  -l, --local    Start with the project's .pi/settings.json
  -h, --help     Show this help
`;

export async function runConfigCommand(argv: readonly string[], io: CommandIo): Promise<number> {
	let local = false;
	for (const arg of argv) {
		if (arg === "-h" || arg === "--help") {
			io.stdout.write(HELP);
			return 0;
		}
		if (arg === "-l" || arg === "--local") local = true;
		else {
			io.stderr.write(`Error: unknown argument ${arg}\n\n${HELP}`);
			return 1;
		}
	}
	if (!io.stdin.isTTY || !(io.stdout as { isTTY?: boolean }).isTTY) {
		io.stderr.write(
			"Error: pi config needs a terminal. Without one, edit the packages entries in settings.json (see pi list).\n",
		);
		return 1;
	}
	const agentDir = getAgentDir(io.env);
	const ctx: InstallContext = { agentDir, cwd: io.cwd, env: io.env };
	const trusted = resolveProjectTrust({ cwd: io.cwd, agentDir }).trusted;
	const { runPackageConfigScreen } = await import("../../modes/interactive/package-config.js");
	const userLocation = settingsLocation("user", agentDir, io.cwd);
	const userBase = (): UserBase => ({ entries: readPackageEntries(userLocation.file), location: userLocation });
	const userExtensions = () => readSettingsStrings(userLocation.file, "extensions");
	await runPackageConfigScreen({
		initialScope: local ? "project" : "user",
		load: (scope) => {
			const location = settingsLocation(scope, agentDir, io.cwd);
			const view = buildConfigView(readPackageEntries(location.file), location, ctx, userBase());
			const notes = [...view.problems];
			if (scope === "project" && !trusted) notes.push("This project is not trusted: its packages do not load yet.");
			const lists =
				scope === "user" ? [userExtensions()] : [userExtensions(), readSettingsStrings(location.file, "extensions")];
			return { file: location.file, rows: [...view.rows, ...builtinRows(BUILTIN_EXTENSION_NAMES, lists)], notes };
		},
		toggle: async (scope, row, enable) => {
			const location = settingsLocation(scope, agentDir, io.cwd);
			try {
				if (row.identity === BUILTIN_IDENTITY) {
					const inherited = scope === "user" ? [] : [userExtensions()];
					await editSettingsArray<string>(location.file, "extensions", (list) =>
						toggleBuiltin(
							list.filter((e) => typeof e === "string"),
							row.item,
							enable,
							inherited,
						),
					);
					return undefined;
				}
				const view = buildConfigView(readPackageEntries(location.file), location, ctx, userBase());
				const pkg = view.packages.find((p) => p.identity === row.identity);
				if (!pkg) return `${row.spec} is no longer in ${location.file}`;
				const written = await editPackageEntries(location.file, (entries) => {
					const at = entries.findIndex((e) => {
						try {
							return sourceIdentity(parseSource(entrySource(e), location.baseDir)) === row.identity;
						} catch {
							return false;
						}
					});
					if (at === -1) return undefined;
					entries[at] = toggleResource(entries[at], row.kind, row.item, pkg.available[row.kind], enable, pkg.userEntry);
					return entries;
				});
				return written ? undefined : `${row.spec} is no longer in ${location.file}`;
			} catch (error) {
				return (error as Error).message;
			}
		},
	});
	return 0;
}
