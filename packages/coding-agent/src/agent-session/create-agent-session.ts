// createAgentSession: the SDK entry. Builds (or takes) the settings, credential
// store, model registry, session store, resource loader and tools; picks the
// starting model; and returns a ready AgentSession. Every part can be supplied
// by the caller (in-memory session, custom tools, custom resource loader).
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { Agent, type AgentTool, type StreamFn } from "@pi/agent-core";
import type { Model, ThinkingLevel } from "@pi/ai";
import { withLoginFlows } from "../auth/flows.js";
import { AuthStorage } from "../config/auth.js";
import { ModelRegistry } from "../config/model-registry.js";
import { type ScopedModel, selectInitialModel } from "../config/model-resolver.js";
import { agentPaths, getAgentDir, resolveSessionDir } from "../config/paths.js";
import { hasTrustRequiringProjectResources, resolveProjectTrust } from "../config/project-trust.js";
import { SettingsManager } from "../config/settings.js";
import { lastAnsweredBy, restoredSelection } from "../config/virtual-models.js";
import type { ExtensionError, ExtensionFactory, ExtensionMode } from "../extensions/types.js";
import { type ResourceCommandSource, useResourceCommands } from "../input/resource-commands.js";
import { convertToLlm } from "../messages.js";
import { DefaultResourceLoader, type ResourceLoader } from "../resources/resource-loader.js";
import type { AgentSessionRuntime } from "../runtime/agent-session-runtime.js";
import type { SessionServicesOptions } from "../runtime/services.js";
import { getDefaultSessionDir } from "../session/paths.js";
import { SessionManager } from "../session/session-manager.js";
import { allToolNames, createAllTools, defaultToolNames } from "../tools/index.js";
import { AgentSession } from "./agent-session.js";
import { CacheWarmer } from "./cache-warmer.js";
import { ModelRuntime } from "./model-runtime.js";
import { PromptRecorder } from "./prompt-recorder.js";
import { selectToolNames } from "./tool-selection.js";

// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live side by side
type AnyTool = AgentTool<any>;

export interface CreateAgentSessionOptions {
	/** Working directory for tools, context files and session naming. Default: process.cwd(). */
	cwd?: string;
	/** Global config dir. Default: $PI_CODING_AGENT_DIR or ~/.pi/agent. */
	agentDir?: string;
	settingsManager?: SettingsManager;
	authStorage?: AuthStorage;
	modelRegistry?: ModelRegistry;
	/** Default: a new persisted session for cwd (use SessionManager.inMemory() for none). */
	sessionManager?: SessionManager;
	/** Default: DefaultResourceLoader for cwd/agentDir. A given loader must already be loaded. */
	resourceLoader?: ResourceLoader;
	/** Starting model (else: the continued session's, the saved default, the first with credentials). */
	model?: Model;
	thinkingLevel?: ThinkingLevel;
	/** Models for cycling, with optional levels. */
	scopedModels?: ScopedModel[];
	/** Allowlist of tool names (built-in and custom). Default: read, bash, edit, write + every custom tool. */
	tools?: string[];
	/** Tool names to disable. */
	excludeTools?: string[];
	/** "all": no tools at all; "builtin": only custom tools. */
	noTools?: "all" | "builtin";
	customTools?: AnyTool[];
	/** Do not add the resource loader's diagnostics to `warnings` (the caller printed them). */
	quietResourceDiagnostics?: boolean;
	/** A `/skill:name` whose file cannot be read at invocation (the text is sent as typed). Default: stderr. */
	onInputError?: (message: string) => void;
	/** Project trust for the default settings and resource loader (see SdkProjectTrust). */
	projectTrust?: SdkProjectTrust;
	/** Stream function under the session (tests, proxies). Default: pi-ai's stream. */
	streamFn?: StreamFn;
	/**
	 * Load extensions (discovered as `pi` does, plus `paths` and inline
	 * `factories`); the result then has a `runtime` that owns them. Needs the
	 * default settings and resource loader (leave both options unset).
	 */
	extensions?: SdkExtensionOptions;
}

export interface SdkExtensionOptions {
	/** Extension files or directories, like `pi -e` (relative to cwd). */
	paths?: string[];
	/** Extension factories given in code, loaded after the files. */
	factories?: ExtensionFactory[];
	/** false: only `paths` and `factories`, no discovery (`~/.pi/agent/extensions`, `.pi/extensions`, settings). Default true. */
	discover?: boolean;
	/** `ctx.mode` the extensions see. Default "print" (no UI: dialogs answer with their defaults). */
	mode?: ExtensionMode;
	/** Handler errors (default: one line on stderr). */
	onError?: (error: ExtensionError) => void;
}

