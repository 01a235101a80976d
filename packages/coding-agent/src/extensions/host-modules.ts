// The module names extensions import, mapped to this process's own modules
// (jiti's `virtualModules`): upstream's `@earendil-works/pi-*` names, the
// older `@mariozechner/pi-*` names, `typebox` and `@sinclair/typebox`. Using
// the live modules instead of aliases to files means an extension shares our
// classes and registries, and that the mapping holds the same way from
// source (tests) and from the bundled CLI, where no separate package files
// need to exist. Loaded only when at least one extension loads.
import type { TSchema } from "typebox";

/** A string enum as a plain `enum` schema, which every provider accepts (upstream pi-ai's helper). */
function stringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TSchema {
	return { type: "string", enum: [...values], ...options } as unknown as TSchema;
}

export async function loadHostModules(): Promise<Record<string, unknown>> {
	const [ai, agent, tui, typebox, typeboxValue, typeboxCompile, sdk, compat] = await Promise.all([
		import("@pi/ai"),
		import("@pi/agent-core"),
		import("@pi/tui"),
		import("typebox"),
		import("typebox/value"),
		import("typebox/compile"),
		import("./sdk-module.js"),
		import("./ai-compat.js"),
	]);
	// Upstream pi-ai re-exported TypeBox's Type for extensions; keep that view.
	// …and its helpers for custom streams (ProviderConfig.streamSimple), and
	// the legacy api-dispatch surface (streamSimple, registerApiProvider,
	// anthropicMessagesApi(), validateToolCall, …) that upstream's
	// custom-provider examples import.
	const aiView = {
		...ai,
		...compat.aiCompatFunctions(),
		Type: typebox.Type,
		StringEnum: stringEnum,
		createAssistantMessageEventStream: () => new ai.AssistantMessageEventStream(),
		getCurrentSystemPrompt: (messages: Parameters<typeof ai.replaySystemState>[0]) =>
			ai.replaySystemState(messages).systemPrompt,
		getCurrentTools: (messages: Parameters<typeof ai.replaySystemState>[0]) => ai.replaySystemState(messages).tools,
	};
	const modules: Record<string, unknown> = {
		typebox,
		"typebox/value": typeboxValue,
		"typebox/compile": typeboxCompile,
	};
	for (const scope of ["@earendil-works", "@mariozechner"]) {
		modules[`${scope}/pi-coding-agent`] = sdk;
		modules[`${scope}/pi-agent-core`] = agent;
		modules[`${scope}/pi-tui`] = tui;
		modules[`${scope}/pi-ai`] = aiView;
		modules[`${scope}/pi-ai/compat`] = aiView;
	}
	modules["@sinclair/typebox"] = typebox;
	modules["@sinclair/typebox/value"] = typeboxValue;
	modules["@sinclair/typebox/compile"] = typeboxCompile;
	return modules;
}
