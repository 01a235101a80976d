// The extension bridge's `ctx` builders: what a handler, a tool and a command
// see of the session. Each call makes a fresh object over the live session
// (model, thinking level and signal are getters, so they stay current).

import type { ModelType } from "@pi/ai";
import { isVirtualModel } from "../config/virtual-models.js";
import type { ModelOfType, ReplacedSessionContext } from "../extensions/context-types.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type {
	ExtensionCommandContext,
	ExtensionContext,
	ExtensionMode,
	ExtensionToolContext,
} from "../extensions/types.js";
import type { ExtensionUIContext } from "../extensions/ui-types.js";
import type { SessionManager } from "../session/session-manager.js";
import type { AgentSession } from "./agent-session.js";
import type { ExecuteToolOptions } from "./nested-tools.js";

export interface ExtensionContextDeps {
	session: AgentSession;
	runner: ExtensionRunner;
	mode: ExtensionMode;
	hasUI: boolean;
	projectTrusted: boolean;
	ui(): ExtensionUIContext;
	onShutdownRequest?: () => void;
	/** After a command's switch, before the editor text and withSession (the app redraws the transcript). */
	onSessionReplaced?: () => void;
	waitForIdle(): Promise<void>;
	systemPrompt(): string;
	/** The runtime's reload (ctx.reload); absent where there is no runtime. */
	reload?: () => Promise<{ ok: boolean; errors: string[] }>;
	/** withSession's ctx: a command ctx of the extensions in charge after a switch, with async senders. */
	replacedContext(): ReplacedSessionContext;
}

export function createExtensionContext(d: ExtensionContextDeps): ExtensionContext {
	const session = d.session;
	const registry = session.modelRegistry;
	return {
		ui: d.ui(),
		mode: d.mode,
		hasUI: d.hasUI,
		cwd: session.cwd,
		sessionManager: session.sessionManager,
		modelRegistry: {
			getAll: () => registry.getAll(),
			getAvailable: () => registry.getAvailable(),
			find: (provider, id) => registry.find(provider, id),
			hasAuth: (model) => registry.hasAuth(model),
			getApiKey: (model) => registry.getApiKey(model),
			// The session's direct path: a virtual model is routed (reason `direct`), a stored login
			// supplies its key and models.json headers apply, as for the session's own requests.
			complete: async (model, context, options) => {
				const keyed = !isVirtualModel(model) && !registry.auth.usesOAuth(model.provider);
				const apiKey = keyed ? await registry.getApiKey(model) : undefined;
				const stream = await session.directStreamFn(model, context, { ...options, apiKey });
				return stream.result();
			},
			refresh: (options) => registry.refresh(options),
			getModelsOfType: <T extends ModelType>(type: T, provider?: string) =>
				registry.getModelsOfType(type, provider) as ModelOfType[T][],
			getAvailableOfType: async <T extends ModelType>(type: T, provider?: string) =>
				registry.getAvailableOfType(type, provider) as ModelOfType[T][],
			getModelOfType: <T extends ModelType>(type: T, provider: string, id: string) =>
				registry.getModelsOfType(type, provider).find((m) => m.id === id) as ModelOfType[T] | undefined,
			findOfType: <T extends ModelType>(type: T, provider: string, id: string) =>
				registry.getModelsOfType(type, provider).find((m) => m.id === id) as ModelOfType[T] | undefined,
			classify: (model, context, options) => registry.operations.classify(model, context, options),
			generateImages: (model, context, options) => registry.operations.generateImages(model, context, options),
		},
		get model() {
			return session.model;
		},
		scopedModels: session.getScopedModels(),
		get thinkingLevel() {
			return session.thinkingLevel;
		},
		isIdle: () => !session.isStreaming,
		isProjectTrusted: () => d.projectTrusted,
		get signal() {
			return session.agent.signal;
		},
		abort: () => void session.abort(),
		hasPendingMessages: () => {
			const q = session.agent.getQueuedMessages();
			return q.steering.length + q.followUp.length > 0;
		},
		shutdown: () => d.onShutdownRequest?.(),
		getContextUsage: () => session.getContextUsage() as ReturnType<ExtensionContext["getContextUsage"]>,
		compact: (options) => {
			session.compact(options?.customInstructions).then(
				(result) => options?.onComplete?.(result),
				(error: unknown) => options?.onError?.(error instanceof Error ? error : new Error(String(error))),
			);
		},
		getSystemPrompt: () => d.systemPrompt(),
	};
}

