// The numbers and names the built-in footer shows (tokens, cost, context use,
// model and level, session name, git branch, extension statuses). Computed
// when something they depend on changes (refresh()), never per frame.
import { sendsThinkingLevel } from "@pi/ai";
import type { AgentSession } from "../../agent-session/agent-session.js";
import { billedUsage, type UsageTotals } from "../../agent-session/session-stats.js";
import type { FooterData } from "./components/footer.js";

/**
 * Bytes of entries read from disk for the totals per computation: a large session's first frame
 * shows without them (the whole file's replies took ~0.2 s of a 100k-entry session's first
 * frame), and they follow in steps of this size between frames.
 */
const TOTALS_READ_BYTES = 4 * 1024 * 1024;

export class FooterState {
	/** Extension statuses (ctx.ui.setStatus), joined into one line. */
	status: string | undefined;
	private current: FooterData;
	private pending: NodeJS.Immediate | undefined;

	constructor(
		private readonly session: AgentSession,
		private readonly cwd: string,
		readonly gitBranch: string | undefined,
		/** Told when the data changed on its own (the totals of a large session arrived). */
		private readonly changed: () => void = () => {},
	) {
		this.current = this.compute();
	}

	get data(): FooterData {
		return this.current;
	}

	refresh(): void {
		this.current = this.compute();
	}

	/** The session's totals, or undefined while a large session's are still being read (they follow). */
	private totals(): UsageTotals | undefined {
		const { acc, done } = this.session.sessionManager.foldSome(billedUsage, TOTALS_READ_BYTES);
		if (done) return acc;
		// Not unref'd: an unref'd immediate does not keep the event loop from waiting for input, so the
		// totals would come only with the next key pressed.
		this.pending ??= setImmediate(() => {
			this.pending = undefined;
			this.refresh();
			if (this.pending === undefined) this.changed();
		});
		return undefined;
	}

	private compute(): FooterData {
		const s = this.session;
		const stats = this.totals() ?? { tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: 0 };
		const usage = s.getContextUsage();
		const model = s.model;
		return {
			cwd: this.cwd,
			gitBranch: this.gitBranch,
			sessionName: s.sessionManager.getSessionName(),
			tokens: {
				input: stats.tokens.input,
				output: stats.tokens.output,
				cacheRead: stats.tokens.cacheRead,
				cacheWrite: stats.tokens.cacheWrite,
			},
			cost: stats.cost,
			contextPercent: usage.percent,
			contextWindow: usage.contextWindow,
			autoCompact: s.autoCompactionEnabled,
			// The level is shown only when requests actually carry it (not to a local server without reasoning_effort).
			model: model ? { provider: model.provider, id: model.id, reasoning: sendsThinkingLevel(model) } : undefined,
			thinkingLevel: s.thinkingLevel,
			status: this.status,
		};
	}
}
