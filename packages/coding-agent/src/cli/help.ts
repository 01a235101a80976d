// `pi --help`. Plain text only: printing help must not load anything heavy.
import { subcommandHelp } from "./subcommands.js";

export interface ExtensionFlagHelp {
	name: string;
	description?: string;
	takesValue?: boolean;
}

const OPTIONS: [string, string][] = [
	["--provider <name>", "Provider of the model (with --model, or alone for its default model)"],
	["--model <pattern>", 'Model id or pattern; "provider/id" and a ":<thinking>" suffix work'],
	["--models <patterns>", "Comma-separated model patterns to cycle through (globs and fuzzy names)"],
	["--api-key <key>", "API key for this run (otherwise auth.json, then environment variables)"],
	["--thinking <level>", "Thinking level: off, minimal, low, medium, high, xhigh, max"],
	["--system-prompt <text>", "Replace the base system prompt (text or a file path)"],
	["--append-system-prompt <text>", "Append to the system prompt (text or a file path; repeatable)"],
	["--print, -p", "Non-interactive: answer the prompt, print the final text, exit"],
	["--mode <mode>", "Output mode: text (default), json (events as JSON lines) or rpc"],
	["--continue, -c", "Continue the most recent session in this directory"],
	["--resume, -r", "Pick a session to resume (interactive)"],
	["--session <path|id>", "Open a session file, or a session by (partial) id"],
	["--session-id <id>", "Create or open the session with exactly this id"],
	["--fork <path|id>", "Copy a session into a new one in this directory"],
	["--session-dir <dir>", "Where sessions are stored and looked up"],
	["--no-session", "Do not save the session"],
	["--name, -n <name>", "Display name for the session"],
	["--tools, -t <names>", "Comma-separated allowlist of tools"],
	["--exclude-tools, -xt <names>", "Comma-separated tools to disable"],
	["--no-tools, -nt", "Disable all tools"],
	["--no-builtin-tools, -nbt", "Disable the built-in tools, keep extension and custom tools"],
	["--extension, -e <path>", "Load an extension file or directory (repeatable)"],
	["--no-extensions, -ne", "Do not discover extensions (explicit -e still loads)"],
	["--no-mcp", "Turn off the built-in MCP support for this run"],
	["--skill <path>", "Load a skill file or directory (repeatable)"],
	["--no-skills, -ns", "Do not discover skills"],
	["--prompt-template <path>", "Load a prompt template file or directory (repeatable)"],
	["--no-prompt-templates, -np", "Do not discover prompt templates"],
	["--theme <path>", "Load a theme file or directory (repeatable)"],
	["--use-theme <name>", "Theme to start the app with (this run only)"],
	["--no-themes", "Do not discover themes"],
	["--no-context-files, -nc", "Do not load AGENTS.md / CLAUDE.md"],
	["--approve, -a, --no-approve, -na", "Trust (or not) this project's .pi/ resources for this run"],
	["--tui-mode <mode>", "Accepted for 1.x compatibility (regular, fullscreen); the app has one screen mode"],
	["--export <file|id> [out]", "Export a session to one self-contained HTML file and exit"],
	["--list-models [search]", "List models with credentials (optionally filtered)"],
	["--verbose", "Verbose startup: list loaded resources with their origin, and every diagnostic"],
	["--offline", "No startup network activity (same as PI_OFFLINE=1)"],
	["--", "End of options: everything after is a message or @file"],
	["--help, -h", "Show this help"],
	["--version, -v", "Show the version"],
];

const ENVIRONMENT: [string, string][] = [
	["PI_CODING_AGENT_DIR", "Config directory (default ~/.pi/agent)"],
	["PI_CODING_AGENT_SESSION_DIR", "Session directory (overridden by --session-dir)"],
	["PI_OFFLINE", "1 disables startup network activity"],
	["PI_COMPILE_CACHE", "Where compiled code is kept between runs (0 turns it off)"],
	["PI_FRAME_CACHE", "off: no early first frame from the folder's last start"],
	["ANTHROPIC_API_KEY", "Anthropic key (ANTHROPIC_OAUTH_TOKEN for OAuth tokens)"],
	["OPENAI_API_KEY", "OpenAI key"],
	["GEMINI_API_KEY", "Google Gemini key"],
	["OPENROUTER_API_KEY, GROQ_API_KEY, XAI_API_KEY, MISTRAL_API_KEY, DEEPSEEK_API_KEY, …", "Other providers"],
];

function table(rows: [string, string][], width: number): string {
	return rows
		.map(([a, b]) => (a.length >= width ? `  ${a}\n  ${" ".repeat(width)}${b}` : `  ${a.padEnd(width)}${b}`))
		.join("\n");
}

export function formatHelp(version: string, extensionFlags: ExtensionFlagHelp[] = []): string {
	const parts = [
		`pi ${version} — a coding agent for the terminal, with read, bash, edit and write tools`,
		"",
		"Usage:",
		"  pi [options] [@files...] [messages...]",
		"  pi <command> [args...]",
		"",
		"Commands:",
		table(subcommandHelp(), 32),
		"",
		"Options:",
		table(OPTIONS, 32),
	];
	if (extensionFlags.length > 0) {
		parts.push(
			"",
			"Extension flags:",
			table(
				extensionFlags.map((f) => [`--${f.name}${f.takesValue ? " <value>" : ""}`, f.description ?? ""]),
				32,
			),
		);
	}
	parts.push(
		"",
		"Examples:",
		'  pi -p "List the TypeScript files in src/"',
		'  pi @screenshot.png @notes.md "What is wrong here?"',
		'  cat error.log | pi -p "Explain this error"',
		'  pi --continue -p "And now fix it"',
		'  pi --model openai/gpt-5.4:high -p "Review this change"',
		'  pi --tools read,grep,find,ls -p "Review the code in src/"',
		'  pi --mode json -p "Run the tests" > events.jsonl',
		"",
		"Files (in the config directory):",
		"  settings.json  auth.json  models.json  AGENTS.md  SYSTEM.md  APPEND_SYSTEM.md  sessions/",
		"",
		"Environment:",
		table(ENVIRONMENT, 32),
		"",
	);
	return parts.join("\n");
}
