// Everything after argument parsing: settings, credentials, models, the
// session, then a mode. Loaded with import() by main() so `--version` and
// `--help` never pay for it.

import { fstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isatty } from "node:tty";
import { redact } from "@pi/ai";
import { type BackgroundQueryResult, queryTerminalBackground } from "@pi/tui/terminal-background";
import { createAgentSession } from "../agent-session/create-agent-session.js";
import type { SubmitOptions } from "../agent-session/extension-bridge.js";
import { lateToolFilter } from "../agent-session/tool-selection.js";
import { withLoginFlows } from "../auth/flows.js";
import { AuthStorage } from "../config/auth.js";
import { formatNoModelsMessage } from "../config/auth-guidance.js";
import { registerConfiguredSecrets } from "../config/configured-secrets.js";
import { ggufPathArgument, modelFromGgufArgument } from "../config/local-models.js";
import { ModelRegistry } from "../config/model-registry.js";
import { resolveCliModel, resolveModelScope } from "../config/model-resolver.js";
import { agentPaths, getAgentDir, resolveSessionDir } from "../config/paths.js";
import type { ExtensionError } from "../extensions/types.js";
import { SYSTEM_THEME, themeFollowsTerminal } from "../modes/interactive/themes/follows-terminal.js";
import { AgentSessionRuntime } from "../runtime/agent-session-runtime.js";
import { flagKinds, formatExtensionError } from "../runtime/extension-setup.js";
import { createSessionServices, type SessionServicesOptions } from "../runtime/services.js";
import { setSessionIndexDir } from "../session/index-cache.js";
import { formatLoadWarning } from "../session/load.js";
import { getDefaultSessionDir } from "../session/paths.js";
import { setTempFileJournal, sweepStaleTempFiles } from "../tools/shared/temp-files.js";
import { VERSION } from "../version.js";
import type { ParsedArgs } from "./args.js";
import { parseArgs, resolveMode, unknownFlagErrors } from "./args.js";
import { BUILTIN_EXTENSIONS } from "./builtin-extensions.js";
import { takeEarlyFrame } from "./early-frame-handoff.js";
import { buildInitialPrompts, FileArgError, processFileArgs, readPipedStdin } from "./file-args.js";
import { describeLlamaBackend, filterModels, formatModelTable } from "./list-models.js";
import { CliUsageError, openSessionTarget } from "./session-target.js";

export interface CliIo {
	stdin: NodeJS.ReadStream;
	/**
	 * The descriptor behind `stdin` when it is the process's own (0). run() then asks the
	 * descriptor whether it is a terminal and reads a file or /dev/null itself, so that
	 * `process.stdin` (a stream made on first access, a few ms of module loading and set-up)
	 * is made only when stdin is a pipe or a mode reads it (interactive, RPC).
	 */
	stdinFd?: number;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	env: NodeJS.ProcessEnv;
	cwd: string;
}

const defaultIo = (): CliIo => ({
	get stdin() {
		return process.stdin;
	},
	stdinFd: 0,
	stdout: process.stdout,
	stderr: process.stderr,
	env: process.env,
	cwd: process.cwd(),
});

/**
 * All of piped stdin. A regular file or a character device (</dev/null, as CI and scripts
 * give) is read from the descriptor, which cannot block; a pipe or socket through the stream.
 */
async function readStdinText(io: CliIo): Promise<string | undefined> {
	if (io.stdinFd !== undefined) {
		const info = fstatSync(io.stdinFd);
		if (info.isFile() || info.isCharacterDevice()) return readFileSync(io.stdinFd, "utf8");
	}
	return readPipedStdin(io.stdin);
}

/** What run() started that must end before the CLI does. */
interface Pending {
	/** The app's question to the terminal (OSC 11 + DA1), sent before the app's code loads. */
	terminalBackground?: Promise<BackgroundQueryResult>;
}

/** Runs the CLI for parsed arguments; returns the exit code. */
export async function runCli(args: ParsedArgs, io: CliIo = defaultIo(), argv?: readonly string[]): Promise<number> {
	const err = (text: string) => io.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
	const pending: Pending = {};
	try {
		return await run(args, io, err, argv, pending);
	} catch (error) {
		if (error instanceof CliUsageError || error instanceof FileArgError) {
			err(`Error: ${error.message}`);
			return 1;
		}
		err(redact(error instanceof Error ? error.message : String(error)));
		return 1;
	} finally {
		// A run that ends before the app (a bad @file, an unknown session) waits for the terminal's
		// reply (bounded): arriving after the exit, it would be typed into the shell.
		await pending.terminalBackground;
	}
}

