// Command-line parsing. No dependency beyond the language: `pi --version` and
// `pi --help` must stay fast, so this module imports nothing heavy.

export type Mode = "text" | "json" | "rpc";
export type ThinkingArg = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
const THINKING: readonly string[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

export interface Diagnostic {
	type: "error" | "warning";
	message: string;
}

export interface ParsedArgs {
	help?: boolean;
	version?: boolean;
	mode?: Mode;
	print?: boolean;
	continue?: boolean;
	resume?: boolean;
	provider?: string;
	model?: string;
	apiKey?: string;
	systemPrompt?: string;
	appendSystemPrompt?: string[];
	name?: string;
	noSession?: boolean;
	session?: string;
	sessionId?: string;
	fork?: string;
	sessionDir?: string;
	models?: string[];
	noTools?: boolean;
	noBuiltinTools?: boolean;
	tools?: string[];
	excludeTools?: string[];
	thinking?: ThinkingArg;
	export?: string;
	extensions?: string[];
	noExtensions?: boolean;
	noMcp?: boolean;
	skills?: string[];
	noSkills?: boolean;
	promptTemplates?: string[];
	noPromptTemplates?: boolean;
	themes?: string[];
	noThemes?: boolean;
	useTheme?: string;
	noContextFiles?: boolean;
	/** `true` for all models, or a search string. */
	listModels?: string | true;
	verbose?: boolean;
	offline?: boolean;
	/** --approve / --no-approve (project trust for this run). */
	approve?: boolean;
	tuiMode?: "regular" | "fullscreen";
	/** Positional messages, in order. */
	messages: string[];
	/** `@file` arguments, without the `@`. */
	fileArgs: string[];
	/**
	 * Long flags that are not built in: `--x=v`, `--x v`, or `--x` (true). They
	 * are legal only if an extension registers them: see `unknownFlagErrors`.
	 */
	unknownFlags: Map<string, string | boolean>;
	diagnostics: Diagnostic[];
}

const list = (value: string) =>
	value
		.split(",")
		.map((s) => s.trim())
		.filter((s) => s !== "");

type Handler = (r: ParsedArgs, value: string) => void;

/** Flags that take no value. */
const SWITCHES: Record<string, (r: ParsedArgs) => void> = {
	"--help": (r) => {
		r.help = true;
	},
	"--version": (r) => {
		r.version = true;
	},
	"--continue": (r) => {
		r.continue = true;
	},
	"--resume": (r) => {
		r.resume = true;
	},
	"--no-session": (r) => {
		r.noSession = true;
	},
	"--no-tools": (r) => {
		r.noTools = true;
	},
	"--no-builtin-tools": (r) => {
		r.noBuiltinTools = true;
	},
	"--no-extensions": (r) => {
		r.noExtensions = true;
	},
	"--no-mcp": (r) => {
		r.noMcp = true;
	},
	"--no-skills": (r) => {
		r.noSkills = true;
	},
	"--no-prompt-templates": (r) => {
		r.noPromptTemplates = true;
	},
	"--no-themes": (r) => {
		r.noThemes = true;
	},
	"--no-context-files": (r) => {
		r.noContextFiles = true;
	},
	"--verbose": (r) => {
		r.verbose = true;
	},
	"--offline": (r) => {
		r.offline = true;
	},
	"--approve": (r) => {
		r.approve = true;
	},
	"--no-approve": (r) => {
		r.approve = false;
	},
};

/** Flags that take the next argument as their value. */
const VALUED: Record<string, Handler> = {
	"--provider": (r, v) => {
		r.provider = v;
	},
	"--model": (r, v) => {
		r.model = v;
	},
	"--api-key": (r, v) => {
		r.apiKey = v;
	},
	"--system-prompt": (r, v) => {
		r.systemPrompt = v;
	},
	"--append-system-prompt": (r, v) => {
		r.appendSystemPrompt = [...(r.appendSystemPrompt ?? []), v];
	},
	"--name": (r, v) => {
		r.name = v.trim() === "" ? undefined : v.trim();
	},
	"--session": (r, v) => {
		r.session = v;
	},
	"--session-id": (r, v) => {
		r.sessionId = v;
	},
	"--fork": (r, v) => {
		r.fork = v;
	},
	"--session-dir": (r, v) => {
		r.sessionDir = v;
	},
	"--models": (r, v) => {
		r.models = list(v);
	},
	"--tools": (r, v) => {
		r.tools = list(v);
	},
	"--exclude-tools": (r, v) => {
		r.excludeTools = list(v);
	},
	"--thinking": (r, v) => {
		if (THINKING.includes(v)) r.thinking = v as ThinkingArg;
		else
			r.diagnostics.push({
				type: "warning",
				message: `Invalid thinking level "${v}" (ignored). Valid values: ${THINKING.join(", ")}`,
			});
	},
	"--export": (r, v) => {
		r.export = v;
	},
	"--extension": (r, v) => {
		r.extensions = [...(r.extensions ?? []), v];
	},
	"--skill": (r, v) => {
		r.skills = [...(r.skills ?? []), v];
	},
	"--prompt-template": (r, v) => {
		r.promptTemplates = [...(r.promptTemplates ?? []), v];
	},
	"--theme": (r, v) => {
		r.themes = [...(r.themes ?? []), v];
	},
	"--use-theme": (r, v) => {
		r.useTheme = v;
	},
	"--mode": (r, v) => {
		if (v === "text" || v === "json" || v === "rpc") r.mode = v;
		else r.diagnostics.push({ type: "error", message: `Invalid mode "${v}". Valid values: text, json, rpc` });
	},
	"--tui-mode": (r, v) => {
		if (v === "regular" || v === "fullscreen") r.tuiMode = v;
		else r.diagnostics.push({ type: "error", message: `Invalid TUI mode "${v}". Valid values: regular, fullscreen` });
	},
};

/** Short forms. */
const ALIASES: Record<string, string> = {
	"-h": "--help",
	"-v": "--version",
	"-c": "--continue",
	"-r": "--resume",
	"-n": "--name",
	"-t": "--tools",
	"-xt": "--exclude-tools",
	"-nt": "--no-tools",
	"-nbt": "--no-builtin-tools",
	"-e": "--extension",
	"-ne": "--no-extensions",
	"-ns": "--no-skills",
	"-np": "--no-prompt-templates",
	"-nc": "--no-context-files",
	"-a": "--approve",
	"-na": "--no-approve",
};

/** Every flag the parser accepts, long and short (so `--help` can be checked against it). */
export function knownFlags(): string[] {
	return ["--print", "-p", "--list-models", ...Object.keys(SWITCHES), ...Object.keys(VALUED), ...Object.keys(ALIASES)];
}

function addPositional(r: ParsedArgs, arg: string): void {
	if (arg.startsWith("@") && arg.length > 1) r.fileArgs.push(arg.slice(1));
	else r.messages.push(arg);
}

/**
 * How an extension-registered long flag takes its value: a `boolean` flag never
 * consumes the next argument (`pi --plan "msg"` keeps "msg" as the message);
 * a `string` flag always does.
 */
export type ExtensionFlagKind = "boolean" | "string";

/**
 * Parses the command line. Long flags that are not built in go to
 * `unknownFlags`; with `extensionFlags` (known once extensions are loaded) the
 * registered ones are parsed by their kind, so parse again with them.
 */
export function parseArgs(
	argv: readonly string[],
	extensionFlags: ReadonlyMap<string, ExtensionFlagKind> = new Map(),
): ParsedArgs {
	const r: ParsedArgs = { messages: [], fileArgs: [], unknownFlags: new Map(), diagnostics: [] };
	for (let i = 0; i < argv.length; i++) {
		const raw = argv[i];
		if (raw === "--") {
			for (const rest of argv.slice(i + 1)) addPositional(r, rest);
			break;
		}
		const arg = ALIASES[raw] ?? raw;
		const next = argv[i + 1];
		if (arg === "--print" || arg === "-p") {
			r.print = true;
			// -p consumes the next argument as the message, unless it is a file
			// or a flag ("---" starts a YAML front matter, which is a message).
			if (next !== undefined && !next.startsWith("@") && (!next.startsWith("-") || next.startsWith("---"))) {
				r.messages.push(next);
				i++;
			}
		} else if (arg === "--list-models") {
			if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
				r.listModels = next;
				i++;
			} else r.listModels = true;
		} else if (SWITCHES[arg]) {
			SWITCHES[arg](r);
		} else if (VALUED[arg]) {
			if (next === undefined || (arg === "--mode" && next.startsWith("-"))) {
				r.diagnostics.push({ type: "error", message: `${raw} requires a value` });
			} else {
				VALUED[arg](r, next);
				i++;
			}
		} else if (arg.startsWith("--") && arg.length > 2) {
			const eq = arg.indexOf("=");
			const kind = extensionFlags.get(arg.slice(2));
			if (eq > 2) r.unknownFlags.set(arg.slice(2, eq), arg.slice(eq + 1));
			else if (kind === "boolean") r.unknownFlags.set(arg.slice(2), true);
			else if (kind === "string") {
				if (next === undefined) r.diagnostics.push({ type: "error", message: `${raw} requires a value` });
				else {
					r.unknownFlags.set(arg.slice(2), next);
					i++;
				}
			} else if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
				r.unknownFlags.set(arg.slice(2), next);
				i++;
			} else r.unknownFlags.set(arg.slice(2), true);
		} else if (arg.startsWith("-") && arg.length > 1) {
			r.diagnostics.push({ type: "error", message: `Unknown option: ${raw}` });
		} else {
			addPositional(r, arg);
		}
	}
	return r;
}

/**
 * `Unknown option: --x` for every long flag that is neither built in nor in
 * `registered` (the flag names extensions registered). Run it once extensions
 * are loaded; until then every unknown long flag is an error.
 */
export function unknownFlagErrors(args: ParsedArgs, registered: ReadonlySet<string> = new Set()): Diagnostic[] {
	return [...args.unknownFlags.keys()]
		.filter((name) => !registered.has(name))
		.map((name) => ({ type: "error", message: `Unknown option: --${name}` }));
}

/** Interactive, print, json or rpc, from the flags and whether stdin is a terminal. */
export function resolveMode(args: ParsedArgs, stdinIsTTY: boolean): "interactive" | "print" | "json" | "rpc" {
	if (args.mode === "rpc") return "rpc";
	if (args.mode === "json") return "json";
	if (args.print || !stdinIsTTY) return "print";
	return "interactive";
}
