// Dispatches events to the handlers of the loaded extensions, one method
// per composition rule (see events.ts for which event follows which rule).
// Every handler is called through `invoke`, which never throws: a throw
// becomes an error value, reported to the error listeners (json/rpc write an
// `extension_error` event, print writes stderr) while the run goes on. The
// one exception is `tool_call`, where a throwing gate blocks the call (fail
// closed). Handlers run in extension load order, then registration order; a
// dispatch works on a snapshot, so subscribing or unsubscribing during one
// does not change it.
import type { AgentMessage } from "@pi/agent-core";
import type { ImageContent } from "@pi/ai";
import { retireReplacedBuiltins } from "./builtin-replacement.js";
import type {
	BeforeAgentStartEvent,
	BeforeAgentStartEventResult,
	BoundaryResult,
	BoundaryState,
	CacheWarmingDecisionEvent,
	ExtensionEventMap,
	ExtensionEventName,
	InputEvent,
	InputSource,
	MessageEndEvent,
	ProjectTrustEvent,
	ProjectTrustEventResult,
	ResourcesDiscoverEvent,
	ResourcesDiscoverResult,
	SessionBeforeCompactEvent,
	SessionBeforeCompactResult,
	SessionBeforeTreeEvent,
	SessionBeforeTreeResult,
	ToolCallEvent,
	ToolCallEventResult,
	ToolResultEvent,
	ToolResultEventResult,
	UserBashEvent,
	UserBashEventResult,
} from "./events.js";
import type { AnyHandler, ExtensionRuntime, LoadedExtension, RegisteredTool } from "./extension.js";
import {
	findConflicts,
	firstRegistered,
	type ResolvedCommand,
	resolveCommands,
	resolveFlags,
	resolveShortcuts,
	resolveTools,
} from "./registrations.js";
import type {
	ExtensionContext,
	ExtensionError,
	ExtensionFlag,
	ExtensionShortcut,
	ProjectTrustContext,
} from "./types.js";

/** The event without the chained prompt (the runner fills it in per handler). */
export type BeforeAgentStartBase = BeforeAgentStartEvent extends infer E
	? E extends unknown
		? Omit<E, "systemPrompt">
		: never
	: never;

type Outcome<T> = { ok: true; value: T | undefined } | { ok: false; error: ExtensionError };
export type ExtensionErrorListener = (error: ExtensionError) => void;

/** Events the runner dispatches with plain notify semantics. */
export type NotifyEventName = {
	[K in ExtensionEventName]: ExtensionEventMap[K][1] extends undefined ? K : never;
}[ExtensionEventName];

export interface InputResult {
	/** "handled": a handler took the input; nothing reaches the model. */
	action: "continue" | "handled";
	text: string;
	images?: ImageContent[];
}

export interface BeforeAgentStartOutcome {
	/** Messages to inject before the prompt, in load order. */
	messages: NonNullable<BeforeAgentStartEventResult["message"]>[];
	/** Set when a handler replaced the system prompt (the last replacement). */
	systemPrompt?: string;
}

export type { ResolvedCommand } from "./registrations.js";

export class ExtensionRunner {
	private readonly errorListeners = new Set<ExtensionErrorListener>();
	private readonly warningListeners = new Set<(message: string) => void>();
	private contextFactory: (() => ExtensionContext) | undefined;
	/** Load-time conflicts (duplicate tools, commands, flags): each names both files. */
	readonly warnings: string[] = [];

	constructor(
		readonly extensions: LoadedExtension[],
		readonly runtime: ExtensionRuntime,
	) {
		runtime.reportError = (error) => this.emitError(error);
		this.warnings.push(...findConflicts(extensions));
	}

	/** Sets how handler contexts are made (the session bridge does this when it binds). */
	setContextFactory(factory: () => ExtensionContext): void {
		this.contextFactory = factory;
	}

	createContext(): ExtensionContext {
		if (!this.contextFactory) throw new Error("Extension runner is not bound to a session yet.");
		return this.contextFactory();
	}

	onError(listener: ExtensionErrorListener): () => void {
		this.errorListeners.add(listener);
		return () => this.errorListeners.delete(listener);
	}

	/** Warnings that arise after loading (a late registration replacing a built-in); also kept in `warnings`. */
	onWarning(listener: (message: string) => void): () => void {
		this.warningListeners.add(listener);
		return () => this.warningListeners.delete(listener);
	}

