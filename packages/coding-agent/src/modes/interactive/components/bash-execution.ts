// A command the user ran with `!cmd` (or `!!cmd`, kept out of the context):
// the command, its output as it arrives, and how it ended.
import { wrapTextWithAnsi } from "@pi/tui";
import { CachedItem, type Expandable, type ThemeSource } from "./cached.js";

const COLLAPSED_LINES = 20;

export class BashExecutionItem extends CachedItem implements Expandable {
	private output = "";
	private state: { done: boolean; exitCode?: number; cancelled?: boolean; truncatedPath?: string } = { done: false };
	private expanded: boolean;

	constructor(
		theme: ThemeSource,
		readonly command: string,
		readonly excludeFromContext: boolean,
		expanded = false,
	) {
		super(theme);
		this.expanded = expanded;
	}

	append(chunk: string): void {
		this.output += chunk;
		this.changed();
	}

	setOutput(output: string): void {
		this.output = output;
		this.changed();
	}

	finish(exitCode: number | undefined, cancelled: boolean, fullOutputPath?: string): void {
		this.state = { done: true, exitCode, cancelled, truncatedPath: fullOutputPath };
		this.changed();
	}

	setExpanded(expanded: boolean): void {
		if (this.expanded === expanded) return;
		this.expanded = expanded;
		this.changed();
	}

	protected draw(width: number): string[] {
		const t = this.theme();
		const inner = Math.max(1, width - 2);
		const border = (s: string) => t.fg("bashMode", s);
		const out = ["", border("─".repeat(width))];
		const prefix = this.excludeFromContext ? "!! " : "$ ";
		for (const w of wrapTextWithAnsi(t.bold(border(prefix + this.command)), inner)) out.push(` ${w}`);
		let lines = this.output.replace(/\t/g, "   ").replace(/\n+$/, "").split("\n");
		if (lines.length === 1 && lines[0] === "") lines = [];
		if (!this.expanded && lines.length > COLLAPSED_LINES) {
			const hidden = lines.length - COLLAPSED_LINES;
			out.push(` ${t.fg("muted", `… ${hidden} earlier line${hidden === 1 ? "" : "s"} (ctrl+o to expand)`)}`);
			lines = lines.slice(-COLLAPSED_LINES);
		}
		for (const l of lines) for (const w of wrapTextWithAnsi(t.fg("toolOutput", l), inner)) out.push(` ${w}`);
		if (!this.state.done) out.push(` ${t.fg("muted", "Running… (esc to cancel)")}`);
		else if (this.state.cancelled) out.push(` ${t.fg("warning", "(cancelled)")}`);
		else if (this.state.exitCode !== undefined && this.state.exitCode !== 0)
			out.push(` ${t.fg("error", `(exit ${this.state.exitCode})`)}`);
		if (this.state.truncatedPath)
			out.push(` ${t.fg("muted", `Output truncated. Full output: ${this.state.truncatedPath}`)}`);
		if (this.excludeFromContext) out.push(` ${t.fg("dim", "(not sent to the model)")}`);
		out.push(border("─".repeat(width)));
		return out;
	}
}
