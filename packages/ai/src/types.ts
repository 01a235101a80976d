// The shared vocabulary of pi-ai: messages, models, stream events and options.
// Every layer above speaks these types; the shapes match what the reference
// writes into session files, so files stay compatible both ways.

/** Wire protocols with a built-in adapter. `Api` stays open for custom adapters. */
export type KnownApi =
	| "openai-completions"
	| "openai-responses"
	| "anthropic-messages"
	| "google-generative-ai"
	| "openai-codex-responses"
	| "llama-cpp"
	| "azure-openai-responses"
	| "mistral-conversations"
	| "bedrock-converse-stream"
	| "google-vertex";
export type Api = KnownApi | (string & {});

/** Provider ids are open-ended ("anthropic", "openai", "ollama", …). */
export type ProviderId = string;

/** Reasoning effort, lowest to highest. `xhigh` and `max` exist only where a model's level map names them. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

// ---------------------------------------------------------------------------
// Content blocks

export interface TextContent {
	type: "text";
	text: string;
	/** Provider signature for the text (OpenAI Responses message id / phase data). */
	textSignature?: string;
}

export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	/** Opaque signature the provider needs to accept the block again (Anthropic, Google, OpenAI encrypted reasoning). */
	thinkingSignature?: string;
	/** Redacted thinking: `thinkingSignature` holds the encrypted payload, `thinking` is a placeholder. */
	redacted?: boolean;
}

export interface ImageContent {
	type: "image";
	/** Base64 without a data: prefix. */
	data: string;
	mimeType: string;
}

export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, unknown>;
	/** Google's thought signature attached to a function call. */
	thoughtSignature?: string;
}

// ---------------------------------------------------------------------------
// Usage and stop reasons

export interface Usage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

/**
 * Why a response ended. A stream's stop reason is never assumed: it is set
 * from the protocol's own terminal event, or the stream ends with `error`.
 * `pending` marks a message still in flight (it has no stop reason yet); a
 * finished message never has it, and sessions never store it.
 */
export type StopReason = "pending" | "stop" | "length" | "toolUse" | "error" | "aborted";

/**
 * Structured facts about a failed request, so upper layers (retry, overflow
 * compaction) decide on data rather than on regexes over message text.
 */
export interface ProviderErrorInfo {
	/** What went wrong, coarsely. */
	kind:
		| "auth" // missing/invalid credentials (401/403, no key configured)
		| "rate_limit" // 429
		| "overloaded" // 503/529, provider capacity
		| "server" // other 5xx
		| "network" // connection refused/reset, DNS, socket timeout
		| "stream_cut" // the stream ended without the protocol's terminal event
		| "overflow" // the prompt exceeds the context window
		| "bad_request" // other 4xx
		| "aborted" // the caller aborted
		| "provider" // an error event inside a 200 stream
		| "unknown";
	/** HTTP status, when there was one. */
	status?: number;
	/** Provider error code/type when given (e.g. "overloaded_error", "context_length_exceeded"). */
	code?: string;
	/** True when trying the same request again may succeed. */
	retryable: boolean;
	/** Server-requested delay before retrying (from retry-after / retry-after-ms / body), in ms. */
	retryAfterMs?: number;
}

// ---------------------------------------------------------------------------
// Messages

/**
 * System instructions and tool declarations at a point in the transcript.
 * The leading system message is the system prompt. A later one changes it:
 * `content` adds instructions, `sections` replace (string) or remove (null)
 * named sections, `toolsAdded`/`toolsRemoved` change the tool set. Replaying
 * them in order yields the current prompt and tools (see `replaySystemState`).
 */
export interface SystemMessage {
	role: "system";
	content: string | TextContent[];
	/** Named prompt sections, rendered in declaration order after `content`. */
	sections?: Record<string, string | null>;
	toolsAdded?: Tool[];
	toolsRemoved?: { name: string }[];
	timestamp: number;
}

export interface UserMessage {
	role: "user";
	content: string | (TextContent | ImageContent)[];
	timestamp: number;
}