/**
 * A tool's ctx: adds the tools it can call and `executeTool`, which runs
 * one of them as a nested call of `toolCallId` (validation, tool_call /
 * tool_result, tool_execution_* with parentToolCallId; no transcript entry).
 */
export function createToolContext(
	d: ExtensionContextDeps,
	toolCallId: string,
	signal: AbortSignal | undefined,
): ExtensionToolContext {
	const session = d.session;
	return Object.assign(createExtensionContext(d), {
		get tools() {
			return session.getAllTools();
		},
		executeTool: (name: string, args: unknown, options: ExecuteToolOptions = {}) =>
			session.executeNestedTool(toolCallId, name, args, { ...options, parentSignal: signal }),
	});
}

type WithSession = (ctx: ReplacedSessionContext) => Promise<void>;

/**
 * A command's ctx: the handler ctx plus session control (each switch asks
 * session_before_* first). After a switch, `withSession` gets a fresh context
 * of the extensions then in charge (`replacedContext`): the fresh instances
 * every switch starts, which have had session_start by then.
 */
export function createCommandContext(d: ExtensionContextDeps): ExtensionCommandContext {
	const { session } = d;
	const unsupported = (what: string) => () =>
		Promise.reject(new Error(`ctx.${what}() is not available in ${d.mode} mode yet`));
	const finish = async (result: { cancelled: boolean }, withSession: WithSession | undefined) => {
		if (!result.cancelled && withSession) await withSession(d.replacedContext());
		return { cancelled: result.cancelled };
	};
	const replaced = <R extends { cancelled: boolean }>(result: R): R => {
		if (!result.cancelled) d.onSessionReplaced?.();
		return result;
	};
	return Object.assign(createExtensionContext(d), {
		waitForIdle: () => d.waitForIdle(),
		// The base inputs now, without this turn's before_agent_start changes (as 1.6.0).
		getSystemPromptOptions: () => session.getSystemPromptOptions(),
		// The session asks session_before_switch / session_before_fork itself (its lifecycle seams).
		newSession: async (options?: {
			parentSession?: string;
			setup?: (sessionManager: SessionManager) => Promise<void>;
			withSession?: WithSession;
		}) => {
			const result = await session.newSession({ parentSession: options?.parentSession });
			if (!result.cancelled && options?.setup) {
				// What setup appends is the new session's history before withSession (and any request) runs.
				await options.setup(session.sessionManager);
				session.refreshTranscript();
			}
			return finish(replaced(result), options?.withSession);
		},
		fork: async (entryId: string, options?: { position?: "before" | "at"; withSession?: WithSession }) => {
			const position = options?.position ?? "before";
			const result = replaced(await session.fork(entryId, { position }));
			// As /fork in the app: the forked-off prompt goes back into the editor to edit and send.
			if (!result.cancelled && position === "before" && d.mode === "tui") d.ui().setEditorText(result.text);
			return finish(result, options?.withSession);
		},
		navigateTree: async (targetId: string, options?: Parameters<AgentSession["navigateTree"]>[1]) => {
			const result = await session.navigateTree(targetId, options);
			return { cancelled: result.cancelled };
		},
		switchSession: async (sessionPath: string, options?: { withSession?: WithSession }) =>
			finish(replaced(await session.switchSession(sessionPath)), options?.withSession),
		// The same reload as /reload; extensions that fail to load leave the running ones in place.
		reload: d.reload
			? async () => {
					const result = await d.reload?.();
					if (result && !result.ok) throw new Error(`Reload failed: ${result.errors.join("; ")}`);
				}
			: unsupported("reload"),
	}) as ExtensionCommandContext;
}
