import type { ArgumentValidation } from "./validation.js";
import { isPlainValid } from "./validation-fast.js";

// The loop's way into argument validation. Most calls are valid as sent,
// against schemas of a few plain keywords: `isPlainValid` proves those on its
// own, and TypeBox's compiler (validation.ts, ~200 KB of code with the
// validator it generates per tool) is loaded only for a call it cannot prove
// valid — which is also where repairs and error messages are made.

/** Validates (and safely coerces) a tool call's arguments. Never rejects; `args` is not mutated. */
export async function validateToolArguments(
	toolName: string,
	schema: object,
	args: unknown,
): Promise<ArgumentValidation> {
	if (isPlainValid(schema, args)) return { ok: true, value: args };
	try {
		const { validateArguments } = await import("./validation.js");
		return validateArguments(toolName, schema, args);
	} catch (error) {
		const text = error instanceof Error ? error.message : String(error);
		return { ok: false, message: `Tool "${toolName}": the argument validator failed to load: ${text}` };
	}
}
