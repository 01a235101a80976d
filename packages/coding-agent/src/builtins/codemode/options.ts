// The optional first line of a script: `// @options: {"max_output_tokens": 2000, "timeout_ms": 60000}`.
// Only the first line may carry it; the same marker anywhere else fails the
// call before the script runs, so a misplaced line is never silently ignored.

export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
/** Wall time of a script when its options set none (10 minutes): a limit always applies. */
export const DEFAULT_TIMEOUT_MS = 600_000;

export interface ScriptOptions {
	maxOutputTokens: number;
	timeoutMs: number;
	/** Whether `timeout_ms` was given (the result says which limit applied). */
	explicitTimeout: boolean;
}

const MARKER = /^\s*\/\/\s*@options:/;

export function parseScriptOptions(code: string): { options: ScriptOptions } | { error: string } {
	const options: ScriptOptions = {
		maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
		timeoutMs: DEFAULT_TIMEOUT_MS,
		explicitTimeout: false,
	};
	const lines = code.split("\n");
	const misplaced = lines.findIndex((line, i) => i > 0 && MARKER.test(line));
	if (misplaced > 0) {
		return { error: `An // @options: line must be the script's first line (found on line ${misplaced + 1}).` };
	}
	const first = lines[0] ?? "";
	if (!MARKER.test(first)) return { options };
	const json = first.replace(MARKER, "").trim();
	let parsed: unknown;
	try {
		parsed = JSON.parse(json);
	} catch (error) {
		return { error: `The // @options: line is not valid JSON: ${(error as Error).message}` };
	}
	if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
		return { error: "The // @options: line must hold a JSON object." };
	}
	for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
		if (key !== "max_output_tokens" && key !== "timeout_ms") {
			return { error: `Unknown option "${key}" in the // @options: line; known: max_output_tokens, timeout_ms.` };
		}
		if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
			return { error: `Option ${key} must be a positive integer.` };
		}
		if (key === "max_output_tokens") options.maxOutputTokens = value;
		else {
			options.timeoutMs = value;
			options.explicitTimeout = true;
		}
	}
	return { options };
}
