// Turning what the user typed (--provider, --model, --models, settings) into a
// model and thinking level. Pure functions over a model list, so the rules are
// testable without a registry.
import { clampThinkingLevel, type Model, THINKING_LEVELS, type ThinkingLevel } from "@pi/ai";
import { picomatch } from "../lazy-cjs.js";
import { DEFAULT_THINKING_LEVEL } from "./settings-schema.js";

/** The model tried first for each provider when nothing is chosen, in preference order. */
export const DEFAULT_MODEL_PER_PROVIDER: ReadonlyArray<readonly [provider: string, modelId: string]> = [
	["amazon-bedrock", "us.anthropic.claude-opus-4-6-v1"],
	["anthropic", "claude-opus-4-7"],
	["openai", "gpt-5.4"],
	["azure", "gpt-5.4"],
	["azure-openai-responses", "gpt-5.4"],
	["openai-codex", "gpt-5.5"],
	["deepseek", "deepseek-v4-pro"],
	["google", "gemini-3.1-pro-preview"],
	["google-vertex", "gemini-3.1-pro-preview"],
	["github-copilot", "gpt-5.4"],
	["openrouter", "moonshotai/kimi-k2.6"],
	["vercel-ai-gateway", "zai/glm-5.1"],
	["xai", "grok-4.20-0309-reasoning"],
	["groq", "openai/gpt-oss-120b"],
	["cerebras", "zai-glm-4.7"],
	["zai", "glm-5.1"],
	["mistral", "devstral-medium-latest"],
	["minimax", "MiniMax-M2.7"],
	["minimax-cn", "MiniMax-M2.7"],
	["moonshotai", "kimi-k2.6"],
	["moonshotai-cn", "kimi-k2.6"],
	["huggingface", "moonshotai/Kimi-K2.6"],
	["fireworks", "accounts/fireworks/models/kimi-k2p6"],
	["opencode", "kimi-k2.6"],
	["opencode-go", "kimi-k2.6"],
	["kimi-coding", "kimi-for-coding"],
];

export function isThinkingLevel(value: string): value is ThinkingLevel {
	return (THINKING_LEVELS as readonly string[]).includes(value);
}

const key = (m: Pick<Model, "provider" | "id">) => `${m.provider}/${m.id}`;

/**
 * An exact reference: `provider/id` (case-insensitive), else a bare id that
 * only one provider has. Undefined when ambiguous or absent.
 */
export function findExactModel(reference: string, models: readonly Model[]): Model | undefined {
	const ref = reference.trim().toLowerCase();
	if (ref === "") return undefined;
	const canonical = models.filter((m) => key(m).toLowerCase() === ref);
	if (canonical.length > 0) return canonical.length === 1 ? canonical[0] : undefined;
	const byId = models.filter((m) => m.id.toLowerCase() === ref);
	return byId.length === 1 ? byId[0] : undefined;
}

/** Ids ending in -YYYYMMDD are dated snapshots; everything else is an alias (preferred). */
function isDated(id: string): boolean {
	return /-\d{8}$/.test(id);
}

/**
 * Fuzzy match: exact reference first, then a case-insensitive substring of id
 * or name. Among several hits an alias beats a dated snapshot, and the id that
 * sorts last (the newest) wins.
 */
export function matchModel(pattern: string, models: readonly Model[]): Model | undefined {
	const exact = findExactModel(pattern, models);
	if (exact) return exact;
	const needle = pattern.toLowerCase();
	if (needle === "") return undefined;
	const hits = models.filter((m) => m.id.toLowerCase().includes(needle) || m.name.toLowerCase().includes(needle));
	if (hits.length === 0) return undefined;
	const aliases = hits.filter((m) => !isDated(m.id));
	const pool = aliases.length > 0 ? aliases : hits;
	return [...pool].sort((a, b) => b.id.localeCompare(a.id))[0];
}

export interface PatternMatch {
	model?: Model;
	thinkingLevel?: ThinkingLevel;
	warning?: string;
}

/**
 * Matches `pattern`, optionally suffixed `:<thinking>`. The whole pattern is
 * tried first (ids may contain colons, like OpenRouter's `:exacto`), then the
 * part after the last colon is split off. With `strict`, a suffix that is not
 * a thinking level makes the match fail; otherwise it is ignored with a warning.
 */
export function parseModelPattern(pattern: string, models: readonly Model[], strict = false): PatternMatch {
	const whole = matchModel(pattern, models);
	if (whole) return { model: whole };
	const colon = pattern.lastIndexOf(":");
	if (colon < 0) return {};
	const prefix = pattern.slice(0, colon);
	const suffix = pattern.slice(colon + 1);
	if (isThinkingLevel(suffix)) {
		const inner = parseModelPattern(prefix, models, strict);
		return inner.model ? { ...inner, thinkingLevel: inner.warning ? undefined : suffix } : inner;
	}
	if (strict) return {};
	const inner = parseModelPattern(prefix, models, strict);
	return inner.model
		? {
				model: inner.model,
				warning: `Invalid thinking level "${suffix}" in pattern "${pattern}"; using the default level.`,
			}
		: inner;
}