async function run(
	args: ParsedArgs,
	io: CliIo,
	err: (text: string) => void,
	argv: readonly string[] | undefined,
	pending: Pending,
): Promise<number> {
	const stdinIsTTY = io.stdinFd === undefined ? Boolean(io.stdin.isTTY) : isatty(io.stdinFd);
	const mode = resolveMode(args, stdinIsTTY);
	// The first frame dist/cli.js may have put on the screen (early-frame.ts): the app adopts it.
	const early = takeEarlyFrame();
	if (mode !== "interactive") early?.release();
	// The app shows start-up warnings inside it (its screen would paint over
	// stderr); the other modes write them to stderr at once.
	const startupNotes: string[] = [];
	// Once the app runs, later warnings (a damaged session opened with /resume) go straight into it.
	let noteInApp: ((text: string) => void) | undefined;
	const warn =
		mode === "interactive" ? (text: string) => (noteInApp ? noteInApp(text) : void startupNotes.push(text)) : err;
	if (args.offline) io.env.PI_OFFLINE = "1";
	if (args.resume && mode !== "interactive") {
		throw new CliUsageError(
			"--resume opens an interactive session picker, which print, json and rpc modes cannot show. " +
				"Use --continue for the most recent session, or --session <path|id> for a specific one.",
		);
	}
	if (args.export) {
		const { runExport } = await import("./export-command.js");
		return runExport(args, io, err);
	}
	if (mode === "rpc" && (args.messages.length > 0 || args.fileArgs.length > 0)) {
		throw new CliUsageError("RPC mode takes prompts as `prompt` commands on stdin, not as arguments or @files.");
	}

	const cwd = io.cwd;
	const agentDir = getAgentDir(io.env);
	const paths = agentPaths(agentDir);
	// Temp files of atomic writes that a killed run left behind are removed; this run's are journaled.
	setTempFileJournal(join(agentDir, "pending-writes"));
	// Resumes restore a session's tree from its index instead of scanning the file (session/index-cache.ts).
	setSessionIndexDir(join(agentDir, "cache", "session-index"));
	await sweepStaleTempFiles();
	// The folder's services, trust first: nothing from the project (its settings included) loads
	// before it is decided. The interactive app asks (before anything from the folder loads) when
	// the decision is "ask"; the other modes keep --approve. Built again when a switch enters another folder.
	// Before the app runs its own small screen (modes/interactive/trust-prompt.ts); once it runs
	// (a switch entered another folder), a choice in the app's editor area.
	let askInApp: SessionServicesOptions["askTrust"];
	const askTrustInApp: NonNullable<SessionServicesOptions["askTrust"]> = async (request) => {
		if (askInApp) return askInApp(request);
		// The prompt's own screen and terminal: not over an early frame, nor in its raw mode.
		early?.release();
		const { askProjectTrust } = await import("../modes/interactive/trust-prompt.js");
		return askProjectTrust({ cwd: request.cwd, resources: request.resources });
	};
	const servicesOptions: SessionServicesOptions = {
		cwd,
		agentDir,
		mode: mode === "interactive" ? "tui" : mode,
		approve: args.approve,
		extensions: {
			cliPaths: args.extensions,
			noExtensions: args.noExtensions,
			disabledBuiltins: args.noMcp ? ["mcp"] : undefined,
			builtins: BUILTIN_EXTENSIONS,
		},
		resources: {
			systemPrompt: args.systemPrompt,
			appendSystemPrompt: args.appendSystemPrompt,
			noContextFiles: args.noContextFiles,
			skillPaths: args.skills,
			noSkills: args.noSkills,
			promptTemplatePaths: args.promptTemplates,
			noPromptTemplates: args.noPromptTemplates,
			themePaths: args.themes,
			noThemes: args.noThemes,
		},
		// Pi packages: the user's and -e ones before trust, the project's after it (packages/startup.ts).
		packages: { env: io.env },
		askTrust: mode === "interactive" ? askTrustInApp : undefined,
		onExtensionError: (e) =>
			mode === "json"
				? io.stdout.write(`${JSON.stringify({ type: "extension_error", ...e })}\n`)
				: warn(formatExtensionError(e)),
		notify: mode === "print" ? (message) => err(message) : undefined,
	};
	const services = await createSessionServices(servicesOptions);
	const { settings, resources } = services;
	// The app's theme follows the terminal's background by default (`system`): the question (OSC 11)
	// goes out as soon as the settings say so, behind the trust prompt (which reads the terminal) and
	// before the app's code loads, so the answer is back by the time the app draws instead of the app
	// waiting a terminal round trip (over ssh a network one) first. runCli waits for it on every way out.
	if (
		mode === "interactive" &&
		args.listModels === undefined &&
		themeFollowsTerminal(args.useTheme ?? settings.getTheme() ?? SYSTEM_THEME)
	) {
		pending.terminalBackground = queryTerminalBackground({ input: io.stdin, output: io.stdout });
	}
	for (const w of services.warnings) warn(w);
	const auth = AuthStorage.create(paths.auth, withLoginFlows({ env: io.env, shell: settings.getShellPath() }));
	const authWarning = auth.getLoadWarning();
	if (authWarning) warn(authWarning);
	for (const notice of auth.takePermissionNotices()) warn(notice);
	const registry = ModelRegistry.create(auth, paths.models, { env: io.env, shell: settings.getShellPath() });
	// Every configured secret is known to the redaction pass from here on, not only the keys a
	// request sends: a tool or the model echoing another provider's key stays out of the session.
	registerConfiguredSecrets({ env: io.env, authFile: paths.auth, modelsFile: paths.models, extra: [args.apiKey] });
	for (const e of registry.getErrors()) warn(`Warning: ${e}`);
	if (args.verbose) for (const line of resources.describe()) warn(line);

	// -- unknown long flags ------------------------------------------------------
	// Legal only when an extension registers them, so this runs once extensions
	// are loaded and before anything is sent; registered flags re-parse by kind.
	const ext = services.extensions;
	// The interactive app shows these inside its screen (printed here they would sit above the TUI).
	const extensionProblems = [...ext.warnings, ...ext.errors.map((e) => `Error: ${e.message}`)];
	if (mode !== "interactive") {
		for (const w of ext.warnings) err(w);
		for (const e of ext.errors) err(`Error: ${e.message}`);
		// Outside the interactive app a file that cannot load stops the run before any request.
		if (ext.errors.length > 0) return 1;
	}
	// Providers and virtual models registered by the factories count for --model and --list-models.
	if (ext.runner) {
		const { applyLoadedRegistrations } = await import("../agent-session/extension-virtual-models.js");
		await applyLoadedRegistrations(ext.runner, registry, (e) => err(formatExtensionError(e)));
	}
	const extensionFlags = ext.runner?.getFlags() ?? [];
	if (extensionFlags.length > 0 && argv) {
		// Registered flags parse by their kind (a boolean never eats the next word).
		const reparsed = parseArgs(argv, flagKinds(extensionFlags));
		args.messages = reparsed.messages;
		args.fileArgs = reparsed.fileArgs;
		args.unknownFlags = reparsed.unknownFlags;
	}
	const extensionFlagNames = new Set(extensionFlags.map((f) => f.name));
	for (const flag of extensionFlags) {
		const given = args.unknownFlags.get(flag.name);
		if (given === undefined) continue;
		ext.runner?.runtime.flagValues.set(flag.name, flag.type === "boolean" ? given !== "false" : String(given));
	}
	const flagErrors = unknownFlagErrors(args, extensionFlagNames);
	if (flagErrors.length > 0) {
		for (const d of flagErrors) err(`Error: ${d.message}`);
		return 1;
	}

	if (args.listModels !== undefined) {
		const models = filterModels(registry.getAvailable(), args.listModels === true ? undefined : args.listModels);
		if (models.length === 0) {
			if (registry.getAvailable().length === 0) io.stdout.write(`${formatNoModelsMessage(agentDir)}\n`);
			else io.stdout.write(`No models matching "${args.listModels}"\n`);
		} else io.stdout.write(`${formatModelTable(models)}\n`);
		return 0;
	}

	// -- model --------------------------------------------------------------
	const ggufPath = args.model ? ggufPathArgument(args.model, cwd) : undefined;
	if (ggufPath) {
		// `--model ./file.gguf`: the file's own model, run in this process.
		const local = modelFromGgufArgument(ggufPath);
		if (!local.model) {
			err(`Error: ${local.error}`);
			return 1;
		}
		registry.registerModel(local.model);
		args.model = `${local.model.provider}/${local.model.id}`;
	}
	const cli = resolveCliModel({ provider: args.provider, model: args.model, models: registry.getAll() });
	if (cli.error) {
		err(`Error: ${cli.error}`);
		return 1;
	}
	if (cli.warning) warn(`Warning: ${cli.warning}`);
	const scopePatterns = args.models ?? settings.getEnabledModels() ?? [];
	if (args.apiKey && !cli.model && !args.models) {
		throw new CliUsageError("--api-key requires a model to be specified via --model, --provider/--model, or --models");
	}
	if (args.apiKey && cli.model) auth.setRuntimeApiKey(cli.model.provider, args.apiKey);
	// (No patterns, no scope: the list of available models is not built for nothing.)
	const scope =
		scopePatterns.length === 0
			? { scoped: [], warnings: [] }
			: resolveModelScope(scopePatterns, args.apiKey && args.models ? registry.getAll() : registry.getAvailable());
	for (const w of scope.warnings) warn(`Warning: ${w}`);
	if (args.apiKey && !cli.model && scope.scoped[0]) auth.setRuntimeApiKey(scope.scoped[0].model.provider, args.apiKey);

	// -- prompt input (before the session, so bad @files fail fast) ------------
	// (RPC mode reads commands from stdin instead.)
	const files = await processFileArgs(mode === "rpc" ? [] : args.fileArgs, cwd, settings.getImageSettings());
	const stdinText = stdinIsTTY || mode === "rpc" ? undefined : await readStdinText(io);
	const prompts = buildInitialPrompts(args.messages, files, stdinText);
	if (mode !== "rpc" && mode !== "interactive" && !prompts.initial && prompts.rest.length === 0) {
		throw new CliUsageError('No prompt given. Pass a message (pi -p "…"), @files, or pipe text on stdin.');
	}

	// -- session ------------------------------------------------------------
	const explicitDir = resolveSessionDir({ cli: args.sessionDir, settings: settings.getSessionDir(), cwd, env: io.env });
	const sessionManager = openSessionTarget(args, {
		cwd,
		agentDir,
		sessionDir: explicitDir ?? getDefaultSessionDir(cwd, agentDir),
		customSessionDir: explicitDir !== undefined,
		// Damaged lines are named (file, line) when the session is opened: on stderr, or inside the app.
		onWarning: (w) => warn(formatLoadWarning(w)),
	});

	// Interactive: input problems (an unreadable /skill: file) become notices once the app runs.
	let showInApp = (_message: string) => {};
	const { session, modelFallbackMessage, warnings } = await createAgentSession({
		cwd,
		agentDir,
		settingsManager: settings,
		authStorage: auth,
		modelRegistry: registry,
		sessionManager,
		resourceLoader: resources,
		// --verbose already printed every diagnostic.
		quietResourceDiagnostics: args.verbose,
		onInputError: mode === "interactive" ? (message) => showInApp(message) : (message) => err(`Warning: ${message}`),
		model: cli.model,
		thinkingLevel: args.thinking ?? cli.thinkingLevel,
		scopedModels: scope.scoped,
		tools: args.tools,
		excludeTools: args.excludeTools,
		noTools: args.noTools ? "all" : args.noBuiltinTools ? "builtin" : undefined,
	});
	if (mode !== "interactive") {
		for (const w of warnings) err(w);
		if (modelFallbackMessage) err(`Warning: ${modelFallbackMessage}`);
	}
	if (args.name) session.setSessionName(args.name);
	const embedded = session.model?.api === "llama-cpp" ? session.model : undefined;
	if (embedded && !cli.model && registry.getAvailable().every((m) => m.api === "llama-cpp")) {
		warn(`No provider has credentials: using the local model ${embedded.provider}/${embedded.id} (${embedded.path}).`);
	}
	if (embedded && args.verbose) warn(await describeLlamaBackend());

	// The runtime owns the session, its folder's services and the extension bridge (rebuilt on
	// /reload and when a switch enters another folder). json/rpc report handler errors as
	// `extension_error` events, print on stderr; the app draws them as notices itself.
	let writeExtensionError = (e: ExtensionError) => err(formatExtensionError(e));
	if (mode === "interactive") writeExtensionError = () => {};
	if (mode === "json") {
		writeExtensionError = (e) => io.stdout.write(`${JSON.stringify({ type: "extension_error", ...e })}\n`);
	}
	let requestShutdown = () => {};
	let redrawSessionInApp = () => {};
	const { createNoUIContext } = await import("../extensions/no-ui.js");
	const runtime = await AgentSessionRuntime.create({
		session,
		services,
		servicesOptions,
		onExtensionError: (e) => writeExtensionError(e),
		// Like the load-time warnings: stderr outside the app, which shows them as notices itself.
		onExtensionWarning: (w) => {
			if (mode !== "interactive") err(w);
		},
		bridge: {
			mode: mode === "interactive" ? "tui" : mode,
			// Print and json modes show notifications on stderr (json's stdout carries only events).
			ui: createNoUIContext(mode === "print" || mode === "json" ? (message) => err(message) : undefined),
			hasUI: mode === "rpc" || mode === "interactive",
			onShutdownRequest: () => requestShutdown(),
			onSessionReplaced: () => redrawSessionInApp(),
			lateToolFilter: lateToolFilter(args.tools, args.excludeTools, settings.get("defaultTools")),
		},
	});
	const bridge = runtime.bridge;
	const submitThroughBridge = (text: string, options: SubmitOptions) => {
		const current = runtime.bridge;
		return current ? current.submit(text, options) : session.prompt(text, options);
	};

	if (mode === "rpc") {
		const { runRpcCli } = await import("../modes/rpc/rpc-cli.js");
		try {
			return await runRpcCli(session, {
				resources,
				stdin: io.stdin,
				stdout: io.stdout,
				stderr: io.stderr,
				extensions: bridge
					? {
							bridge,
							runtime,
							setErrorWriter: (write) => {
								writeExtensionError = write;
							},
						}
					: undefined,
			});
		} finally {
			await runtime.dispose();
		}
	}
	if (mode === "interactive") {
		// pi's own account logins are loaded by /login when it runs (and by a request with a stored
		// login): their modules bring node:http's client and server, which the first screen does not need.
		const { runInteractiveMode } = await import("../modes/interactive/interactive-mode.js");
		try {
			const code = await runInteractiveMode({
				session,
				cwd,
				agentDir,
				sessionDir: explicitDir ?? getDefaultSessionDir(cwd, agentDir),
				version: VERSION,
				contextFiles: resources.getContextFiles().map((f) => f.path),
				skills: resources.getSkills().map((s) => s.name),
				warnings: [
					...startupNotes,
					...warnings,
					...(modelFallbackMessage ? [modelFallbackMessage] : []),
					...(bridge ? [] : extensionProblems),
				],
				initialPrompt: prompts.initial,
				followingPrompts: prompts.rest,
				openResumePicker: args.resume === true,
				themeFiles: resources.getThemeFiles().map((t) => t.path),
				useTheme: args.useTheme,
				terminalBackground: pending.terminalBackground,
				resourceCommands: {
					templates: () => resources.getPromptTemplates(),
					skills: () => resources.getSkills(),
					skillCommandsEnabled: () => settings.get("enableSkillCommands") !== false,
				},
				// The app emits session_start once its screen is up, and session_shutdown when it ends.
				extensions: bridge && ext.runner ? { bridge, runner: ext.runner, problems: extensionProblems } : undefined,
				runtime,
				// Through the bridge in charge at the time (a /reload may bring the first extensions).
				submit: (text, options) => submitThroughBridge(text, { ...options, source: "interactive" }),
				startScreen: early,
				onFirstFrame: early?.save,
				bindApp: (app) => {
					showInApp = (message) => app.showStatus(message, "warning");
					noteInApp = showInApp;
					requestShutdown = () => void app.shutdown();
					redrawSessionInApp = () => app.redrawSession();
					askInApp = (request) => app.askProjectTrust(request.cwd, request.resources);
				},
			});
			const { formatResumeCommand, resumeHint } = await import("./resume-hint.js");
			const resume = formatResumeCommand(session.sessionManager, explicitDir !== undefined);
			if (resume && (io.stdout as { isTTY?: boolean }).isTTY) io.stdout.write(resumeHint(resume));
			return code;
		} finally {
			// The app emitted session_shutdown ("quit") when it ended.
			runtime.session.setSwitchObserver(undefined);
			session.dispose();
			await runtime.services.settings.flush();
		}
	}
	const { runPrintMode } = await import("../modes/print-mode.js");
	// A signal aborts the run (the aborted message is recorded) and the process
	// exits with 128 + the signal number, as shells expect.
	const signals = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
	let signalExit: number | undefined;
	const handlers = Object.entries(signals).map(([name, code]) => {
		const handler = () => {
			signalExit ??= code;
			void session.abort();
		};
		process.once(name, handler);
		return [name, handler] as const;
	});
	try {
		await bridge?.start("startup");
		const code = await runPrintMode(session, {
			format: mode === "json" ? "json" : "text",
			initial: prompts.initial,
			rest: prompts.rest,
			stdout: io.stdout,
			stderr: io.stderr,
			submit: bridge ? (text, images) => submitThroughBridge(text, { images, source: "interactive" }) : undefined,
		});
		return signalExit ?? code;
	} finally {
		for (const [name, handler] of handlers) process.off(name, handler);
		await runtime.dispose();
	}
}
