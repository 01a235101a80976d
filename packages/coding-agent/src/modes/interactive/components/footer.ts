// The two lines under the editor: where you are (cwd, git branch, session
// name) and what the conversation costs (tokens in/out, cache, cost, context
// use of the window), with the model and thinking level on the right.
import { truncateToWidth, visibleWidth } from "@pi/tui";
import type { ThemeSource } from "./cached.js";

export interface FooterData {
	cwd: string;
	gitBranch: string | undefined;
	sessionName: string | undefined;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
	cost: number;
	/** Context use: percent of the window (undefined when unknown), window size. */
	contextPercent: number | undefined;
	contextWindow: number;
	autoCompact: boolean;
	model: { provider: string; id: string; reasoning: boolean } | undefined;
	thinkingLevel: string;
	/** Extra status text (extensions, transient notes). */
	status?: string;
}

export function formatTokens(n: number): string {
	if (n < 1000) return String(n);
	if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
	if (n < 999_500) return `${Math.round(n / 1000)}k`;
	return `${(n / 1_000_000).toFixed(1)}M`;
}

function shortenHome(path: string): string {
	const home = process.env.HOME;
	if (home && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
	return path;
}

export class Footer {
	private cache: { width: number; key: string; lines: string[] } | undefined;

	constructor(
		private readonly theme: ThemeSource,
		private readonly data: () => FooterData,
	) {}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): string[] {
		const d = this.data();
		const key = JSON.stringify(d);
		if (this.cache && this.cache.width === width && this.cache.key === key) return this.cache.lines;
		const lines = this.draw(d, width);
		this.cache = { width, key, lines };
		return lines;
	}

	private draw(d: FooterData, width: number): string[] {
		const t = this.theme();
		let where = shortenHome(d.cwd);
		if (d.gitBranch) where += ` (${d.gitBranch})`;
		if (d.sessionName) where += ` • ${d.sessionName}`;
		const line1 = truncateToWidth(t.fg("dim", where), width, t.fg("dim", "..."));

		const parts: string[] = [];
		if (d.tokens.input) parts.push(`↑${formatTokens(d.tokens.input)}`);
		if (d.tokens.output) parts.push(`↓${formatTokens(d.tokens.output)}`);
		if (d.tokens.cacheRead) parts.push(`R${formatTokens(d.tokens.cacheRead)}`);
		if (d.tokens.cacheWrite) parts.push(`W${formatTokens(d.tokens.cacheWrite)}`);
		if (d.cost) parts.push(`$${d.cost.toFixed(3)}`);
		const pct = d.contextPercent === undefined ? "?" : `${d.contextPercent.toFixed(1)}%`;
		const ctx = `${pct}/${formatTokens(d.contextWindow)}${d.autoCompact ? " (auto)" : ""}`;
		const pctColor =
			d.contextPercent !== undefined && d.contextPercent > 90
				? "error"
				: d.contextPercent !== undefined && d.contextPercent > 70
					? "warning"
					: "dim";
		const left = [t.fg("dim", parts.join(" ")), t.fg(pctColor, ctx)]
			.filter((s) => visibleWidth(s) > 0)
			.join(t.fg("dim", " "));

		let right = d.model ? d.model.id : "no model";
		if (d.model?.reasoning) right += d.thinkingLevel === "off" ? " • thinking off" : ` • ${d.thinkingLevel}`;
		right = t.fg("dim", right);
		const lw = visibleWidth(left);
		const rw = visibleWidth(right);
		let line2: string;
		if (lw + 2 + rw <= width) line2 = left + " ".repeat(width - lw - rw) + right;
		else line2 = truncateToWidth(left, width, "");
		const out = [line1, line2];
		if (d.status) out.push(truncateToWidth(t.fg("dim", d.status), width, "..."));
		return out;
	}
}
