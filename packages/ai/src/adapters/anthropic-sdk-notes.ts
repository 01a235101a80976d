import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { AssistantStreamWriter } from "../stream-writer.js";

/**
 * The official SDK's `messages.create()` checks the model id against its own tables and
 * `console.warn()`s (not through its `logger` option, which only carries its HTTP logging)
 * when the model is deprecated, or when `thinking.type` is "enabled" on a model that should
 * use "adaptive". On stderr that text breaks `-p` output and lands over the interactive
 * screen. The adapter therefore sends through `client.post()` (what `create()` sends, minus
 * those checks), and this module makes the same facts diagnostics on the message.
 */
interface SdkTables {
	DEPRECATED_MODELS: Record<string, string>;
	MODELS_TO_WARN_WITH_THINKING_ENABLED: readonly string[];
}

let tables: SdkTables | null | undefined;

/** The SDK's tables (not in its `exports` map, so read by path next to its entry point); null if it moved them. */
function sdkTables(): SdkTables | null {
	if (tables !== undefined) return tables;
	try {
		const require = createRequire(import.meta.url);
		const loaded = require(join(dirname(require.resolve("@anthropic-ai/sdk")), "internal", "data.js")) as SdkTables;
		tables =
			loaded &&
			typeof loaded.DEPRECATED_MODELS === "object" &&
			Array.isArray(loaded.MODELS_TO_WARN_WITH_THINKING_ENABLED)
				? loaded
				: null;
	} catch {
		// An SDK release that moved its tables: no notes, and still nothing on stderr.
		tables = null;
	}
	return tables;
}

/** Records, as diagnostics on the message, what the SDK would have printed for this request body. */
export function noteSdkWarnings(
	writer: AssistantStreamWriter,
	body: { model: string; thinking?: { type?: string } | null },
): void {
	const t = sdkTables();
	if (!t) return;
	const endOfLife = Object.hasOwn(t.DEPRECATED_MODELS, body.model) ? t.DEPRECATED_MODELS[body.model] : undefined;
	if (endOfLife !== undefined) writer.addDiagnostic("anthropic_model_deprecated", { model: body.model, endOfLife });
	if (t.MODELS_TO_WARN_WITH_THINKING_ENABLED.includes(body.model) && body.thinking?.type === "enabled") {
		writer.addDiagnostic("anthropic_thinking_enabled_deprecated", { model: body.model, preferred: "adaptive" });
	}
}