export interface CliModelResult {
	model?: Model;
	thinkingLevel?: ThinkingLevel;
	warning?: string;
	error?: string;
}

/**
 * Resolves `--provider`/`--model` against all models (credentials are not
 * required here so `--api-key` can be used for a first run). Supports
 * `provider/id`, fuzzy patterns and `:thinking`. A provider that exists but
 * lacks the id gets a model with that id built on the provider's default.
 */
export function resolveCliModel(options: {
	provider?: string;
	model?: string;
	models: readonly Model[];
}): CliModelResult {
	const { models } = options;
	if (!options.model) {
		if (options.provider) {
			const provider = canonicalProvider(options.provider, models);
			if (!provider) return { error: unknownProvider(options.provider) };
			const model = defaultModelOf(provider, models);
			return model ? { model } : { error: unknownProvider(options.provider) };
		}
		return {};
	}
	if (models.length === 0) {
		return { error: "No models are known. Add a provider to models.json or check the installation." };
	}
	const input = options.model.trim();
	let provider = options.provider ? canonicalProvider(options.provider, models) : undefined;
	if (options.provider && !provider) return { error: unknownProvider(options.provider) };
	let pattern = input;
	let inferred = false;
	if (provider) {
		if (input.toLowerCase().startsWith(`${provider.toLowerCase()}/`)) pattern = input.slice(provider.length + 1);
	} else {
		const slash = input.indexOf("/");
		const maybe = slash > 0 ? canonicalProvider(input.slice(0, slash), models) : undefined;
		if (maybe) {
			provider = maybe;
			pattern = input.slice(slash + 1);
			inferred = true;
		} else {
			const exact = findExactModel(input, models);
			if (exact) return { model: exact };
		}
	}
	const pool = provider ? models.filter((m) => m.provider === provider) : models;
	const hit = parseModelPattern(pattern, pool, true);
	if (hit.model) return hit;
	if (inferred) {
		// "openai/gpt-4o:extended" may be an OpenRouter id rather than provider "openai".
		const whole = parseModelPattern(input, models, true);
		if (whole.model) return whole;
	}
	if (provider) {
		const base = defaultModelOf(provider, models);
		if (base) {
			return {
				model: { ...base, id: pattern, name: pattern },
				warning: `Model "${pattern}" is not in the catalog for provider "${provider}"; using it as a custom model id.`,
			};
		}
	}
	const shown = provider ? `${provider}/${pattern}` : input;
	return { error: `Model "${shown}" not found. Use --list-models to see available models.` };
}

function unknownProvider(name: string): string {
	return `Unknown provider "${name}". Use --list-models to see the available providers and models.`;
}

/**
 * Provider ids that were renamed, by their old name: 1.6.0's "azure" was "azure-openai-responses"
 * (0.73's id). Used only when no provider has the old name (a models.json provider may keep it).
 */
const FORMER_PROVIDER_IDS: Readonly<Record<string, string>> = { "azure-openai-responses": "azure" };

/** The provider a typed or saved name means: its own spelling, else the provider it was renamed to. */
function canonicalProvider(name: string, models: readonly Model[]): string | undefined {
	const lower = name.toLowerCase();
	const own = models.find((m) => m.provider.toLowerCase() === lower)?.provider;
	if (own) return own;
	const renamed = FORMER_PROVIDER_IDS[lower];
	return renamed ? models.find((m) => m.provider === renamed)?.provider : undefined;
}

function defaultModelOf(provider: string, models: readonly Model[]): Model | undefined {
	const preferred = DEFAULT_MODEL_PER_PROVIDER.find(([p]) => p === provider)?.[1];
	const own = models.filter((m) => m.provider === provider);
	return own.find((m) => m.id === preferred) ?? own[0];
}

export interface ScopedModel {
	model: Model;
	thinkingLevel?: ThinkingLevel;
}

/**
 * Resolves `--models` / `enabledModels` patterns for cycling: globs (`*`, `?`,
 * `[`) match `provider/id` or the bare id; other patterns match fuzzily. Each
 * may end in `:thinking`. Duplicates are dropped; unmatched patterns warn.
 */
