// Project trust: a working folder's `.pi/` resources (settings, system-prompt
// files, extensions, skills, prompts, themes, MCP config) may only load once
// the user trusted the folder. Decisions, in order: --approve/--no-approve,
// the closest saved decision in `<agentDir>/trust.json` (canonical paths →
// true/false, the reference's format), then the global `defaultProjectTrust`
// setting ("ask" by default). Modes that cannot ask treat "ask" as no.
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** `.pi/` entries whose presence needs a trust decision (a bare `.pi` does not). */
export const TRUST_REQUIRING_PROJECT_RESOURCES = [
	"settings.json",
	"mcp.json",
	"extensions",
	"skills",
	"prompts",
	"themes",
	"SYSTEM.md",
	"APPEND_SYSTEM.md",
] as const;

export type ProjectTrustDefault = "ask" | "always" | "never";

export interface ProjectTrust {
	/** Project resources may load. */
	trusted: boolean;
	/** The folder has resources that need a decision. */
	required: boolean;
	/** Where the decision came from. */
	source: "not-required" | "cli" | "extension" | "saved" | "default";
}

function canonical(path: string): string {
	const abs = resolve(path);
	try {
		return realpathSync(abs);
	} catch {
		return abs;
	}
}

export function hasTrustRequiringProjectResources(cwd: string): boolean {
	const dir = join(canonical(cwd), ".pi");
	return TRUST_REQUIRING_PROJECT_RESOURCES.some((entry) => existsSync(join(dir, entry)));
}

function trustFile(agentDir: string): string {
	return join(resolve(agentDir), "trust.json");
}

function readTrustData(agentDir: string): Record<string, unknown> {
	try {
		const parsed: unknown = JSON.parse(readFileSync(trustFile(agentDir), "utf8"));
		return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
	} catch {
		// Missing or unreadable: no saved decision (never trusted by accident).
		return {};
	}
}

/** The closest saved decision for `cwd` or one of its parents. */
export function readSavedProjectTrust(agentDir: string, cwd: string): boolean | undefined {
	const data = readTrustData(agentDir);
	for (let dir = canonical(cwd); ; dir = dirname(dir)) {
		const value = data[dir];
		if (value === true || value === false) return value;
		if (dirname(dir) === dir) return undefined;
	}
}

/** Saves (or with `null` clears) the decision for `dir`; the file is replaced atomically. */
export function saveProjectTrust(agentDir: string, dir: string, decision: boolean | null): void {
	const data = readTrustData(agentDir);
	const key = canonical(dir);
	if (decision === null) delete data[key];
	else data[key] = decision;
	const file = trustFile(agentDir);
	mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
	const tmp = `${file}.${process.pid}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
	renameSync(tmp, file);
}

export function resolveProjectTrust(options: {
	cwd: string;
	agentDir: string;
	/** --approve (true) / --no-approve (false). */
	approve?: boolean;
	defaultProjectTrust?: unknown;
}): ProjectTrust {
	if (!hasTrustRequiringProjectResources(options.cwd))
		return { trusted: true, required: false, source: "not-required" };
	if (options.approve !== undefined) return { trusted: options.approve, required: true, source: "cli" };
	const saved = readSavedProjectTrust(options.agentDir, options.cwd);
	if (saved !== undefined) return { trusted: saved, required: true, source: "saved" };
	return { trusted: options.defaultProjectTrust === "always", required: true, source: "default" };
}

/**
 * `resolveProjectTrust` with the extensions asked first (a `project_trust`
 * handler's yes/no comes after --approve/--no-approve and before trust.json;
 * `remember` saves it there). Not asked when the folder needs no decision.
 */
export async function decideProjectTrust(
	options: Parameters<typeof resolveProjectTrust>[0] & {
		askExtensions?: () => Promise<{ trusted: boolean; remember: boolean } | undefined>;
	},
): Promise<ProjectTrust> {
	if (!hasTrustRequiringProjectResources(options.cwd) || options.approve !== undefined || !options.askExtensions) {
		return resolveProjectTrust(options);
	}
	const answer = await options.askExtensions();
	if (!answer) return resolveProjectTrust(options);
	if (answer.remember) saveProjectTrust(options.agentDir, options.cwd, answer.trusted);
	return { trusted: answer.trusted, required: true, source: "extension" };
}
