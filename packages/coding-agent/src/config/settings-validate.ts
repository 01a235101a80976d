// Runtime type check of a settings file against the known keys of
// settings-schema.ts. A hand-edited file can hold anything (`"sessionDir": {}`);
// a wrong-typed known key is dropped from what this process uses, with a
// message naming the key, what it must be and what was found. Unknown keys
// (extensions, newer versions) are kept untouched; the file itself is never
// changed here.
import { isPlainObject } from "./json-file.js";

type Rule =
	| "string"
	| "boolean"
	| "number"
	| "string[]"
	| { oneOf: readonly string[] }
	| { object: Record<string, Rule> }
	| { record: Rule }
	| "packages";

const THINKING = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

const RULES: Record<string, Rule> = {
	defaultProjectTrust: { oneOf: ["ask", "always", "never"] },
	defaultProvider: "string",
	defaultModel: "string",
	defaultThinkingLevel: { oneOf: THINKING },
	hideThinkingBlock: "boolean",
	showCacheMissNotices: "boolean",
	cacheWarming: { oneOf: ["off", "streaming", "idle"] },
	thinkingBudgets: { record: "number" },
	transport: { oneOf: ["sse", "websocket", "websocket-cached", "auto"] },
	steeringMode: { oneOf: ["all", "one-at-a-time"] },
	followUpMode: { oneOf: ["all", "one-at-a-time"] },
	theme: "string",
	quietStartup: "boolean",
	collapseChangelog: "boolean",
	enableInstallTelemetry: "boolean",
	doubleEscapeAction: { oneOf: ["tree", "fork", "none"] },
	treeFilterMode: { oneOf: ["default", "no-tools", "user-only", "labeled-only", "all"] },
	editorPaddingX: "number",
	autocompleteMaxVisible: "number",
	showHardwareCursor: "boolean",
	warnings: { object: { anthropicExtraUsage: "boolean" } },
	compaction: { object: { enabled: "boolean", reserveTokens: "number", keepRecentTokens: "number" } },
	branchSummary: { object: { reserveTokens: "number", skipPrompt: "boolean" } },
	retry: {
		object: {
			enabled: "boolean",
			maxRetries: "number",
			baseDelayMs: "number",
			maxAgentDelayMs: "number",
			provider: {
				object: {
					timeoutMs: "number",
					maxRetries: "number",
					maxRetryDelayMs: "number",
					maxResponseBytes: "number",
					maxResponseMs: "number",
				},
			},
		},
	},
	terminal: {
		object: {
			showImages: "boolean",
			imageWidthCells: "number",
			clearOnShrink: "boolean",
			showTerminalProgress: "boolean",
		},
	},
	images: { object: { autoResize: "boolean", blockImages: "boolean" } },
	shellPath: "string",
	shellCommandPrefix: "string",
	npmCommand: "string[]",
	selfUpdateCommand: "string[]",
	sessionDir: "string",
	enabledModels: "string[]",
	markdown: { object: { codeBlockIndent: "string" } },
	packages: "packages",
	extensions: "string[]",
	skills: "string[]",
	prompts: "string[]",
	themes: "string[]",
	enableSkillCommands: "boolean",
	lastChangelogVersion: "string",
};

function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "object") return "an object";
	if (typeof value === "string")
		return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
	return `${typeof value} ${String(value)}`;
}

function expected(rule: Rule): string {
	if (rule === "string[]") return "an array of strings";
	if (rule === "packages") return "an array of package sources (strings or objects with a string `source`)";
	if (typeof rule === "string") return rule === "number" ? "a number" : `a ${rule}`;
	if ("oneOf" in rule) return `one of ${rule.oneOf.map((v) => JSON.stringify(v)).join(", ")}`;
	return "an object";
}

function matches(rule: Rule, value: unknown): boolean {
	switch (rule) {
		case "string":
			return typeof value === "string";
		case "boolean":
			return typeof value === "boolean";
		case "number":
			return typeof value === "number" && Number.isFinite(value);
		case "string[]":
			return Array.isArray(value) && value.every((v) => typeof v === "string");
		case "packages":
			return (
				Array.isArray(value) &&
				value.every((v) => typeof v === "string" || (isPlainObject(v) && typeof v.source === "string"))
			);
		default:
			if ("oneOf" in rule) return typeof value === "string" && rule.oneOf.includes(value);
			return isPlainObject(value);
	}
}

/**
 * Removes wrong-typed known keys from `data` (in place) and returns one
 * message per removed key, e.g. `"sessionDir" must be a string, found an object`.
 */
export function dropInvalidSettings(data: Record<string, unknown>): string[] {
	const problems: string[] = [];
	const walk = (obj: Record<string, unknown>, rules: Record<string, Rule>, prefix: string) => {
		for (const [key, rule] of Object.entries(rules)) {
			if (!Object.hasOwn(obj, key) || obj[key] === undefined) continue;
			const value = obj[key];
			const name = `${prefix}${key}`;
			if (!matches(rule, value)) {
				problems.push(`"${name}" must be ${expected(rule)}, found ${describe(value)}`);
				delete obj[key];
				continue;
			}
			if (typeof rule === "object" && "object" in rule) walk(value as Record<string, unknown>, rule.object, `${name}.`);
			if (typeof rule === "object" && "record" in rule) {
				const inner = value as Record<string, unknown>;
				for (const [k, v] of Object.entries(inner)) {
					if (!matches(rule.record, v)) {
						problems.push(`"${name}.${k}" must be ${expected(rule.record)}, found ${describe(v)}`);
						delete inner[k];
					}
				}
			}
		}
	};
	walk(data, RULES, "");
	return problems;
}
