import type { Model, Usage } from "./types.js";

/** An all-zero usage record, the starting point of every response. */
export function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** The sum of usage records (tokens and cost); undefined when none is given. */
export function sumUsage(...usages: (Usage | undefined)[]): Usage | undefined {
	let total: Usage | undefined;
	for (const u of usages) {
		if (!u) continue;
		total ??= emptyUsage();
		total.input += u.input;
		total.output += u.output;
		total.cacheRead += u.cacheRead;
		total.cacheWrite += u.cacheWrite;
		total.totalTokens += u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
		total.cost.input += u.cost?.input ?? 0;
		total.cost.output += u.cost?.output ?? 0;
		total.cost.cacheRead += u.cost?.cacheRead ?? 0;
		total.cost.cacheWrite += u.cost?.cacheWrite ?? 0;
		total.cost.total += u.cost?.total ?? 0;
	}
	return total;
}

/** Fills `usage.cost` from the model's per-million prices and returns it. */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): Usage["cost"] {
	const perToken = (price: number, tokens: number) => (price / 1_000_000) * tokens;
	const cost = usage.cost;
	cost.input = perToken(model.cost.input, usage.input);
	cost.output = perToken(model.cost.output, usage.output);
	cost.cacheRead = perToken(model.cost.cacheRead, usage.cacheRead);
	cost.cacheWrite = perToken(model.cost.cacheWrite, usage.cacheWrite);
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	return cost;
}