export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	api: Api;
	provider: ProviderId;
	model: string;
	/** The model id the provider reports having used, when it differs. */
	responseModel?: string;
	responseId?: string;
	usage: Usage;
	stopReason: StopReason;
	errorMessage?: string;
	/** Structured error facts; present when stopReason is "error" or "aborted". */
	errorInfo?: ProviderErrorInfo;
	/** The provider's own stop/finish reason as it sent it (e.g. "end_turn", "tool_calls", "MAX_TOKENS"). */
	rawStopReason?: string;
	/** The thinking level the agent loop asked for (1.x session format); absent outside the loop. */
	thinkingLevel?: ThinkingLevel;
	/** Unix ms when the request started. */
	timestamp: number;
	/** Milliseconds from the request's start until the response ended (monotonic clock); absent for old records. */
	durationMs?: number;
	/** Notes about how the request was made that are no failure (1.6.0's field); recorded, never printed. */
	diagnostics?: AssistantMessageDiagnostic[];
}

/**
 * One note on an assistant message: something an adapter noticed (e.g. the vendor SDK deems the
 * model deprecated) that the user may want to know without it reaching stderr or the screen.
 */
export interface AssistantMessageDiagnostic {
	/** What kind of note, e.g. "anthropic_model_deprecated". */
	type: string;
	/** Unix ms when it was recorded. */
	timestamp: number;
	error?: { name?: string; message: string; stack?: string; code?: string | number };
	details?: Record<string, unknown>;
}

export interface ToolResultMessage<TDetails = unknown> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	details?: TDetails;
	isError: boolean;
	timestamp: number;
	/** Milliseconds the tool's execution took (monotonic clock); absent for old records. */
	durationMs?: number;
	/**
	 * Model calls the tool made (its own and those of tools it called): counted
	 * in the session's totals, never part of the main model's usage.
	 */
	usage?: Usage;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

// ---------------------------------------------------------------------------
// Tools and context

/** A tool the model may call; `parameters` is a JSON Schema (TypeBox schemas are JSON Schema). */
export interface Tool<TParameters extends object = object> {
	name: string;
	description: string;
	parameters: TParameters;
}

/**
 * What callers pass to `stream()`. `systemPrompt` and `tools` are shorthand
 * for a leading system message; `normalizeContext()` folds them in before any
 * adapter sees the request.
 */
export interface Context {
	systemPrompt?: string;
	messages: Message[];
	tools?: Tool[];
}

// ---------------------------------------------------------------------------
// Models

