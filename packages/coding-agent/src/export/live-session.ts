// Exporting the session a running pi holds (interactive /export, RPC
// export_html): the secrets to redact come from the same places the session
// gets its credentials, including keys given with --api-key. They are
// registered with pi-ai's redaction, the one pass every writer uses.

import { redact } from "@pi/ai";
import type { AuthStorage } from "../config/auth.js";
import { registerConfiguredSecrets } from "../config/configured-secrets.js";
import { agentPaths, getAgentDir } from "../config/paths.js";
import type { SessionManager } from "../session/session-manager.js";
import { type ExportResult, exportSessionJsonl, exportSessionManager } from "./export-session.js";
import type { Redactor } from "./render.js";

export interface LiveSession {
	readonly sessionManager: SessionManager;
	readonly modelRegistry: { readonly auth: AuthStorage };
}

export interface LiveExportOptions {
	cwd: string;
	agentDir?: string;
	env?: NodeJS.ProcessEnv;
	generator?: string;
	/** "auto" (default): JSONL when the output ends in `.jsonl`, else HTML. */
	format?: "auto" | "html";
}

export function redactorFor(session: LiveSession, options: LiveExportOptions): Redactor {
	const env = options.env ?? process.env;
	const auth = session.modelRegistry.auth;
	registerConfiguredSecrets({
		env,
		authFile: auth.file,
		modelsFile: agentPaths(options.agentDir ?? getAgentDir(env)).models,
		extra: auth.getRuntimeApiKeys(),
	});
	return redact;
}

/** HTML, or a JSONL copy when `output` ends in `.jsonl`. */
export function exportLiveSession(
	session: LiveSession,
	output: string | undefined,
	options: LiveExportOptions,
): ExportResult {
	const redact = redactorFor(session, options);
	if (options.format !== "html" && output?.toLowerCase().endsWith(".jsonl")) {
		return exportSessionJsonl(session.sessionManager, output, { cwd: options.cwd, redact });
	}
	return exportSessionManager(session.sessionManager, output, {
		cwd: options.cwd,
		redact,
		generator: options.generator,
	});
}