/**
 * Whether the project's own files (`.pi/settings.json`, `.pi/SYSTEM.md`,
 * `APPEND_SYSTEM.md`, project resources) may load: "trusted", "untrusted", or
 * a function deciding from the folder. Default: the saved decision for the
 * folder (`trust.json`, as `pi` keeps it), else untrusted (an SDK cannot ask).
 */
export type SdkProjectTrust = "trusted" | "untrusted" | ((cwd: string) => boolean);

function decideSdkProjectTrust(options: CreateAgentSessionOptions, cwd: string, agentDir: string): boolean {
	const given = options.projectTrust;
	if (given === "trusted") return true;
	if (given === "untrusted") return false;
	if (!hasTrustRequiringProjectResources(cwd)) return true;
	if (typeof given === "function") return given(cwd);
	const global = SettingsManager.create({ cwd, agentDir, loadProject: false });
	return resolveProjectTrust({ cwd, agentDir, defaultProjectTrust: global.get("defaultProjectTrust") }).trusted;
}

export interface CreateAgentSessionResult {
	session: AgentSession;
	/**
	 * With `extensions`: the runtime owning the session, its folder's
	 * services and the extensions (already started: session_start was
	 * emitted). `runtime.dispose()` ends them (session_shutdown) and the session.
	 */
	runtime?: AgentSessionRuntime;
	/** Set when a continued session's model could not be restored. */
	modelFallbackMessage?: string;
	/** Load problems worth showing (malformed settings/auth/models.json, resource diagnostics). */
	warnings: string[];
}

/**
 * The `defaultTools` setting (1.x): plain names replace the built-in default
 * set; a list of only `+name`/`-name` entries adds to or removes from it.
 * Anything but an array of strings leaves the defaults.
 */
export function applyDefaultToolsSetting(setting: unknown): string[] {
	if (!Array.isArray(setting) || !setting.every((n) => typeof n === "string")) return [...defaultToolNames];
	const entries = setting as string[];
	const plain = entries.filter((n) => !n.startsWith("+") && !n.startsWith("-"));
	const names = new Set(plain.length > 0 || entries.length === 0 ? plain : defaultToolNames);
	for (const n of entries) {
		if (n.startsWith("+")) names.add(n.slice(1));
		else if (n.startsWith("-")) names.delete(n.slice(1));
	}
	return [...names];
}

function activeToolNames(options: CreateAgentSessionOptions, custom: AnyTool[], defaultTools: unknown): string[] {
	if (options.noTools === "all") return [];
	const customNames = custom.map((t) => t.name);
	const known = [...new Set<string>([...allToolNames, ...customNames])];
	const base = options.noTools === "builtin" ? [] : applyDefaultToolsSetting(defaultTools);
	const names = selectToolNames({
		tools: options.tools,
		excludeTools: options.excludeTools,
		known,
		defaults: [...base.filter((n) => known.includes(n)), ...customNames],
	});
	return options.noTools === "builtin" ? names.filter((n) => customNames.includes(n)) : names;
}

/** `/skill:name` and `/template` over the loader's current skills and templates (the pipeline's resource slots). */
function resourceCommandSource(
	resources: ResourceLoader,
	skillCommands: () => boolean,
	onError: (message: string) => void,
): ResourceCommandSource {
	return {
		// `enableSkillCommands: false` turns `/skill:name` off (typed, it is sent as text).
		skills: () =>
			!skillCommands()
				? []
				: (resources.getSkillDetails?.() ?? resources.getSkills().map((s) => ({ ...s, baseDir: dirname(s.filePath) }))),
		templates: () => resources.getPromptTemplates?.() ?? [],
		readFile: (path) => readFileSync(path, "utf8"),
		onError,
	};
}

