// What the model is declared, as the active tools' `prepareLoadout` hooks
// shape it: an orchestrating tool (codemode) may replace declared tools'
// descriptions and hide active tools' declarations while they stay active
// and callable through `ctx.executeTool`. AgentSession asks for the shaped
// list before every request and when it records the prompt and tools; the
// hooks run again only when the active tools, the registered tools or the
// settings the hooks read changed.
import type { AgentTool } from "@pi/agent-core";
import type { ExtensionRunner } from "../extensions/runner.js";
import type { PrepareLoadout, ToolInfo, ToolLoadout } from "../extensions/types.js";
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

/** A small number per object, so a cache key can name "this very definition" (a re-registration is a new object). */
const identities = new WeakMap<object, number>();
let nextIdentity = 1;
function identity(o: object): number {
	let id = identities.get(o);
	if (id === undefined) {
		id = nextIdentity++;
		identities.set(o, id);
	}
	return id;
}

/**
 * The declaration shaper the extension bridge installs on the session. A
 * hook that throws is reported once per message and leaves the loadout as
 * it was for that tool.
 *
 * The hooks run when what they see changes, not before every request: the
 * result is kept under a key made of the active tools, every registered
 * tool (a tool registered again, as MCP does after a tool-list change, is a
 * new definition), and each hook tool's `loadoutKey()` (the settings its
 * hook reads).
 */
export function createDeclarationShaper(
	session: AgentSession,
	runner: ExtensionRunner,
): (active: readonly AnyTool[]) => AnyTool[] {
	const reported = new Set<string>();
	let cached: { key: string; result: AnyTool[] } | undefined;
	const shaper = (active: readonly AnyTool[]): AnyTool[] => {
		const registered = runner.getTools();
		const definitions = new Map(registered.map((t) => [t.definition.name, t]));
		const hooks = active.flatMap((t) => {
			const found = definitions.get(t.name);
			const hook = found?.definition.prepareLoadout;
			return hook ? [{ name: t.name, path: found.sourceInfo.path, hook, definition: found.definition }] : [];
		});
		if (hooks.length === 0) return [...active];
		const key = cacheKey(active, session, registered, hooks);
		if (key !== undefined && cached?.key === key) return cached.result;
		const result = shape(active, hooks);
		cached = key === undefined ? undefined : { key, result };
		return result;
	};

	function shape(active: readonly AnyTool[], hooks: { name: string; path: string; hook: PrepareLoadout }[]) {
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
	}
	return shaper;
}

/** What the hooks see, as a string; undefined (no caching) when a loadoutKey cannot be read. */
function cacheKey(
	active: readonly AnyTool[],
	session: AgentSession,
	registered: readonly { definition: { name: string; loadoutKey?: () => unknown } }[],
	hooks: readonly { definition: { loadoutKey?: () => unknown } }[],
): string | undefined {
	try {
		const parts = [
			active.map((t) => `${t.name}#${identity(t)}`).join(","),
			session
				.getAllTools()
				.map((t) => `${t.name}#${identity(t)}`)
				.join(","),
			registered.map((t) => `${t.definition.name}#${identity(t.definition)}`).join(","),
			JSON.stringify(hooks.map((h) => h.definition.loadoutKey?.() ?? null)),
		];
		return parts.join("|");
	} catch {
		return undefined;
	}
}
