// A virtual model's router may pick a model whose context window is smaller
// than the conversation (docs/virtual-models.md): the session then compacts
// before that request is sent, and the request goes out with the compacted
// context to the model the router chose (the route is not asked again).
import type { Agent } from "@pi/agent-core";
import type { Compactor } from "./compaction/compactor.js";
import type { RouteFitter } from "./virtual-routing.js";

export interface RouteFitDeps {
	agent: Agent;
	compactor: Compactor;
	/** The projected transcript of the active branch (what the next request is built from). */
	project(): Parameters<Agent["convertToLlm"]>[0];
}

/**
 * The fitter returns the provider messages of the compacted context when the
 * target's window was too small and a compaction ran; undefined when the
 * context fits (or compaction is off, failed or was cancelled: the request
 * goes as it was).
 */
export function createRouteFit(d: RouteFitDeps): RouteFitter {
	return async (target, signal) => {
		if (!d.compactor.tooLargeFor(target)) return undefined;
		const outcome = await d.compactor.run("threshold", { signal });
		if (!outcome.result) return undefined;
		let messages = d.project();
		const transform = d.agent.transformContext;
		if (transform) messages = await transform(messages, signal ?? new AbortController().signal);
		return await d.agent.convertToLlm(messages);
	};
}
