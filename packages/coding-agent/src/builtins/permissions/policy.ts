// The permission policy as a pure function: a tool call, the mode, the rules
// from settings and what the user allowed this session → allow, deny (with
// the reason the model reads) or ask. Order: deny rules, then writes outside
// the project (always asked), then allow rules and session allowances, then
// the mode. Commands are judged on their parsed simple commands (shell.ts),
// never on the raw string: every one of them must be allowed for the line to
// be, and one denied command denies the line.
import { isAbsolute, relative, resolve } from "node:path";
import { picomatch } from "./picomatch.js";
import { parseShellCommand, type SimpleCommand } from "./shell.js";

export const PERMISSION_MODES = ["off", "read-only", "ask", "auto-edit", "full"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface PermissionRules {
	paths: { allow: string[]; deny: string[] };
	commands: { allow: string[]; deny: string[] };
}

export interface PermissionCall {
	toolName: string;
	input: Record<string, unknown>;
	/** From the tool's annotations: it changes nothing. */
	readOnlyHint?: boolean;
}

export type Decision =
	| { action: "allow" }
	| { action: "deny"; reason: string }
	| {
			action: "ask";
			/** What the dialog says is asked about. */
			summary: string;
			why: string;
			/** What "allow for this session" remembers (command prefixes or a path). */
			remember: string[];
	  };

const READ_TOOLS = new Set(["read", "grep", "find", "ls"]);
const WRITE_TOOLS = new Set(["write", "edit"]);
/** Tools that only run other tools: their inner calls meet the policy one by one. */
const ORCHESTRATORS = new Set(["codemode", "tool_search"]);

/** Commands that read and print only (unless redirected to a file); what read-only mode lets bash run. */
const READ_ONLY_COMMANDS = new Set([
	"ls",
	"cat",
	"head",
	"tail",
	"wc",
	"grep",
	"rg",
	"pwd",
	"echo",
	"printf",
	"which",
	"file",
	"stat",
	"du",
	"df",
	"tree",
	"sort",
	"uniq",
	"cut",
	"diff",
	"true",
	"false",
	"date",
	"whoami",
	"basename",
	"dirname",
	"realpath",
	"cd",
]);
const READ_ONLY_GIT = new Set(["status", "diff", "log", "show", "branch", "rev-parse", "ls-files", "blame", "grep"]);

function isReadOnlyCommand(cmd: SimpleCommand): boolean {
	if (cmd.writes.length > 0 || cmd.dynamic) return false;
	const [program = "", sub = ""] = cmd.argv;
	if (program === "git") return READ_ONLY_GIT.has(sub);
	if (program === "find") return !cmd.argv.some((a) => /^-(delete|exec|execdir|ok|okdir|fprint.*|fls)$/.test(a));
	if (program === "sed") return !cmd.argv.some((a) => a === "-i" || a.startsWith("-i") || a === "--in-place");
	return READ_ONLY_COMMANDS.has(program);
}

/**
 * Does a command pattern match a simple command? The pattern is read with the
 * same shell reader; its words match the command's first words one by one
 * (glob characters allowed within a word), and a final `*` word matches any
 * remaining words. Without a final `*` the command must have no more words.
 */
export function commandMatches(pattern: string, cmd: SimpleCommand): boolean {
	const parsed = parseShellCommand(pattern.replace(/\*/g, "\\*"));
	const words = parsed.commands[0]?.argv;
	if (!words || words.length === 0) return false;
	const rest = words.at(-1) === "*";
	const fixed = rest ? words.slice(0, -1) : words;
	if (cmd.argv.length < fixed.length || (!rest && cmd.argv.length !== fixed.length)) return false;
	return fixed.every((w, i) => picomatch().isMatch(cmd.argv[i] ?? "", w, { dot: true, bash: true }));
}

/** Programs whose second word names what they do (`git push`, `npm test`). */
const SUBCOMMAND_PROGRAMS = new Set([
	"git",
	"npm",
	"pnpm",
	"yarn",
	"bun",
	"npx",
	"deno",
	"cargo",
	"go",
	"docker",
	"kubectl",
	"gh",
	"pip",
	"uv",
	"make",
]);

/** "npm test *", "touch *": what "allow for this session" remembers for one simple command. */
export function rememberPattern(cmd: SimpleCommand): string {
	const [program = "", sub] = cmd.argv;
	const quote = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);
	const withSub = sub !== undefined && SUBCOMMAND_PROGRAMS.has(program) && /^[a-z][\w:-]*$/.test(sub);
	return withSub ? `${quote(program)} ${quote(sub)} *` : `${quote(program)} *`;
}

function pathMatches(globs: string[], cwd: string, absolute: string): string | undefined {
	const rel = relative(cwd, absolute);
	for (const glob of globs) {
		const target = isAbsolute(glob) || glob.startsWith("~") ? absolute : rel;
		const g = glob.startsWith("~/") ? resolve(process.env.HOME ?? "/", glob.slice(2)) : glob;
		if (picomatch().isMatch(target, g, { dot: true }) || picomatch().isMatch(target, `${g}/**`, { dot: true }))
			return glob;
	}
	return undefined;
}

function toolPath(input: Record<string, unknown>): string | undefined {
	return typeof input.path === "string" && input.path !== "" ? input.path : undefined;
}

