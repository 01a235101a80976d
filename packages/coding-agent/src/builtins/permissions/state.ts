// The permission policy's live state in one session: mode, rules, where the
// mode came from, what the user allowed for the session, and the queue that
// keeps dialogs one at a time.
import type { Decision, PermissionMode, PermissionRules } from "./policy.js";

/** The policy's live state in one session. */
export class PermissionState {
	mode: PermissionMode = "off";
	rules: PermissionRules = { paths: { allow: [], deny: [] }, commands: { allow: [], deny: [] } };
	/** Where the mode came from, for /permissions. */
	source = "default";
	readonly sessionAllowed = { commands: [] as string[], paths: [] as string[], tools: [] as string[] };
	private asking: Promise<unknown> = Promise.resolve();

	/** One question at a time: parallel tool calls queue their dialogs. */
	serial<T>(fn: () => Promise<T>): Promise<T> {
		const run = this.asking.then(fn, fn);
		this.asking = run.catch(() => {});
		return run;
	}

	remember(decision: Extract<Decision, { action: "ask" }>, toolName: string): void {
		const list =
			toolName === "bash"
				? this.sessionAllowed.commands
				: toolName === "write" || toolName === "edit"
					? this.sessionAllowed.paths
					: this.sessionAllowed.tools;
		for (const r of decision.remember) if (!list.includes(r)) list.push(r);
	}
}