	/** A late registration replacing a built-in (builtin-replacement.ts): it leaves, with the load-time warning. */
	retireReplacedBuiltins(): LoadedExtension[] {
		const { retired, warnings } = retireReplacedBuiltins(this.extensions);
		for (const warning of warnings) {
			this.warnings.push(warning);
			for (const listener of this.warningListeners) listener(warning);
		}
		return retired;
	}

	emitError(error: ExtensionError): void {
		for (const listener of this.errorListeners) {
			try {
				listener(error);
			} catch {
				// An error reporter must not turn one failure into two.
			}
		}
	}

	hasHandlers(event: ExtensionEventName): boolean {
		return this.extensions.some((e) => (e.handlers.get(event)?.length ?? 0) > 0);
	}

	// -- the one call site of every handler ---------------------------------------------------

	private handlersOf(event: ExtensionEventName): { ext: LoadedExtension; handler: AnyHandler }[] {
		const out: { ext: LoadedExtension; handler: AnyHandler }[] = [];
		for (const ext of this.extensions) for (const handler of ext.handlers.get(event) ?? []) out.push({ ext, handler });
		return out;
	}

	/** Calls one handler; a throw (or rejected promise) becomes an error value. Never throws. */
	private async invoke<T>(
		ext: LoadedExtension,
		event: string,
		handler: AnyHandler,
		payload: unknown,
		ctx: unknown,
	): Promise<Outcome<T>> {
		try {
			return { ok: true, value: (await handler(payload, ctx)) as T | undefined };
		} catch (thrown) {
			return {
				ok: false,
				error: {
					extensionPath: ext.path,
					event,
					error: thrown instanceof Error ? thrown.message : String(thrown),
					stack: thrown instanceof Error ? thrown.stack : undefined,
				},
			};
		}
	}

	/** invoke + report the error; returns the value or undefined. */
	private async call<T>(ext: LoadedExtension, event: string, handler: AnyHandler, payload: unknown, ctx: unknown) {
		const outcome = await this.invoke<T>(ext, event, handler, payload, ctx);
		if (!outcome.ok) {
			this.emitError(outcome.error);
			return undefined;
		}
		return outcome.value;
	}

	// -- notify ----------------------------------------------------------------------------------

	/** Notify: every handler runs; return values are ignored. */
	async emit<K extends NotifyEventName>(event: ExtensionEventMap[K][0] & { type: K }): Promise<void> {
		const handlers = this.handlersOf(event.type);
		if (handlers.length === 0) return;
		const ctx = this.createContext();
		for (const { ext, handler } of handlers) await this.call(ext, event.type, handler, event, ctx);
	}

	// -- chains ------------------------------------------------------------------------------------

	/** context / context_with_system: each handler gets the previous handler's messages. */
	async emitContext(type: "context" | "context_with_system", messages: AgentMessage[]): Promise<AgentMessage[]> {
		const handlers = this.handlersOf(type);
		if (handlers.length === 0) return messages;
		const ctx = this.createContext();
		let current = structuredClone(messages);
		for (const { ext, handler } of handlers) {
			const result = await this.call<{ messages?: AgentMessage[] }>(
				ext,
				type,
				handler,
				{ type, messages: current },
				ctx,
			);
			if (result && Array.isArray(result.messages)) current = result.messages;
		}
		return current;
	}

	/** before_provider_request: a returned value replaces the payload for later handlers and the request. */
	async emitBeforeProviderRequest(payload: unknown): Promise<unknown> {
		const handlers = this.handlersOf("before_provider_request");
		if (handlers.length === 0) return payload;
		const ctx = this.createContext();
		let current = payload;
		for (const { ext, handler } of handlers) {
			const result = await this.call<unknown>(
				ext,
				"before_provider_request",
				handler,
				{ type: "before_provider_request", payload: current },
				ctx,
			);
			if (result !== undefined) current = result;
		}
		return current;
	}

	/**
	 * before_provider_headers: handlers mutate the object in place. Returns the
	 * edited record with its nulls (pi-ai removes those headers, whatever the
	 * case of the key a handler used).
	 */
	async emitBeforeProviderHeaders(headers: Record<string, string>): Promise<Record<string, string | null>> {
		const handlers = this.handlersOf("before_provider_headers");
		if (handlers.length === 0) return headers;
		const ctx = this.createContext();
		const event = {
			type: "before_provider_headers" as const,
			headers: { ...headers } as Record<string, string | null>,
		};
		for (const { ext, handler } of handlers) await this.call(ext, event.type, handler, event, ctx);
		return event.headers;
	}

