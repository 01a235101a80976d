// Messages typed while the agent works, waiting to be delivered: steering
// (after the current tool batch) and follow-ups (when the agent would stop).
import { truncateToWidth } from "@pi/tui";
import { CachedItem, type ThemeSource } from "./cached.js";

export class QueueView extends CachedItem {
	private steering: string[] = [];
	private followUp: string[] = [];

	constructor(theme: ThemeSource) {
		super(theme);
	}

	set(steering: readonly string[], followUp: readonly string[]): void {
		this.steering = [...steering];
		this.followUp = [...followUp];
		this.changed();
	}

	get isEmpty(): boolean {
		return this.steering.length === 0 && this.followUp.length === 0;
	}

	protected draw(width: number): string[] {
		if (this.isEmpty) return [];
		const t = this.theme();
		const out = [""];
		const one = (label: string, text: string) =>
			out.push(truncateToWidth(` ${t.fg("dim", label)} ${t.fg("muted", text.replace(/\s+/g, " "))}`, width, "..."));
		for (const s of this.steering) one("Steering:", s);
		for (const f of this.followUp) one("Follow-up:", f);
		out.push(truncateToWidth(` ${t.fg("dim", "↳ alt+up to edit queued messages")}`, width, ""));
		return out;
	}
}