export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<CreateAgentSessionResult> {
	const cwd = options.cwd ?? process.cwd();
	const agentDir = options.agentDir ?? getAgentDir();
	const paths = agentPaths(agentDir);
	const warnings: string[] = [];

	if (options.extensions && (options.settingsManager || options.resourceLoader)) {
		throw new Error("createAgentSession: `extensions` needs the default settingsManager and resourceLoader");
	}
	// Trust first: nothing from the project (.pi/settings.json, SYSTEM.md, …) loads before it is decided.
	// With extensions the runtime's services decide it (once) and own settings, resources and extensions.
	const servicesOptions = options.extensions
		? sdkServicesOptions(options.extensions, options.projectTrust, cwd, agentDir)
		: undefined;
	const services = servicesOptions
		? await (await import("../runtime/services.js")).createSessionServices(servicesOptions)
		: undefined;
	const trusted =
		services?.trust.trusted ??
		(options.settingsManager && options.resourceLoader ? true : decideSdkProjectTrust(options, cwd, agentDir));
	if (services) warnings.push(...services.warnings);
	const settings =
		services?.settings ?? options.settingsManager ?? SettingsManager.create({ cwd, agentDir, loadProject: trusted });
	if (!options.settingsManager && !services) warnings.push(...settings.getWarnings().map((w) => w.message));
	const auth = options.authStorage ?? AuthStorage.create(paths.auth, withLoginFlows());
	const authWarning = auth.getLoadWarning();
	if (!options.authStorage && authWarning) warnings.push(authWarning);
	if (!options.authStorage) warnings.push(...auth.takePermissionNotices());
	const registry = options.modelRegistry ?? ModelRegistry.create(auth, paths.models);
	if (!options.modelRegistry) warnings.push(...registry.getErrors());
	const loadedRunner = services?.extensions.runner;
	if (loadedRunner) {
		const { applyLoadedRegistrations } = await import("./extension-virtual-models.js");
		await applyLoadedRegistrations(loadedRunner, registry, (e) =>
			options.extensions?.onError
				? options.extensions.onError(e)
				: warnings.push(`Error: ${e.error} (${e.extensionPath})`),
		);
	}

	const sessionManager =
		options.sessionManager ??
		SessionManager.create(
			cwd,
			resolveSessionDir({ settings: settings.getSessionDir(), cwd }) ?? getDefaultSessionDir(cwd, agentDir),
		);

	let resources: ResourceLoader | undefined = services?.resources ?? options.resourceLoader;
	if (!resources) {
		const loader = new DefaultResourceLoader({ cwd, agentDir, loadProjectResources: trusted });
		await loader.reload();
		resources = loader;
	}
	if (!options.quietResourceDiagnostics) warnings.push(...resources.getDiagnostics());

	// -- model ------------------------------------------------------------------
	const existing = sessionManager.buildSessionContext();
	const isNewSession = !existing.messages.some((m) => m.role === "user" || m.role === "assistant");
	const answeredBy = lastAnsweredBy(existing.messages);
	const selection = restoredSelection(sessionManager.getBranchEntries("model_change"), existing.model, (p, id) =>
		registry.find(p, id),
	);
	const restored = selection
		? {
				provider: selection.provider,
				modelId: selection.modelId,
				thinkingLevel: existing.thinkingLevel as ThinkingLevel,
				...(answeredBy ? { answeredBy } : {}),
			}
		: undefined;
	let all: Model[] | undefined;
	let available: Model[] | undefined;
	const initial = selectInitialModel({
		cli: options.model ? { model: options.model } : undefined,
		cliThinking: options.thinkingLevel,
		scoped: options.scopedModels,
		isNewSession,
		restored: isNewSession ? undefined : restored,
		defaultProvider: settings.getDefaultProvider(),
		defaultModel: settings.getDefaultModel(),
		defaultThinkingLevel: settings.getDefaultThinkingLevel(),
		// Listed only when asked (a --model given on the command line needs neither list).
		get all() {
			all ??= registry.getAll();
			return all;
		},
		get available() {
			available ??= registry.getAvailable();
			return available;
		},
	});

	// -- agent ------------------------------------------------------------------
	const retry = settings.getRetrySettings();
	const agent = new Agent({
		convertToLlm,
		steeringMode: settings.getSteeringMode(),
		followUpMode: settings.getFollowUpMode(),
		thinkingBudgets: settings.getThinkingBudgets(),
		sessionId: sessionManager.getSessionId(),
		streamOptions: providerStreamLimits(retry.provider),
	});
	let session: AgentSession | undefined;
	const models = new ModelRuntime({
		agent,
		registry,
		settings,
		sessionManager,
		agentDir,
		scopedModels: options.scopedModels,
		streamFn: options.streamFn,
		onThinkingLevelChanged: (level, previous) => session?.notifyThinkingLevelChanged(level, previous),
	});
	models.initialize(initial.model, initial.thinkingLevel);

	// -- tools ------------------------------------------------------------------
	const custom = options.customTools ?? [];
	const builtin = Object.values(
		createAllTools(cwd, {
			bash: { shellPath: settings.getShellPath(), commandPrefix: settings.getShellCommandPrefix() },
		}),
	);
	const byName = new Map<string, AnyTool>();
	for (const tool of [...builtin, ...custom]) byName.set(tool.name, tool);

	// Every request of the loop passes the warmer, which keeps the latest one's prompt cache warm.
	const cacheWarmer = new CacheWarmer({
		stream: () => models.directStreamFn,
		sessionManager,
		getMode: () => settings.getCacheWarmingMode(),
		currentModel: () => models.model,
		isBusy: () => session?.isStreaming ?? false,
	});
	agent.streamFn = cacheWarmer.observe(agent.streamFn ?? models.directStreamFn);

	session = new AgentSession({
		agent,
		sessionManager,
		settings,
		models,
		prompt: new PromptRecorder({ cwd, resources }),
		tools: [...byName.values()],
		activeToolNames: activeToolNames(options, custom, settings.get("defaultTools")),
		cwd,
		cacheWarmer,
	});
	session.subscribe((event) => {
		if (event.type === "agent_start") cacheWarmer.onRunStart();
		else if (event.type === "agent_settled") cacheWarmer.onSettled();
	});

	useResourceCommands(
		session.input,
		resourceCommandSource(
			resources,
			() => settings.get("enableSkillCommands") !== false,
			options.onInputError ?? ((message) => process.stderr.write(`Warning: ${message}\n`)),
		),
	);

	// -- record how the session starts (or what changed since it was left) ------
	const model = models.model;
	if (model) {
		if (!existing.model || existing.model.provider !== model.provider || existing.model.modelId !== model.id) {
			sessionManager.appendModelChange(model.provider, model.id);
		}
		if (isNewSession || existing.thinkingLevel !== models.thinkingLevel) {
			sessionManager.appendThinkingLevelChange(models.thinkingLevel);
		}
	}

	if (services && servicesOptions && options.extensions) {
		warnings.push(...services.extensions.warnings, ...services.extensions.errors.map((e) => `Error: ${e.message}`));
		const [{ AgentSessionRuntime }, { createNoUIContext }] = await Promise.all([
			import("../runtime/agent-session-runtime.js"),
			import("../extensions/no-ui.js"),
		]);
		const onError =
			options.extensions.onError ??
			((e: ExtensionError) => process.stderr.write(`Extension error (${e.extensionPath}, ${e.event}): ${e.error}\n`));
		const runtime = await AgentSessionRuntime.create({
			session,
			services,
			servicesOptions,
			onExtensionError: onError,
			bridge: { mode: servicesOptions.mode, ui: createNoUIContext(), hasUI: false },
		});
		await runtime.bridge?.start("startup");
		return { session, runtime, modelFallbackMessage: initial.fallbackMessage, warnings };
	}
	return { session, modelFallbackMessage: initial.fallbackMessage, warnings };
}