	/** message_end: a returned message of the same role replaces the finalised one. */
	async emitMessageEnd(message: AgentMessage): Promise<AgentMessage> {
		const handlers = this.handlersOf("message_end");
		if (handlers.length === 0) return message;
		const ctx = this.createContext();
		let current = message;
		for (const { ext, handler } of handlers) {
			const event: MessageEndEvent = { type: "message_end", message: current };
			const result = await this.call<{ message?: AgentMessage }>(ext, "message_end", handler, event, ctx);
			if (!result?.message) continue;
			if (result.message.role !== current.role) {
				this.emitError({
					extensionPath: ext.path,
					event: "message_end",
					error: `message_end replacement must keep the role "${current.role}" (got "${result.message.role}")`,
				});
				continue;
			}
			current = result.message;
		}
		return current;
	}

	/** input: transforms chain; the first "handled" ends it. */
	async emitInput(
		text: string,
		images: ImageContent[] | undefined,
		source: InputSource,
		streamingBehavior?: "steer" | "followUp",
	): Promise<InputResult> {
		const handlers = this.handlersOf("input");
		if (handlers.length === 0) return { action: "continue", text, images };
		const ctx = this.createContext();
		let current: InputResult = { action: "continue", text, images };
		for (const { ext, handler } of handlers) {
			const event: InputEvent = {
				type: "input",
				text: current.text,
				images: current.images,
				source,
				streamingBehavior,
			};
			const result = await this.call<ExtensionEventMap["input"][1]>(ext, "input", handler, event, ctx);
			if (!result) continue;
			if (result.action === "handled") return { ...current, action: "handled" };
			if (result.action === "transform" && typeof result.text === "string") {
				current = { action: "continue", text: result.text, images: result.images ?? current.images };
			}
		}
		return current;
	}

	/** tool_result: each handler sees the result as patched so far; omitted fields stay. */
	async emitToolResult(event: ToolResultEvent): Promise<ToolResultEventResult | undefined> {
		const handlers = this.handlersOf("tool_result");
		if (handlers.length === 0) return undefined;
		const ctx = this.createContext();
		const current = { ...event };
		let changed = false;
		for (const { ext, handler } of handlers) {
			const patch = await this.call<ToolResultEventResult>(ext, "tool_result", handler, { ...current }, ctx);
			if (!patch) continue;
			changed = true;
			if (patch.content) {
				current.content = patch.content;
				if (patch.structuredContent === undefined) current.structuredContent = undefined;
			}
			if (patch.details !== undefined) current.details = patch.details;
			if (patch.structuredContent !== undefined) current.structuredContent = patch.structuredContent;
			if (patch.isError !== undefined) current.isError = patch.isError;
			if (patch.usage !== undefined) current.usage = patch.usage;
		}
		if (!changed) return undefined;
		return {
			content: current.content,
			details: current.details,
			structuredContent: current.structuredContent,
			isError: current.isError,
			usage: current.usage,
		};
	}

	// -- gates --------------------------------------------------------------------------------------

	/**
	 * tool_call: the first `{ block: true }` wins. Fail closed: a handler that
	 * throws blocks the call (and is reported). `event.input` is shared, so
	 * in-place changes reach later handlers and the execution.
	 */
	async emitToolCall(event: ToolCallEvent): Promise<ToolCallEventResult | undefined> {
		const handlers = this.handlersOf("tool_call");
		if (handlers.length === 0) return undefined;
		const ctx = this.createContext();
		for (const { ext, handler } of handlers) {
			const outcome = await this.invoke<ToolCallEventResult>(ext, "tool_call", handler, event, ctx);
			if (!outcome.ok) {
				this.emitError(outcome.error);
				return { block: true, reason: `Blocked: the tool_call handler of ${ext.path} failed: ${outcome.error.error}` };
			}
			if (outcome.value?.block) return outcome.value;
		}
		return undefined;
	}

	/** user_bash: the first handler returning `operations` or `result` handles the command; a throw blocks it. */
	async emitUserBash(event: UserBashEvent): Promise<UserBashEventResult | { blocked: string } | undefined> {
		const handlers = this.handlersOf("user_bash");
		if (handlers.length === 0) return undefined;
		const ctx = this.createContext();
		for (const { ext, handler } of handlers) {
			const outcome = await this.invoke<UserBashEventResult>(ext, "user_bash", handler, event, ctx);
			if (!outcome.ok) {
				this.emitError(outcome.error);
				return { blocked: `Blocked: the user_bash handler of ${ext.path} failed: ${outcome.error.error}` };
			}
			if (outcome.value && (outcome.value.operations || outcome.value.result)) return outcome.value;
		}
		return undefined;
	}

