// The numbers and names the built-in footer shows (tokens, cost, context use,
// model and level, session name, git branch, extension statuses). Computed
// when something they depend on changes (refresh()), never per frame.
import { sendsThinkingLevel } from "@pi/ai";
import type { AgentSession } from "../../agent-session/agent-session.js";
import type { FooterData } from "./components/footer.js";

export class FooterState {
	/** Extension statuses (ctx.ui.setStatus), joined into one line. */
	status: string | undefined;
	private current: FooterData;

	constructor(
		private readonly session: AgentSession,
		private readonly cwd: string,
		readonly gitBranch: string | undefined,
	) {
		this.current = this.compute();
	}

	get data(): FooterData {
		return this.current;
	}

	refresh(): void {
		this.current = this.compute();
	}

	private compute(): FooterData {
		const s = this.session;
		const stats = s.getSessionStats();
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
