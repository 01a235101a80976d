// The commands RPC `get_commands` lists besides extension commands, as the
// reference does: prompt templates (`/name`), then skills (`/skill:name`),
// each with where it came from. A client runs one by sending `/name args` as
// a prompt.
import type { ResourceOrigin } from "../../resources/diagnostics.js";
import type { ResourceLoader } from "../../resources/resource-loader.js";
import type { RpcSlashCommand } from "./rpc-types.js";

type SourceInfo = RpcSlashCommand["sourceInfo"];

/** The reference's sourceInfo shape for one of our resource origins. */
export function sourceInfoOf(path: string, origin: ResourceOrigin | undefined): SourceInfo {
	switch (origin?.source) {
		case "cli":
			return { path, source: "cli", scope: "temporary", origin: "top-level" };
		case "project":
			return { path, source: "local", scope: "project", origin: "top-level" };
		case "package":
			return { path, source: origin.owner ?? "package", scope: "user", origin: "package", baseDir: origin.owner };
		case "extension":
			return { path, source: origin.owner ?? "extension", scope: "temporary", origin: "top-level" };
		default:
			return { path, source: "local", scope: "user", origin: "top-level" };
	}
}

export function resourceCommands(resources: ResourceLoader): RpcSlashCommand[] {
	const commands: RpcSlashCommand[] = [];
	for (const t of resources.getPromptTemplates?.() ?? []) {
		commands.push({
			name: t.name,
			description: t.description,
			source: "prompt",
			sourceInfo: sourceInfoOf(t.filePath, t.origin),
		});
	}
	const skills: { name: string; description: string; filePath: string; origin?: ResourceOrigin }[] =
		resources.getSkillDetails?.() ?? resources.getSkills();
	for (const s of skills) {
		commands.push({
			name: `skill:${s.name}`,
			description: s.description,
			source: "skill",
			sourceInfo: sourceInfoOf(s.filePath, s.origin),
		});
	}
	return commands;
}
