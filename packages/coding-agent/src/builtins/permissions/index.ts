// builtin:permissions — an optional permission policy, as a bundled extension
// written only against the public extension API. Loaded by default but off
// until a mode is chosen: `"permissions": { "mode": "ask" }` in settings,
// `--permissions <mode>`, or `/permissions <mode>` in a session.
// `-builtin:permissions` in `extensions` leaves it out altogether.
//
// It sits on `tool_call`, so it sees every call the same way: the model's,
// codemode scripts' inner calls and extension tools'. Questions go through
// ctx.ui (the app's dialog, rpc's extension_ui_request); where there is no
// one to ask (print, json) the call is denied with a reason naming the way out.
import type { ExtensionAPI, ExtensionContext, ExtensionFactory } from "../../extensions/types.js";
import { registerPermissionsCommand } from "./command.js";
import { type Decision, decide, PERMISSION_MODES, type PermissionMode, readPermissionSettings } from "./policy.js";
import { PermissionState } from "./state.js";

export const ALLOW_ONCE = "Allow once";
export const ALLOW_SESSION = "Allow for this session";
export const DENY = "Deny";
export const DENY_REASON = "Deny with a reason for the model…";

function noUIReason(decision: Extract<Decision, { action: "ask" }>, ctx: ExtensionContext, toolName: string): string {
	const rule =
		toolName === "bash"
			? "a permissions.commands.allow rule in settings"
			: toolName === "write" || toolName === "edit"
				? "a permissions.paths.allow rule in settings"
				: "--permissions full";
	return `Permission denied: ${decision.summary} needs approval (${decision.why}), and there is no one to ask in ${ctx.mode} mode. Allow it with ${rule}, or ask the user to run it.`;
}

async function ask(
	state: PermissionState,
	decision: Extract<Decision, { action: "ask" }>,
	toolName: string,
	ctx: ExtensionContext,
): Promise<{ block: true; reason: string } | undefined> {
	const sessionLabel = decision.remember.length > 0 ? `${ALLOW_SESSION}: ${decision.remember.join(", ")}` : undefined;
	const options = [ALLOW_ONCE, ...(sessionLabel ? [sessionLabel] : []), DENY, DENY_REASON];
	const choice = await ctx.ui.select(`Allow ${decision.summary}?\n(${decision.why})`, options);
	if (choice === ALLOW_ONCE) return undefined;
	if (sessionLabel && choice === sessionLabel) {
		state.remember(decision, toolName);
		return undefined;
	}
	if (choice === DENY_REASON) {
		const reason = (await ctx.ui.input("Why not? (sent to the model)", "reason"))?.trim();
		return { block: true, reason: `The user denied ${decision.summary}${reason ? `: ${reason}` : ""}` };
	}
	if (choice === DENY) return { block: true, reason: `The user denied ${decision.summary}` };
	return { block: true, reason: `The user dismissed the permission question for ${decision.summary}; not run` };
}

export function createPermissionsExtension(): ExtensionFactory {
	return (pi: ExtensionAPI) => {
		const state = new PermissionState();
		pi.registerFlag("permissions", {
			type: "string",
			description: `Permission mode for this run: ${PERMISSION_MODES.join(", ")}`,
		});

		pi.on("session_start", (_event, ctx) => {
			const fromSettings = readPermissionSettings(pi.getSettings());
			state.rules = fromSettings.rules;
			if (state.source === "command") return; // a /permissions choice outlives /new and /resume
			const flag = pi.getFlag("permissions");
			if (typeof flag === "string" && flag !== "") {
				if (PERMISSION_MODES.includes(flag as PermissionMode)) {
					state.mode = flag as PermissionMode;
					state.source = "--permissions";
				} else {
					// Unknown mode: the strictest one, never silently none.
					state.mode = "read-only";
					state.source = "--permissions (unknown value)";
					ctx.ui.notify(
						`--permissions ${flag}: unknown mode (${PERMISSION_MODES.join(", ")}); using read-only`,
						"error",
					);
				}
			} else {
				state.mode = fromSettings.mode;
				state.source = fromSettings.mode === "off" ? "default" : "settings";
			}
			// Off: the status is cleared (a UI that never showed it sends nothing).
			ctx.ui.setStatus("permissions", state.mode === "off" ? undefined : `permissions: ${state.mode}`);
		});

		pi.on("tool_call", async (event, ctx) => {
			if (state.mode === "off") return undefined;
			const info = pi.getAllTools().find((t) => t.name === event.toolName);
			const decision = decide(
				{
					toolName: event.toolName,
					input: event.input as Record<string, unknown>,
					...(info?.annotations?.readOnlyHint ? { readOnlyHint: true } : {}),
				},
				{ mode: state.mode, rules: state.rules, cwd: ctx.cwd, sessionAllowed: state.sessionAllowed },
			);
			if (decision.action === "allow") return undefined;
			if (decision.action === "deny") return { block: true, reason: `Permission denied: ${decision.reason}` };
			if (!ctx.hasUI) return { block: true, reason: noUIReason(decision, ctx, event.toolName) };
			return state.serial(async () => {
				// A session allowance granted while this call waited its turn counts.
				const again = decide(
					{ toolName: event.toolName, input: event.input as Record<string, unknown> },
					{ mode: state.mode, rules: state.rules, cwd: ctx.cwd, sessionAllowed: state.sessionAllowed },
				);
				if (again.action === "allow") return undefined;
				if (again.action === "deny") return { block: true as const, reason: `Permission denied: ${again.reason}` };
				return ask(state, again, event.toolName, ctx);
			});
		});

		registerPermissionsCommand(pi, state);
	};
}

export default createPermissionsExtension();