	/** project_trust: the first yes/no decides; "undecided" (or a throw) passes on. */
	async emitProjectTrust(
		event: ProjectTrustEvent,
		ctx: ProjectTrustContext,
	): Promise<ProjectTrustEventResult | undefined> {
		for (const { ext, handler } of this.handlersOf("project_trust")) {
			const result = await this.call<ProjectTrustEventResult>(ext, "project_trust", handler, event, ctx);
			if (result?.trusted === "yes" || result?.trusted === "no") return result;
		}
		return undefined;
	}

	/** session_before_switch / session_before_fork: the first `{ cancel: true }` stops the operation. */
	async emitCancellable<K extends "session_before_switch" | "session_before_fork">(
		event: ExtensionEventMap[K][0] & { type: K },
	): Promise<ExtensionEventMap[K][1] | undefined> {
		const handlers = this.handlersOf(event.type);
		if (handlers.length === 0) return undefined;
		const ctx = this.createContext();
		let merged: ExtensionEventMap[K][1] | undefined;
		for (const { ext, handler } of handlers) {
			const result = await this.call<ExtensionEventMap[K][1]>(ext, event.type, handler, event, ctx);
			if (!result) continue;
			merged = { ...merged, ...result };
			if (result.cancel) return merged;
		}
		return merged;
	}

	/** session_before_compact: cancel wins; otherwise the first supplied compaction is used. */
	async emitBeforeCompact(event: SessionBeforeCompactEvent): Promise<SessionBeforeCompactResult | undefined> {
		const handlers = this.handlersOf("session_before_compact");
		if (handlers.length === 0) return undefined;
		const ctx = this.createContext();
		let compaction: SessionBeforeCompactResult["compaction"];
		for (const { ext, handler } of handlers) {
			const result = await this.call<SessionBeforeCompactResult>(ext, event.type, handler, event, ctx);
			if (result?.cancel) return { cancel: true };
			if (result?.compaction && !compaction) compaction = result.compaction;
		}
		return compaction ? { compaction } : undefined;
	}

	/** session_before_tree: cancel wins; otherwise later handlers' fields override earlier ones. */
	async emitBeforeTree(event: SessionBeforeTreeEvent): Promise<SessionBeforeTreeResult | undefined> {
		const handlers = this.handlersOf("session_before_tree");
		if (handlers.length === 0) return undefined;
		const ctx = this.createContext();
		let merged: SessionBeforeTreeResult | undefined;
		for (const { ext, handler } of handlers) {
			const result = await this.call<SessionBeforeTreeResult>(ext, event.type, handler, event, ctx);
			if (!result) continue;
			if (result.cancel) return { cancel: true };
			merged = { ...merged, ...result };
		}
		return merged;
	}

	// -- collections -----------------------------------------------------------------------------------

	/** before_agent_start: messages are collected; the system prompt chains, the last replacement wins. */
	async emitBeforeAgentStart(
		base: BeforeAgentStartBase,
		systemPrompt: string,
		onSystemPrompt?: (prompt: string) => void,
	): Promise<BeforeAgentStartOutcome> {
		const handlers = this.handlersOf("before_agent_start");
		const out: BeforeAgentStartOutcome = { messages: [] };
		if (handlers.length === 0) return out;
		const ctx = this.createContext();
		let prompt = systemPrompt;
		for (const { ext, handler } of handlers) {
			const event = { ...base, systemPrompt: prompt } as BeforeAgentStartEvent;
			const result = await this.call<BeforeAgentStartEventResult>(ext, "before_agent_start", handler, event, ctx);
			if (!result) continue;
			if (result.message) out.messages.push(result.message);
			if (typeof result.systemPrompt === "string") {
				prompt = result.systemPrompt;
				out.systemPrompt = prompt;
				onSystemPrompt?.(prompt);
			}
		}
		return out;
	}

