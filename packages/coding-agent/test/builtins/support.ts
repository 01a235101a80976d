// A session with the bundled extensions loaded in-process: the scripted fake
// stream from the agent-session tests, an ExtensionRunner built from the
// given factories, and the real ExtensionBridge that wires them together.
import type { AgentTool } from "@pi/agent-core";
import { type Context, type Model, normalizeContext, replaySystemState } from "@pi/ai";
import { ExtensionBridge } from "../../src/agent-session/extension-bridge.js";
import { SettingsManager } from "../../src/config/settings.js";
import type { Settings } from "../../src/config/settings-schema.js";
import { createNoUIContext } from "../../src/extensions/no-ui.js";
import type { ExtensionAPI } from "../../src/extensions/types.js";
import { makeSession } from "../agent-session/support.js";
import { inMemoryExtensions } from "../extensions/helpers.js";

export async function sessionWithExtensions(
	factories: Record<string, (pi: ExtensionAPI) => void>,
	options: {
		customTools?: AgentTool[];
		tools?: string[];
		/** The starting model (e.g. one pointing at a local fake provider server). */
		model?: Model;
		/** Send requests with pi-ai's real stream instead of the scripted in-process one. */
		realStream?: boolean;
		/** settings.json contents for the session. */
		settings?: Record<string, unknown>;
	} = {},
) {
	const made = await makeSession({
		...(options.customTools ? { customTools: options.customTools } : {}),
		...(options.tools ? { tools: options.tools } : {}),
		...(options.model ? { model: options.model } : {}),
		...(options.realStream ? { streamFn: undefined } : {}),
		...(options.settings ? { settingsManager: SettingsManager.inMemory(options.settings as Settings) } : {}),
	});
	const { runner, errors } = inMemoryExtensions(factories);
	const bridge = new ExtensionBridge({
		session: made.session,
		runner,
		mode: "print",
		ui: createNoUIContext(),
		hasUI: false,
		projectTrusted: true,
	});
	await bridge.start();
	return { ...made, runner, bridge, errors };
}

/**
 * The tools one recorded request really declares: its shorthand tools folded
 * into the head, then the recorded system messages (added/removed) replayed.
 */
export function requestTools(context: Context): { name: string; description: string }[] {
	return replaySystemState(normalizeContext(context).messages).tools;
}

/** Names of the tools declared in one recorded request. */
export function declaredTools(context: { tools?: { name: string }[] }): string[] {
	return (context.tools ?? []).map((t) => t.name).sort();
}
