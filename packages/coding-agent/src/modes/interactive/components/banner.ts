// The few lines at the top of a fresh screen: name and version, the most
// useful keys, which context files and skills were loaded, and — when no
// model is usable — how to configure one.
import { wrapTextWithAnsi } from "@pi/tui";
import { CachedItem, type ThemeSource } from "./cached.js";

export interface BannerData {
	version: string;
	/** "provider/id • thinking level" at start-up, when there is a model. */
	model?: string;
	/** Paths of loaded AGENTS.md / CLAUDE.md files. */
	contextFiles: string[];
	skills: string[];
	/** Key hints as [keys, what]. */
	hints: [string, string][];
	/** Shown in warning colour below the hints (first-run guidance, load warnings). */
	warnings: string[];
	quiet: boolean;
}

function shortenHome(path: string): string {
	const home = process.env.HOME;
	return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export class Banner extends CachedItem {
	constructor(
		theme: ThemeSource,
		private readonly data: BannerData,
	) {
		super(theme);
	}

	protected draw(width: number): string[] {
		const t = this.theme();
		const d = this.data;
		const inner = Math.max(1, width - 2);
		const out: string[] = [];
		const push = (line: string) => {
			for (const w of wrapTextWithAnsi(line, inner)) out.push(` ${w}`);
		};
		out.push("");
		push(`${t.bold(t.fg("accent", "pi"))}${t.fg("dim", ` v${d.version}`)}`);
		if (!d.quiet) {
			push(d.hints.map(([k, v]) => `${t.fg("dim", k)}${t.fg("muted", ` ${v}`)}`).join(t.fg("muted", " · ")));
			if (d.model) push(t.fg("dim", `Model: ${d.model}`));
			if (d.contextFiles.length > 0) push(t.fg("dim", `Context: ${d.contextFiles.map(shortenHome).join(", ")}`));
			if (d.skills.length > 0) push(t.fg("dim", `Skills: ${d.skills.join(", ")}`));
		}
		for (const w of d.warnings) {
			out.push("");
			for (const line of w.split("\n")) push(t.fg("warning", line));
		}
		return out;
	}
}
