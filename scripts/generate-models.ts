// Generates packages/ai/src/models/catalog.generated.ts from the committed
// catalog data (packages/ai/models/catalog.yaml). No network: the YAML file is
// the only input. Run: `npx tsx scripts/generate-models.ts` (add `--check` to
// fail instead of writing when the generated module is stale).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { writeOrCheckGenerated } from "./generated-file.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CATALOG_DATA_PATH = join(root, "packages/ai/models/catalog.yaml");
export const CATALOG_MODULE_PATH = join(root, "packages/ai/src/models/catalog.generated.ts");

const APIS = [
	"openai-completions",
	"openai-responses",
	"anthropic-messages",
	"google-generative-ai",
	"openai-codex-responses",
	"azure-openai-responses",
	"mistral-conversations",
	"bedrock-converse-stream",
	"google-vertex",
];
// APIs whose endpoint comes from the user's environment (a cloud resource or region), so the
// catalog may leave baseUrl empty.
const ENDPOINT_FROM_ENV = ["azure-openai-responses", "google-vertex"];
const LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];
const INPUTS = ["text", "image"];
// Compat flags the adapters understand, with the type of their value.
const COMPAT_FLAGS: Record<string, "boolean" | string[] | "object"> = {
	supportsStore: "boolean",
	supportsDeveloperRole: "boolean",
	supportsReasoningEffort: "boolean",
	supportsUsageInStreaming: "boolean",
	maxTokensField: ["max_completion_tokens", "max_tokens"],
	requiresToolResultName: "boolean",
	requiresAssistantAfterToolResult: "boolean",
	requiresThinkingAsText: "boolean",
	requiresReasoningContentOnAssistantMessages: "boolean",
	thinkingFormat: ["openai", "openrouter", "deepseek", "zai", "qwen", "qwen-chat-template"],
	supportsStrictMode: "boolean",
	openRouterRouting: "object",
	cacheControlFormat: ["anthropic"],
	supportsLongCacheRetention: "boolean",
	supportsEagerToolInputStreaming: "boolean",
	sendSessionIdHeader: "boolean",
};

/** One model as stored in the generated module; provider-wide fields are filled in at load time. */
export interface CompactModel {
	id: string;
	name: string;
	reasoning: boolean;
	input: string[];
	contextWindow: number;
	maxTokens: number;
	cost: [number, number, number, number];
	thinkingLevelMap?: Record<string, string | null>;
	compat?: Record<string, unknown>;
	promptCache?: { short?: number; long?: number };
	api?: string;
	baseUrl?: string;
}