export interface ModelCost {
	/** $ per million tokens. */
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

/** Dialect switches for OpenAI-compatible servers (see docs of `openai-completions`). */
export interface OpenAICompletionsCompat {
	supportsStore?: boolean;
	supportsDeveloperRole?: boolean;
	supportsReasoningEffort?: boolean;
	supportsUsageInStreaming?: boolean;
	maxTokensField?: "max_completion_tokens" | "max_tokens";
	requiresToolResultName?: boolean;
	requiresAssistantAfterToolResult?: boolean;
	requiresThinkingAsText?: boolean;
	requiresReasoningContentOnAssistantMessages?: boolean;
	thinkingFormat?: "openai" | "openrouter" | "deepseek" | "zai" | "qwen" | "qwen-chat-template";
	supportsStrictMode?: boolean;
	openRouterRouting?: Record<string, unknown>;
	cacheControlFormat?: "anthropic";
	supportsLongCacheRetention?: boolean;
}

export interface AnthropicMessagesCompat {
	supportsEagerToolInputStreaming?: boolean;
	supportsLongCacheRetention?: boolean;
}

export interface OpenAIResponsesCompat {
	sendSessionIdHeader?: boolean;
	supportsLongCacheRetention?: boolean;
}

export type ModelCompat = OpenAICompletionsCompat & AnthropicMessagesCompat & OpenAIResponsesCompat;

/**
 * How long (seconds) the provider keeps a prompt cache entry, best effort, per
 * retention tier (`cacheRetention` "short" / "long"). A tier left out has no
 * known lifetime: pi does not keep that tier's cache warm.
 */
export interface ModelPromptCache {
	short?: number;
	long?: number;
}

export interface Model<TApi extends Api = Api> {
	id: string;
	name: string;
	api: TApi;
	provider: ProviderId;
	baseUrl: string;
	/** Whether the model can think/reason; a model without it supports only "off". */
	reasoning: boolean;
	/**
	 * Per-level provider value: a string is sent as-is (effort name), null marks
	 * the level unsupported. Omitted levels use the adapter's default mapping.
	 */
	thinkingLevelMap?: Partial<Record<ThinkingLevel, string | null>>;
	input: ("text" | "image")[];
	cost: ModelCost;
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
	compat?: ModelCompat;
	/** Prompt cache lifetimes; unset when the provider's cache behaviour is unknown. */
	promptCache?: ModelPromptCache;
	/** `llama-cpp` models: the GGUF file the model runs from (in this process, no server). */
	path?: string;
	/** `llama-cpp` models: layers offloaded to a GPU when one is found; default "auto". */
	gpuLayers?: number | "auto" | "max";
}

// ---------------------------------------------------------------------------
// Request options

export type CacheRetention = "none" | "short" | "long";

export interface ProviderResponseInfo {
	status: number;
	headers: Record<string, string>;
}

export interface StreamOptions {
	temperature?: number;
	maxTokens?: number;
	signal?: AbortSignal;
	/** Overrides the key from the environment. */
	apiKey?: string;
	/** Extra HTTP headers merged over the model's. */
	headers?: Record<string, string>;
	cacheRetention?: CacheRetention;
	/** Stable id of the conversation: drives OpenAI's prompt_cache_key and similar. */
	sessionId?: string;
	/** Thinking level; "off" or undefined disables reasoning where the API allows. */
	reasoning?: ThinkingLevel;
	/** Token budgets for budget-based APIs (Anthropic, Google). */
	thinkingBudgets?: Partial<Record<Exclude<ThinkingLevel, "off">, number>>;
	/** Inspect or replace the request body just before it is sent (awaited; undefined keeps it). */
	onPayload?: (payload: unknown, model: Model) => unknown | Promise<unknown>;
	/** Called with status and headers before the body is read. */
	onResponse?: (response: ProviderResponseInfo, model: Model) => void;
	/**
	 * Edit the outgoing HTTP headers once they are assembled (awaited, once per
	 * request). Gets them lower-cased; returns the edited record (a null value or
	 * a missing key removes that header, matched case-insensitively), or undefined
	 * to keep them.
	 */
	onHeaders?: (
		headers: Record<string, string>,
		model: Model,
	) => Record<string, string | null> | undefined | Promise<Record<string, string | null> | undefined>;
	/**
	 * Sees each parsed wire event (the provider's JSON) before it is mapped;
	 * awaited in stream order. Read-only; a throw is ignored.
	 */
	onStreamEvent?: (data: unknown, model: Model) => void | Promise<void>;
	/** Abort the request when no byte arrives for this long (ms). Default 10 min; 0 turns it off. */
	timeoutMs?: number;
	/** Stop a response past this many wire bytes (non-retryable error). Default 64 MiB. */
	maxResponseBytes?: number;
	/** Stop a response that runs longer than this (ms), however steadily it streams. Default 60 min. */
	maxResponseMs?: number;
	metadata?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// Stream events

/**
 * Events of one streamed response. Every event carries `partial`, the message
 * so far, so renderers never reassemble deltas. The stream emits `start`, any
 * number of block events (blocks may interleave; key on `contentIndex`), then
 * exactly one terminal event: `done` on success, `error` on failure or abort.
 * Failures never throw out of the iterator.
 */
export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	/** `delta` is the raw JSON text chunk; `partial`'s tool call holds the best-effort parsed arguments. */
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse">; message: AssistantMessage }
	| { type: "error"; reason: Extract<StopReason, "error" | "aborted">; error: AssistantMessage };

export type AssistantMessageEventType = AssistantMessageEvent["type"];
