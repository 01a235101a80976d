import { resolveCompletionsCompat } from "./adapters/openai-completions-compat.js";
import type { Model, StreamOptions, ThinkingLevel } from "./types.js";
import { THINKING_LEVELS } from "./types.js";

export type ReasoningLevel = Exclude<ThinkingLevel, "off">;

/** Default thinking budgets in tokens for budget-based APIs; xhigh and max are treated as high unless set. */
export const DEFAULT_THINKING_BUDGETS: Record<ReasoningLevel, number> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
	xhigh: 16384,
	max: 16384,
};

/** The levels above high: offered only where a model's level map names a provider value for them. */
function isExtendedLevel(level: ThinkingLevel): level is "xhigh" | "max" {
	return level === "xhigh" || level === "max";
}

/**
 * The levels a model accepts, in order. A model without reasoning supports only
 * "off"; otherwise every level not mapped to null, with xhigh and max only
 * when the model's `thinkingLevelMap` names them explicitly.
 */
export function getSupportedThinkingLevels(model: Pick<Model, "reasoning" | "thinkingLevelMap">): ThinkingLevel[] {
	if (!model.reasoning) return ["off"];
	const map = model.thinkingLevelMap ?? {};
	return THINKING_LEVELS.filter((level) => {
		if (level === "off") return map.off !== null;
		if (isExtendedLevel(level)) return typeof map[level] === "string";
		return map[level] !== null;
	});
}

/**
 * Whether a request to this model carries the thinking level at all. A model
 * without reasoning never does; an OpenAI-compatible server that takes no
 * `reasoning_effort` and has no thinking switch of its own (local servers by
 * default) gets nothing, so a UI must not claim a level for it.
 */
export function sendsThinkingLevel(model: Model): boolean {
	if (!model.reasoning) return false;
	if (model.api !== "openai-completions") return true;
	const compat = resolveCompletionsCompat(model);
	return compat.supportsReasoningEffort || compat.thinkingFormat !== "openai";
}

/** The nearest supported level: first the same or higher, then lower. */
export function clampThinkingLevel(
	model: Pick<Model, "reasoning" | "thinkingLevelMap">,
	level: ThinkingLevel,
): ThinkingLevel {
	const supported = getSupportedThinkingLevels(model);
	if (supported.includes(level)) return level;
	const wanted = THINKING_LEVELS.indexOf(level);
	const higher = supported.find((l) => THINKING_LEVELS.indexOf(l) > wanted);
	if (higher) return higher;
	const lower = [...supported].reverse().find((l) => THINKING_LEVELS.indexOf(l) < wanted);
	return lower ?? "off";
}

/** The token budget for a level on budget-based APIs (xhigh and max fall back to high's budget). */
export function thinkingBudget(level: ReasoningLevel, budgets?: StreamOptions["thinkingBudgets"]): number {
	return (
		budgets?.[level] ??
		(isExtendedLevel(level) ? (budgets?.high ?? DEFAULT_THINKING_BUDGETS[level]) : DEFAULT_THINKING_BUDGETS[level])
	);
}

/**
 * The provider-side effort value for a level on effort-based APIs: the model's
 * `thinkingLevelMap` entry when given, else the level name. xhigh or max on a
 * model that lacks it is first clamped to the nearest level it has (so `max`
 * on a model whose top is xhigh sends xhigh's value, and "high" where neither
 * exists). Undefined when reasoning is off/unsupported.
 */
export function reasoningEffort(
	model: Pick<Model, "reasoning" | "thinkingLevelMap">,
	level: ThinkingLevel | undefined,
): string | undefined {
	if (!model.reasoning || !level || level === "off") return undefined;
	const effective = isExtendedLevel(level) ? clampThinkingLevel(model, level) : level;
	if (effective === "off") return undefined;
	const mapped = model.thinkingLevelMap?.[effective];
	if (mapped === null) return undefined;
	if (typeof mapped === "string") return mapped;
	return effective;
}

/**
 * Claude 4.6+ and 5.x think adaptively (an effort level) instead of with a
 * token budget. Catalog entries for those models carry effort names in their
 * `thinkingLevelMap`, which also marks custom models as adaptive.
 */
export function supportsAdaptiveThinking(model: Pick<Model, "id" | "thinkingLevelMap">): boolean {
	if (Object.values(model.thinkingLevelMap ?? {}).some((value) => typeof value === "string")) return true;
	const match = /(?:opus|sonnet|haiku|fable)-(\d+)(?:[.-](\d+))?/.exec(model.id);
	if (!match) return false;
	const major = Number(match[1]);
	const minor = Number(match[2] ?? 0);
	// Bounds skip date suffixes (claude-3-7-sonnet-20250219, claude-opus-4-20250514).
	return (major >= 5 && major < 100) || (major === 4 && minor >= 6 && minor < 100);
}