export function resolveModelScope(
	patterns: readonly string[],
	models: readonly Model[],
): { scoped: ScopedModel[]; warnings: string[] } {
	const scoped: ScopedModel[] = [];
	const warnings: string[] = [];
	const add = (model: Model, thinkingLevel?: ThinkingLevel) => {
		if (!scoped.some((s) => key(s.model) === key(model))) scoped.push({ model, thinkingLevel });
	};
	for (const raw of patterns) {
		const pattern = raw.trim();
		if (pattern === "") continue;
		if (/[*?[]/.test(pattern)) {
			let glob = pattern;
			let level: ThinkingLevel | undefined;
			const colon = pattern.lastIndexOf(":");
			if (colon >= 0 && isThinkingLevel(pattern.slice(colon + 1))) {
				level = pattern.slice(colon + 1) as ThinkingLevel;
				glob = pattern.slice(0, colon);
			}
			const isMatch = picomatch()(glob, { nocase: true });
			const hits = models.filter((m) => isMatch(key(m)) || isMatch(m.id));
			if (hits.length === 0) warnings.push(`No models match pattern "${pattern}"`);
			for (const m of hits) add(m, level);
			continue;
		}
		const hit = parseModelPattern(pattern, models);
		if (hit.warning) warnings.push(hit.warning);
		if (hit.model) add(hit.model, hit.thinkingLevel);
		else warnings.push(`No models match pattern "${pattern}"`);
	}
	return { scoped, warnings };
}

export interface InitialModelInput {
	/** Result of resolveCliModel, when --model/--provider was given. */
	cli?: CliModelResult;
	/** --thinking */
	cliThinking?: ThinkingLevel;
	scoped?: readonly ScopedModel[];
	/** True for a fresh session (scoped models apply), false when continuing one. */
	isNewSession: boolean;
	/**
	 * Model and level recorded in a continued session; `answeredBy` is the
	 * physical model of its latest successful response (the fallback when the
	 * recorded model is a virtual one that is no longer registered).
	 */
	restored?: {
		provider: string;
		modelId: string;
		thinkingLevel?: ThinkingLevel;
		answeredBy?: { provider: string; modelId: string };
	};
	defaultProvider?: string;
	defaultModel?: string;
	defaultThinkingLevel?: ThinkingLevel;
	/** Every known model. */
	all: readonly Model[];
	/** Models with credentials. */
	available: readonly Model[];
}

export interface InitialModel {
	model?: Model;
	thinkingLevel: ThinkingLevel;
	/** Set when a continued session's model could not be restored. */
	fallbackMessage?: string;
}

/**
 * Picks the starting model: CLI > (new session) scoped models, preferring the
 * saved default > (continued session) the session's model > settings default >
 * the first model with credentials in DEFAULT_MODEL_PER_PROVIDER order > the
 * first model with credentials. The level is --thinking, else the pattern's or
 * scope's, else the session's or settings', else medium; clamped to the model.
 */
export function selectInitialModel(input: InitialModelInput): InitialModel {
	const finish = (model: Model | undefined, level?: ThinkingLevel, fallbackMessage?: string): InitialModel => {
		const wanted = input.cliThinking ?? level ?? input.defaultThinkingLevel ?? DEFAULT_THINKING_LEVEL;
		return { model, thinkingLevel: model ? clampThinkingLevel(model, wanted) : wanted, fallbackMessage };
	};
	if (input.cli?.model) return finish(input.cli.model, input.cli.thinkingLevel);

	const savedDefault =
		input.defaultProvider && input.defaultModel
			? input.all.find(
					(m) =>
						m.provider === (canonicalProvider(input.defaultProvider ?? "", input.all) ?? input.defaultProvider) &&
						m.id === input.defaultModel,
				)
			: undefined;

	if (input.isNewSession && input.scoped && input.scoped.length > 0) {
		const inScope = savedDefault && input.scoped.find((s) => key(s.model) === key(savedDefault));
		const pick = inScope || input.scoped[0];
		return finish(pick.model, pick.thinkingLevel);
	}

	let fallbackMessage: string | undefined;
	if (input.restored) {
		const { provider, modelId } = input.restored;
		const current = canonicalProvider(provider, input.all) ?? provider;
		const model = input.available.find((m) => m.provider === current && m.id === modelId);
		if (model) return finish(model, input.restored.thinkingLevel);
		fallbackMessage = `Could not restore the session's model ${provider}/${modelId} (unknown or no credentials).`;
		// A virtual model whose extension is gone: the physical model that answered last takes over (1.6.0).
		const answered = input.restored.answeredBy;
		const physical =
			answered && input.available.find((m) => m.provider === answered.provider && m.id === answered.modelId);
		if (physical)
			return finish(
				physical,
				input.restored.thinkingLevel,
				`${fallbackMessage} Using ${key(physical)}, which answered last.`,
			);
	}

	if (savedDefault) return finish(savedDefault, input.restored?.thinkingLevel, fallbackMessage);

	for (const [provider, id] of DEFAULT_MODEL_PER_PROVIDER) {
		const model = input.available.find((m) => m.provider === provider && m.id === id);
		if (model) return finish(model, input.restored?.thinkingLevel, fallbackMessage);
	}
	const first = input.available[0];
	if (first && fallbackMessage) fallbackMessage += ` Using ${key(first)}.`;
	return finish(first, input.restored?.thinkingLevel, fallbackMessage);
}
