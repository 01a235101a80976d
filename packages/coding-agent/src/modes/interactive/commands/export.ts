// /export [path], /import <path>, /share: the session as an HTML page (or a
// JSONL copy), bringing a session file in, and a private gist through `gh`.
// The export room loads on first use.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { InteractiveContext } from "../context.js";
import { askChoice } from "../selectors/prompts.js";
import type { SlashCommand } from "./registry.js";

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function confirm(ctx: InteractiveContext, title: string, question: string): Promise<boolean> {
	const answer = await askChoice(ctx, `${title}: ${question}`, [
		{ value: "yes", label: "Yes" },
		{ value: "no", label: "No" },
	]);
	return answer === "yes";
}

function exportOptions(ctx: InteractiveContext) {
	return { cwd: ctx.cwd, agentDir: ctx.agentDir };
}

export const exportCommand: SlashCommand = {
	name: "export",
	description: "Export the session as HTML (or JSONL when the path ends in .jsonl)",
	argumentHint: "[path]",
	async run(args, ctx) {
		const { exportLiveSession } = await import("../../../export/live-session.js");
		try {
			const result = exportLiveSession(ctx.session, args || undefined, exportOptions(ctx));
			ctx.showStatus(`Session exported to: ${result.path}`);
		} catch (error) {
			ctx.showStatus(`Export failed: ${message(error)}`, "error");
		}
	},
};

export const importCommand: SlashCommand = {
	name: "import",
	description: "Import a JSONL session, keeping its id and working directory",
	argumentHint: "<path.jsonl>",
	async run(args, ctx) {
		if (!args) {
			ctx.showStatus("Usage: /import <path.jsonl>", "warning");
			return;
		}
		const { checkSessionImport, copySessionIntoDir } = await import("../../../export/import-session.js");
		const sessionDir = ctx.session.sessionManager.getSessionDir();
		let imported: ReturnType<typeof copySessionIntoDir>;
		try {
			const checked = checkSessionImport(args, ctx.cwd);
			// As the reference does: the open session is replaced only when the user says so.
			const confirmed = await confirm(ctx, "Import session", `Replace current session with ${checked.source}?`);
			if (!confirmed) {
				ctx.showStatus("Import cancelled");
				return;
			}
			imported = copySessionIntoDir(checked, sessionDir);
		} catch (error) {
			ctx.showStatus(`Import failed: ${message(error)}`, "error");
			return;
		}
		for (const w of imported.warnings) ctx.showStatus(`${w.file}:${w.line}: ${w.message}`, "warning");
		try {
			if ((await ctx.session.switchSession(imported.path)).cancelled) {
				ctx.showStatus(`Imported to ${imported.path}; switching was cancelled by an extension`);
				return;
			}
		} catch (error) {
			ctx.showStatus(`Could not open ${imported.path}: ${message(error)}`, "error");
			return;
		}
		ctx.reloadFromSession();
		ctx.refreshStatus();
		ctx.showStatus(`Session imported from: ${resolve(ctx.cwd, args)}`);
		const sessionCwd = imported.header.cwd;
		if (sessionCwd && resolve(sessionCwd) !== resolve(ctx.cwd)) {
			ctx.showStatus(
				`This session was started in ${sessionCwd}; tools and @files now work in ${ctx.cwd}. Restart pi there to work in that folder.`,
				"warning",
			);
		}
		ctx.requestRender();
	},
};

export const shareCommand: SlashCommand = {
	name: "share",
	description: "Upload the session as a private GitHub gist (needs gh)",
	async run(_args, ctx) {
		const { exportLiveSession } = await import("../../../export/live-session.js");
		const { shareHtmlAsGist } = await import("../../../export/share.js");
		const dir = mkdtempSync(join(tmpdir(), "pi-share-"));
		try {
			const { path } = exportLiveSession(ctx.session, join(dir, "session.html"), {
				...exportOptions(ctx),
				format: "html",
			});
			ctx.showStatus("Uploading a private gist…");
			ctx.requestRender();
			const name = ctx.session.sessionManager.getSessionName();
			const outcome = await shareHtmlAsGist(path, { description: name ? `pi session: ${name}` : "pi session" });
			if (outcome.ok) ctx.showStatus(`Shared as a private gist: ${outcome.url}`);
			else ctx.showStatus(outcome.message, outcome.reason === "failed" ? "error" : "warning");
		} catch (error) {
			ctx.showStatus(`Share failed: ${message(error)}`, "error");
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	},
};
