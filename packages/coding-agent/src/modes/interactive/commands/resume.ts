// /resume (and `pi -r`): the session picker. Choosing a session switches to
// it and renders its history; the picker can also rename and delete.
import { spawnSync } from "node:child_process";
import { unlinkSync } from "node:fs";
import { resolve } from "node:path";
import { agentPaths } from "../../../config/paths.js";
import type { SessionInfo } from "../../../session/listing.js";
import { SessionManager } from "../../../session/session-manager.js";
import type { InteractiveContext } from "../context.js";
import { SelectorFrame } from "../selectors/frame.js";
import { ensureSelectorKeybindings } from "../selectors/keybindings.js";
import { SESSION_PICKER_HINTS, SessionPicker } from "../selectors/session-picker.js";
import type { SlashCommand } from "./registry.js";

/** Moves the file to the trash with the `trash` CLI when there is one, else deletes it. */
export function deleteSessionFile(path: string): void {
	const trashed = spawnSync("trash", [path], { stdio: "ignore", timeout: 10_000 });
	if (!trashed.error && trashed.status === 0) return;
	unlinkSync(path);
}

/** Names a session: the open one through the session, another by appending to its file. */
export async function renameSession(ctx: InteractiveContext, info: SessionInfo, name: string): Promise<void> {
	if (ctx.session.sessionFile && resolve(info.path) === resolve(ctx.session.sessionFile)) {
		ctx.session.setSessionName(name);
		ctx.refreshStatus();
		return;
	}
	const sm = SessionManager.open(info.path, undefined, info.cwd || undefined);
	try {
		sm.appendSessionInfo(name);
	} finally {
		sm.close();
	}
}

/** `atStartup` (`pi -r`): cancelling quits the app, as the reference's start-up picker does. */
export function openSessionPicker(ctx: InteractiveContext, atStartup = false): void {
	ensureSelectorKeybindings(ctx.keybindings);
	const picker = new SessionPicker(() => ctx.theme, {
		loadCurrent: () => SessionManager.list(ctx.cwd, ctx.sessionDir),
		loadAll: () => SessionManager.listAll(agentPaths(ctx.agentDir).sessions),
		currentSessionFile: ctx.session.sessionFile,
		keybindings: ctx.keybindings,
		maxVisible: Math.max(4, Math.floor((ctx.tui.terminal.rows - 10) / 2)),
		onSelect: (info) => {
			restore();
			void switchTo(ctx, info);
		},
		onCancel: () => {
			restore();
			if (atStartup) void ctx.shutdown();
		},
		onDelete: async (info) => deleteSessionFile(info.path),
		onRename: (info, name) => renameSession(ctx, info, name),
	});
	picker.onChange = () => ctx.requestRender();
	const restore = ctx.showInEditorArea(
		new SelectorFrame(
			() => ctx.theme,
			() => "Resume session",
			picker,
			() => SESSION_PICKER_HINTS,
		),
	);
}

async function switchTo(ctx: InteractiveContext, info: SessionInfo): Promise<void> {
	if (ctx.session.sessionFile && resolve(info.path) === resolve(ctx.session.sessionFile)) {
		ctx.showStatus("That session is already open");
		return;
	}
	const before = ctx.cwd;
	try {
		if ((await ctx.session.switchSession(info.path)).cancelled) {
			ctx.showStatus("Resume cancelled by an extension");
			return;
		}
		ctx.reloadFromSession();
		const name = ctx.session.sessionManager.getSessionName();
		ctx.showStatus(`Resumed ${name ? `"${name}"` : "session"}: ${info.path}`);
		if (info.cwd && resolve(info.cwd) === resolve(ctx.cwd) && resolve(before) !== resolve(ctx.cwd)) {
			// The runtime moved tools, settings, resources and extensions to the session's folder.
			ctx.showStatus(`Now working in ${ctx.cwd} (the folder this session was started in)`);
		} else if (info.cwd && resolve(info.cwd) !== resolve(ctx.cwd)) {
			ctx.showStatus(
				`This session was started in ${info.cwd}; tools and @files now work in ${ctx.cwd}. Restart pi there to work in that folder.`,
				"warning",
			);
		}
	} catch (error) {
		ctx.showStatus(`Could not open ${info.path}: ${error instanceof Error ? error.message : String(error)}`, "error");
	}
	ctx.requestRender();
}

export const resumeCommand: SlashCommand = {
	name: "resume",
	description: "Resume another session",
	run(args, ctx) {
		openSessionPicker(ctx, args === "startup");
	},
};
