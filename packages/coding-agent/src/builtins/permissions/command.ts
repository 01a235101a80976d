// /permissions: shows the mode, where it came from, the rules and this
// session's allowances; `/permissions <mode>` (or choosing in the dialog)
// switches the mode for this session. Settings are not written: the saved
// default stays `permissions.mode` in settings.json.
import type { ExtensionAPI, ExtensionCommandContext } from "../../extensions/types.js";
import { PERMISSION_MODES, type PermissionMode } from "./policy.js";
import type { PermissionState } from "./state.js";

const DESCRIPTIONS: Record<PermissionMode, string> = {
	off: "no policy (the default)",
	"read-only": "no writes; only read-only commands",
	ask: "confirm every write and command",
	"auto-edit": "edits in the project allowed; commands ask",
	full: "everything allowed except deny rules",
};

function describe(state: PermissionState): string {
	const r = state.rules;
	const list = (xs: string[]) => (xs.length > 0 ? xs.join(", ") : "none");
	return [
		`Permission mode: ${state.mode} (${DESCRIPTIONS[state.mode]}; from ${state.source})`,
		`Paths allow: ${list(r.paths.allow)} · deny: ${list(r.paths.deny)}`,
		`Commands allow: ${list(r.commands.allow)} · deny: ${list(r.commands.deny)}`,
		`Allowed for this session: ${list([...state.sessionAllowed.commands, ...state.sessionAllowed.paths, ...state.sessionAllowed.tools])}`,
		"Writes outside the project always ask.",
	].join("\n");
}

function setMode(state: PermissionState, mode: PermissionMode, ctx: ExtensionCommandContext): void {
	state.mode = mode;
	state.source = "command";
	ctx.ui.setStatus("permissions", mode === "off" ? undefined : `permissions: ${mode}`);
	ctx.ui.notify(`Permission mode: ${mode} (${DESCRIPTIONS[mode]})`, "info");
}

export function registerPermissionsCommand(pi: ExtensionAPI, state: PermissionState): void {
	pi.registerCommand("permissions", {
		description: "Show or switch the permission mode (off, read-only, ask, auto-edit, full)",
		getArgumentCompletions: (prefix) =>
			PERMISSION_MODES.filter((m) => m.startsWith(prefix.trim())).map((m) => ({
				value: m,
				label: m,
				description: DESCRIPTIONS[m],
			})),
		handler: async (args, ctx) => {
			const wanted = args.trim();
			if (wanted) {
				if (!PERMISSION_MODES.includes(wanted as PermissionMode)) {
					ctx.ui.notify(`Unknown permission mode "${wanted}" (${PERMISSION_MODES.join(", ")})`, "error");
					return;
				}
				setMode(state, wanted as PermissionMode, ctx);
				return;
			}
			if (!ctx.hasUI) {
				ctx.ui.notify(describe(state), "info");
				return;
			}
			const labels = PERMISSION_MODES.map((m) => `${m === state.mode ? "● " : "  "}${m} — ${DESCRIPTIONS[m]}`);
			const choice = await ctx.ui.select(`${describe(state)}\n\nSwitch mode:`, labels);
			const index = choice === undefined ? -1 : labels.indexOf(choice);
			const mode = PERMISSION_MODES[index];
			if (mode && mode !== state.mode) setMode(state, mode, ctx);
		},
	});
}