	/** resources_discover: every handler's paths are gathered. */
	async emitResourcesDiscover(event: ResourcesDiscoverEvent): Promise<Required<ResourcesDiscoverResult>> {
		const out = { skillPaths: [] as string[], promptPaths: [] as string[], themePaths: [] as string[] };
		const handlers = this.handlersOf("resources_discover");
		if (handlers.length === 0) return out;
		const ctx = this.createContext();
		for (const { ext, handler } of handlers) {
			const r = await this.call<ResourcesDiscoverResult>(ext, event.type, handler, event, ctx);
			if (!r) continue;
			for (const key of ["skillPaths", "promptPaths", "themePaths"] as const) {
				for (const p of r[key] ?? []) if (typeof p === "string") out[key].push(p);
			}
		}
		return out;
	}

	/** cache_warming_decision: the last handler returning an action decides. */
	async emitCacheWarmingDecision(event: CacheWarmingDecisionEvent): Promise<"warm" | "stop"> {
		let action = event.action;
		const handlers = this.handlersOf("cache_warming_decision");
		if (handlers.length === 0) return action;
		const ctx = this.createContext();
		for (const { ext, handler } of handlers) {
			const r = await this.call<{ action?: "warm" | "stop" }>(ext, event.type, handler, { ...event }, ctx);
			if (r?.action === "warm" || r?.action === "stop") action = r.action;
		}
		return action;
	}

	/**
	 * turn_end / agent_before_settle: each handler sees the proposal so far;
	 * returned fields replace the proposal's. `rebuild` recomputes the context
	 * preview from proposed entries.
	 */
	async emitBoundary<E extends BoundaryState & { type: "turn_end" | "agent_before_settle" }>(
		event: E,
		rebuild?: (entries: E["entries"]) => E["context"],
	): Promise<{ entries: E["entries"]; continue: boolean }> {
		let proposal = { entries: event.entries, continue: event.continue };
		const handlers = this.handlersOf(event.type);
		if (handlers.length === 0) return proposal;
		const ctx = this.createContext();
		for (const { ext, handler } of handlers) {
			// The context preview projects the whole branch (a resumed 100k-entry session reads every
			// entry from disk): it is computed when a handler reads it, not for every handler.
			const view = Object.defineProperties({}, Object.getOwnPropertyDescriptors(event)) as E;
			const entries = proposal.entries;
			view.entries = [...entries];
			view.continue = proposal.continue;
			defineLazy(view, "context", () => rebuild?.(entries) ?? event.context);
			const r = await this.call<BoundaryResult>(ext, event.type, handler, view, ctx);
			if (!r) continue;
			proposal = {
				entries: Array.isArray(r.entries) ? r.entries : proposal.entries,
				continue: typeof r.continue === "boolean" ? r.continue : proposal.continue,
			};
		}
		return proposal;
	}

	// -- registrations (resolved in registrations.ts) -----------------------------------------------

	/** Tools by name; the first extension (load order) to register a name wins. */
	getTools(): RegisteredTool[] {
		return resolveTools(this.extensions);
	}

	/** Commands with their invocation names (`name:1`, `name:2` for duplicates). */
	getCommands(): ResolvedCommand[] {
		return resolveCommands(this.extensions);
	}

	getCommand(invocationName: string): ResolvedCommand | undefined {
		return this.getCommands().find((c) => c.invocationName === invocationName);
	}

	/** Flags by name; the first registration wins. */
	getFlags(): ExtensionFlag[] {
		return resolveFlags(this.extensions);
	}

	/** Shortcuts by key; a later registration replaces an earlier one (reported). */
	getShortcuts(): ExtensionShortcut[] {
		return resolveShortcuts(this.extensions);
	}

	getMessageRenderer(customType: string) {
		return firstRegistered(this.extensions, (e) => e.messageRenderers.get(customType));
	}

	getEntryRenderer(customType: string) {
		return firstRegistered(this.extensions, (e) => e.entryRenderers.get(customType));
	}

	getToolRendererResolvers() {
		return this.extensions.flatMap((e) => e.toolRenderers);
	}

	getMarkdownTransformers() {
		return this.extensions.flatMap((e) => (e.markdownTransformer ? [e.markdownTransformer] : []));
	}
}

/** `target[key]` computed on first read (and replaceable), enumerable like a plain field. */
function defineLazy<T>(target: object, key: string, compute: () => T): void {
	let value: T | undefined;
	let done = false;
	Object.defineProperty(target, key, {
		enumerable: true,
		configurable: true,
		get: () => {
			if (!done) {
				value = compute();
				done = true;
			}
			return value;
		},
		set: (next: T) => {
			value = next;
			done = true;
		},
	});
}