export interface CompactProvider {
	provider: string;
	api: string;
	baseUrl: string;
	compat?: Record<string, unknown>;
	models: CompactModel[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Validates the parsed YAML and normalises it; throws listing every problem found. */
export function normalizeCatalog(data: unknown): CompactProvider[] {
	const problems: string[] = [];
	const fail = (path: string, message: string) => problems.push(`${path}: ${message}`);
	const out: CompactProvider[] = [];
	if (!isObj(data) || !isObj(data.providers)) throw new Error("catalog: expected a `providers` mapping");

	const checkUrl = (path: string, v: unknown): v is string => {
		if (typeof v !== "string" || !/^https?:\/\//.test(v) || !URL.canParse(v)) {
			fail(path, "expected an http(s) URL");
			return false;
		}
		return true;
	};
	const checkCompat = (path: string, v: unknown): Obj | undefined => {
		if (v === undefined) return undefined;
		if (!isObj(v)) {
			fail(path, "expected a mapping");
			return undefined;
		}
		for (const [key, value] of Object.entries(v)) {
			const kind = COMPAT_FLAGS[key];
			if (!kind) fail(`${path}.${key}`, "unknown compat flag");
			else if (
				kind === "object"
					? !isObj(value)
					: Array.isArray(kind)
						? !kind.includes(value as string)
						: typeof value !== kind
			)
				fail(`${path}.${key}`, `expected ${Array.isArray(kind) ? kind.join(" | ") : kind}`);
		}
		return v;
	};
	// Prompt cache lifetimes in seconds per retention tier (`short`, `long`).
	const checkPromptCache = (path: string, v: unknown): { short?: number; long?: number } | undefined => {
		if (v === undefined) return undefined;
		if (!isObj(v)) {
			fail(path, "expected a mapping of short/long to seconds");
			return undefined;
		}
		const out: { short?: number; long?: number } = {};
		for (const [tier, seconds] of Object.entries(v)) {
			if (tier !== "short" && tier !== "long") fail(`${path}.${tier}`, "expected short or long");
			else if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds <= 0)
				fail(`${path}.${tier}`, "expected a positive whole number of seconds");
			else out[tier] = seconds;
		}
		return out;
	};

	for (const [provider, p] of Object.entries(data.providers)) {
		const pp = `providers.${provider}`;
		if (!isObj(p)) {
			fail(pp, "expected a mapping");
			continue;
		}
		if (!APIS.includes(p.api as string)) fail(`${pp}.api`, `expected one of ${APIS.join(", ")}`);
		if (!(ENDPOINT_FROM_ENV.includes(p.api as string) && p.baseUrl === "")) checkUrl(`${pp}.baseUrl`, p.baseUrl);
		const compat = checkCompat(`${pp}.compat`, p.compat);
		const defaults = isObj(p.defaults) ? p.defaults : {};
		const defaultPromptCache = checkPromptCache(`${pp}.defaults.promptCache`, defaults.promptCache);
		if (!Array.isArray(p.models) || p.models.length === 0) {
			fail(`${pp}.models`, "expected a non-empty list");
			continue;
		}
		const seen = new Set<string>();
		const models: CompactModel[] = [];
		for (const [i, m] of (p.models as unknown[]).entries()) {
			const mp = `${pp}.models[${i}]`;
			if (!isObj(m)) {
				fail(mp, "expected a mapping");
				continue;
			}
			const known = [
				"id",
				"name",
				"reasoning",
				"input",
				"context",
				"output",
				"cost",
				"thinking",
				"compat",
				"promptCache",
				"api",
				"baseUrl",
			];
			for (const key of Object.keys(m)) if (!known.includes(key)) fail(`${mp}.${key}`, "unknown field");
			const id = m.id;
			if (typeof id !== "string" || id === "") {
				fail(`${mp}.id`, "expected a non-empty string");
				continue;
			}
			if (seen.has(id)) fail(`${mp}.id`, `duplicate id ${id}`);
			seen.add(id);
			const reasoning = m.reasoning ?? defaults.reasoning;
			if (typeof reasoning !== "boolean") fail(`${mp}.reasoning`, "expected true or false");
			const input = m.input ?? defaults.input;
			if (!Array.isArray(input) || !input.includes("text") || input.some((x) => !INPUTS.includes(x)))
				fail(`${mp}.input`, "expected [text] or [text, image]");
			for (const key of ["context", "output"]) {
				if (!Number.isInteger(m[key]) || (m[key] as number) <= 0) fail(`${mp}.${key}`, "expected a positive integer");
			}
			if ((m.output as number) > (m.context as number)) fail(`${mp}.output`, "larger than the context window");
			const cost = m.cost;
			if (!Array.isArray(cost) || cost.length !== 4 || cost.some((c) => typeof c !== "number" || !(c >= 0)))
				fail(`${mp}.cost`, "expected [input, output, cacheRead, cacheWrite], non-negative numbers");
			if (typeof m.name !== "string" || m.name === "") fail(`${mp}.name`, "expected a non-empty string");
			let thinking: Record<string, string | null> | undefined;
			if (m.thinking !== undefined) {
				if (!isObj(m.thinking)) fail(`${mp}.thinking`, "expected a mapping");
				else {
					thinking = {};
					for (const [level, value] of Object.entries(m.thinking)) {
						if (!LEVELS.includes(level)) fail(`${mp}.thinking.${level}`, "unknown thinking level");
						else if (value !== null && typeof value !== "string")
							fail(`${mp}.thinking.${level}`, "expected a string or null");
						else thinking[level] = value;
					}
					if (!reasoning) fail(`${mp}.thinking`, "a model without reasoning takes no thinking map");
				}
			}
			if (m.api !== undefined && !APIS.includes(m.api as string))
				fail(`${mp}.api`, `expected one of ${APIS.join(", ")}`);
			if (m.baseUrl !== undefined) checkUrl(`${mp}.baseUrl`, m.baseUrl);
			const modelCompat = checkCompat(`${mp}.compat`, m.compat);
			const promptCache = checkPromptCache(`${mp}.promptCache`, m.promptCache) ?? defaultPromptCache;
			const row: CompactModel = {
				id,
				name: m.name as string,
				reasoning: reasoning as boolean,
				input: input as string[],
				contextWindow: m.context as number,
				maxTokens: m.output as number,
				cost: cost as CompactModel["cost"],
			};
			if (thinking) row.thinkingLevelMap = thinking;
			if (modelCompat) row.compat = modelCompat;
			if (promptCache) row.promptCache = promptCache;
			if (m.api !== undefined) row.api = m.api as string;
			if (m.baseUrl !== undefined) row.baseUrl = m.baseUrl as string;
			models.push(row);
		}
		const entry: CompactProvider = { provider, api: p.api as string, baseUrl: p.baseUrl as string, models };
		if (compat) entry.compat = compat;
		out.push(entry);
	}
	if (problems.length > 0) throw new Error(`catalog has ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
	return out;
}

// Inside a template literal, backslashes, backticks and `${` need escaping.
const templateEscape = (s: string) => s.replace(/[\\`]/g, "\\$&").replace(/\$\{/g, "\\${");
const quote = (s: string) => JSON.stringify(s);

/** The TypeScript source of the generated module for the given catalog YAML text. */
export function renderCatalogModule(yamlText: string): string {
	const providers = normalizeCatalog(parse(yamlText));
	const lines: string[] = [
		"// Generated by scripts/generate-models.ts from packages/ai/models/catalog.yaml. Do not edit:",
		"// change the YAML and run `npx tsx scripts/generate-models.ts`.",
		"",
		"/** Built-in model ids by provider; `getModel()` autocompletes from this. */",
		"export interface KnownModels {",
	];
	for (const p of providers) {
		lines.push(`\t${quote(p.provider)}:`);
		for (const [i, m] of p.models.entries()) lines.push(`\t\t| ${quote(m.id)}${i === p.models.length - 1 ? ";" : ""}`);
	}
	lines.push(
		"}",
		"",
		"/** The wire API of each built-in provider's models. */",
		"export interface KnownProviderApis {",
	);
	for (const p of providers) {
		const apis = [...new Set([p.api, ...p.models.map((m) => m.api ?? p.api)])];
		lines.push(`\t${quote(p.provider)}: ${apis.map(quote).join(" | ")};`);
	}
	lines.push(
		"}",
		"",
		"/**",
		" * The catalog as JSON text, one model per line. Kept as a string so importing",
		" * pi-ai costs a string scan; catalog.ts parses it on the first catalog call.",
		" */",
		"export const CATALOG_JSON = `[",
	);
	for (const [pi, p] of providers.entries()) {
		const { models, ...head } = p;
		const headJson = JSON.stringify(head);
		lines.push(templateEscape(`${headJson.slice(0, -1)},"models":[`));
		for (const [mi, m] of models.entries())
			lines.push(templateEscape(JSON.stringify(m) + (mi === models.length - 1 ? "" : ",")));
		lines.push(pi === providers.length - 1 ? "]}" : "]},");
	}
	lines.push("]`;", "");
	return lines.join("\n");
}

function main(): void {
	writeOrCheckGenerated(
		CATALOG_MODULE_PATH,
		renderCatalogModule(readFileSync(CATALOG_DATA_PATH, "utf8")),
		"npx tsx scripts/generate-models.ts",
	);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