export interface PolicyInput {
	mode: PermissionMode;
	rules: PermissionRules;
	cwd: string;
	/** Command patterns and paths allowed for the rest of this session. */
	sessionAllowed: { commands: string[]; paths: string[]; tools: string[] };
}

export function decide(call: PermissionCall, p: PolicyInput): Decision {
	if (p.mode === "off") return { action: "allow" };
	const { toolName, input } = call;

	if (READ_TOOLS.has(toolName)) {
		const path = toolPath(input) ?? ".";
		const denied = pathMatches(p.rules.paths.deny, p.cwd, resolve(p.cwd, path));
		if (denied) return { action: "deny", reason: `Reading ${path} is denied by the permission rule "${denied}"` };
		return { action: "allow" };
	}

	if (WRITE_TOOLS.has(toolName)) {
		const path = toolPath(input);
		if (!path) return { action: "allow" }; // the tool rejects it itself
		const abs = resolve(p.cwd, path);
		const denied = pathMatches(p.rules.paths.deny, p.cwd, abs);
		if (denied) return { action: "deny", reason: `Writing ${path} is denied by the permission rule "${denied}"` };
		if (p.mode === "read-only")
			return { action: "deny", reason: `Permission mode is read-only: ${toolName} is not allowed` };
		const rel = relative(p.cwd, abs);
		const outside = rel === "" || rel.startsWith("..") || isAbsolute(rel);
		const summary = `${toolName} ${path}`;
		if (outside) return { action: "ask", summary, why: "it writes outside the project folder", remember: [abs] };
		if (pathMatches(p.rules.paths.allow, p.cwd, abs) || p.sessionAllowed.paths.includes(abs))
			return { action: "allow" };
		if (p.mode === "full" || p.mode === "auto-edit") return { action: "allow" };
		return { action: "ask", summary, why: "permission mode ask confirms every write", remember: [abs] };
	}

	if (toolName === "bash") {
		const command = typeof input.command === "string" ? input.command : "";
		const parsed = parseShellCommand(command);
		const summary = `bash: ${command.length > 200 ? `${command.slice(0, 199)}…` : command}`;
		if (parsed.error || parsed.commands.length === 0) {
			if (p.mode === "full") return { action: "allow" };
			if (p.mode === "read-only")
				return {
					action: "deny",
					reason: `Permission mode is read-only and the command could not be read (${parsed.error ?? "empty"})`,
				};
			return {
				action: "ask",
				summary,
				why: `the command could not be read (${parsed.error ?? "empty"})`,
				remember: [],
			};
		}
		for (const cmd of parsed.commands) {
			const rule = p.rules.commands.deny.find((pattern) => commandMatches(pattern, cmd));
			if (rule)
				return {
					action: "deny",
					reason: `The command "${cmd.argv.join(" ")}" is denied by the permission rule "${rule}"`,
				};
			for (const target of cmd.writes) {
				const denied = pathMatches(p.rules.paths.deny, p.cwd, resolve(p.cwd, target));
				if (denied) return { action: "deny", reason: `Writing ${target} is denied by the permission rule "${denied}"` };
			}
		}
		const allowedByRule = (cmd: SimpleCommand) =>
			[...p.rules.commands.allow, ...p.sessionAllowed.commands].some((pattern) => commandMatches(pattern, cmd));
		const pending = parsed.commands.filter((cmd) => !allowedByRule(cmd));
		if (pending.length === 0) return { action: "allow" };
		if (p.mode === "full") return { action: "allow" };
		if (p.mode === "read-only") {
			const writer = pending.find((cmd) => !isReadOnlyCommand(cmd));
			if (!writer) return { action: "allow" };
			return {
				action: "deny",
				reason: `Permission mode is read-only: "${writer.argv.join(" ") || writer.writes.join(" ")}" may change files`,
			};
		}
		const why =
			p.mode === "auto-edit"
				? "permission mode auto-edit asks before commands"
				: "permission mode ask confirms every command";
		return { action: "ask", summary, why, remember: [...new Set(pending.map(rememberPattern))] };
	}

	if (ORCHESTRATORS.has(toolName)) return { action: "allow" };
	// Any other tool (extensions, MCP): its annotations say whether it only reads.
	if (call.readOnlyHint) return { action: "allow" };
	if (p.mode === "full" || p.sessionAllowed.tools.includes(toolName)) return { action: "allow" };
	if (p.mode === "read-only")
		return { action: "deny", reason: `Permission mode is read-only: ${toolName} is not marked read-only` };
	return {
		action: "ask",
		summary: `tool ${toolName}`,
		why: `permission mode ${p.mode} asks before tools that may change things`,
		remember: [toolName],
	};
}

function stringList(v: unknown): string[] {
	return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];
}

/** `permissions` from settings → mode and rules (unknown values ignored). */
export function readPermissionSettings(settings: Record<string, unknown>): {
	mode: PermissionMode;
	rules: PermissionRules;
} {
	const raw = (settings.permissions ?? {}) as Record<string, unknown>;
	const paths = (raw.paths ?? {}) as Record<string, unknown>;
	const commands = (raw.commands ?? {}) as Record<string, unknown>;
	const mode = PERMISSION_MODES.includes(raw.mode as PermissionMode) ? (raw.mode as PermissionMode) : "off";
	return {
		mode,
		rules: {
			paths: { allow: stringList(paths.allow), deny: stringList(paths.deny) },
			commands: { allow: stringList(commands.allow), deny: stringList(commands.deny) },
		},
	};
}