/**
 * The SDK's options as the runtime's services options. `projectTrust` keeps
 * its meaning in every folder the runtime enters: a fixed answer, a function
 * asked per folder, or (default) the saved decision, else untrusted.
 */
function sdkServicesOptions(
	o: SdkExtensionOptions,
	projectTrust: SdkProjectTrust | undefined,
	cwd: string,
	agentDir: string,
): SessionServicesOptions {
	return {
		cwd,
		agentDir,
		mode: o.mode ?? "print",
		approve: projectTrust === "trusted" ? true : projectTrust === "untrusted" ? false : undefined,
		askTrust:
			typeof projectTrust === "function" ? async (request) => (projectTrust(request.cwd) ? "once" : "no") : undefined,
		extensions: { cliPaths: o.paths, factories: o.factories, noExtensions: o.discover === false },
	};
}

/** The provider limits from settings that pi-ai takes per request; unset ones keep pi-ai's defaults. */
function providerStreamLimits(p: { timeoutMs?: number; maxResponseBytes?: number; maxResponseMs?: number }): {
	timeoutMs?: number;
	maxResponseBytes?: number;
	maxResponseMs?: number;
} {
	const limits: { timeoutMs?: number; maxResponseBytes?: number; maxResponseMs?: number } = {};
	if (p.timeoutMs !== undefined) limits.timeoutMs = p.timeoutMs;
	if (p.maxResponseBytes) limits.maxResponseBytes = p.maxResponseBytes;
	if (p.maxResponseMs) limits.maxResponseMs = p.maxResponseMs;
	return limits;
}
