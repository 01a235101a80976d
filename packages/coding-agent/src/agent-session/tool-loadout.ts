// What the model is declared, as the active tools' `prepareLoadout` hooks
// shape it: an orchestrating tool (codemode) may replace declared tools'
// descriptions and hide active tools' declarations while they stay active
// and callable through `ctx.executeTool`. AgentSession asks for the shaped
// list before every request and when it records the prompt and tools.
import type { AgentTool } from "@pi/agent-core";
import type { ExtensionRunner } from "../extensions/runner.js";
import type { ToolInfo, ToolLoadout } from "../extensions/types.js";
import type { AgentSession } from "./agent-session.js";

// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live side by side
type AnyTool = AgentTool<any>;

/** Every tool of the session as `pi.getAllTools()` reports it. */
export function describeTools(session: AgentSession, runner: ExtensionRunner): ToolInfo[] {
	const fromExtensions = new Map(runner.getTools().map((t) => [t.definition.name, t]));
	return session.getAllTools().map((tool): ToolInfo => {
		const ext = fromExtensions.get(tool.name);
		const guidelines = ext?.definition.promptGuidelines ?? (tool as { promptGuidelines?: string[] }).promptGuidelines;
		return {
			name: tool.name,
			description: tool.description,
			parameters: tool.parameters,
			...(guidelines ? { promptGuidelines: guidelines } : {}),
			exposure: ext?.definition.exposure ?? "direct",
			...(ext?.definition.namespace ? { namespace: ext.definition.namespace } : {}),
			...(ext?.definition.annotations ? { annotations: ext.definition.annotations } : {}),
			...(ext?.definition.reachesTools ? { reachesTools: ext.definition.reachesTools } : {}),
			sourceInfo: ext?.sourceInfo ?? {
				path: `builtin:${tool.name}`,
				source: "builtin",
				scope: "temporary",
				origin: "top-level",
			},
		};
	});
}

/**
 * The declaration shaper the extension bridge installs on the session. A
 * hook that throws is reported once per message and leaves the loadout as
 * it was for that tool.
 */
export function createDeclarationShaper(
	session: AgentSession,
	runner: ExtensionRunner,
): (active: readonly AnyTool[]) => AnyTool[] {
	const reported = new Set<string>();
	return (active) => {
		const definitions = new Map(runner.getTools().map((t) => [t.definition.name, t]));
		const hooks = active.flatMap((t) => {
			const registered = definitions.get(t.name);
			const hook = registered?.definition.prepareLoadout;
			return hook ? [{ name: t.name, path: registered.sourceInfo.path, hook }] : [];
		});
		if (hooks.length === 0) return [...active];
		const all = describeTools(session, runner);
		const activeNames = new Set(active.map((t) => t.name));
		const loadout: ToolLoadout = {
			declared: active.flatMap((t) => all.filter((i) => i.name === t.name)),
			callable: all.filter(
				(t) =>
					t.exposure !== "hidden" &&
					t.exposure !== "model-only" &&
					(t.exposure === "codemode" || t.exposure === "deferred" || activeNames.has(t.name)),
			),
			all,
		};
		const descriptions = new Map<string, string>();
		const hidden = new Set<string>();
		for (const { name, path, hook } of hooks) {
			try {
				const changes = hook(loadout);
				for (const [tool, text] of Object.entries(changes?.descriptions ?? {})) descriptions.set(tool, text);
				for (const tool of changes?.hiddenDeclarations ?? []) hidden.add(tool);
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				if (reported.has(message)) continue;
				reported.add(message);
				runner.emitError({ extensionPath: path, event: `prepareLoadout (${name})`, error: message });
			}
		}
		return active
			.filter((t) => !hidden.has(t.name))
			.map((t) => {
				const text = descriptions.get(t.name);
				return text === undefined ? t : { ...t, description: text };
			});
	};
}
