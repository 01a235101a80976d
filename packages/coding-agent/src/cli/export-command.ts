// `pi --export <session.jsonl|id> [out.html]`: writes the page and prints
// its path, as the reference does. Loaded with import() only when asked for.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { redact } from "@pi/ai";
import { registerConfiguredSecrets } from "../config/configured-secrets.js";
import { agentPaths, getAgentDir } from "../config/paths.js";
import { exportSessionFile } from "../export/export-session.js";
import { SessionExportError } from "../export/source.js";
import { findSessionsByIdPrefix } from "../session/listing.js";
import { getSessionsRoot } from "../session/paths.js";
import { VERSION } from "../version.js";
import type { ParsedArgs } from "./args.js";
import { CliUsageError } from "./session-target.js";

function looksLikePath(value: string): boolean {
	return value.includes("/") || value.includes("\\") || value.endsWith(".jsonl");
}

/** A path as given, or the file of the one session whose id starts with `value`. */
function resolveInput(value: string, cwd: string, agentDir: string): string {
	const asPath = resolve(cwd, value);
	if (looksLikePath(value) || existsSync(asPath)) return asPath;
	const hits = findSessionsByIdPrefix(value, cwd, getSessionsRoot(agentDir));
	if (hits.length === 1) return hits[0].path;
	if (hits.length > 1) throw new CliUsageError(`Session id '${value}' is ambiguous (${hits.length} sessions match).`);
	throw new CliUsageError(`No session file or id matching '${value}'`);
}

export function runExport(
	args: ParsedArgs,
	io: { stdout: NodeJS.WritableStream; env: NodeJS.ProcessEnv; cwd: string },
	err: (text: string) => void,
): number {
	const input = args.export as string;
	const agentDir = getAgentDir(io.env);
	const paths = agentPaths(agentDir);
	registerConfiguredSecrets({
		env: io.env,
		authFile: paths.auth,
		modelsFile: paths.models,
		extra: [args.apiKey],
	});
	try {
		const file = resolveInput(input, io.cwd, agentDir);
		const result = exportSessionFile(file, args.messages[0], {
			cwd: io.cwd,
			redact,
			generator: `pi ${VERSION}`,
		});
		for (const w of result.warnings) err(`Warning: ${w.file}:${w.line}: ${w.message}`);
		io.stdout.write(`Exported to: ${result.path}\n`);
		return 0;
	} catch (error) {
		if (error instanceof SessionExportError || error instanceof CliUsageError) {
			err(`Error: ${error.message}`);
			return 1;
		}
		throw error;
	}
}
