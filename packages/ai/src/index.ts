// The public surface of @pi/ai, name by name: the request/response vocabulary
// (messages, models, events, usage), the calls (stream, complete), the model
// catalog and models.json, thinking levels, cost, context overflow, prompt
// cache warming, adapter registration (registerApi and what it takes), secret
// redaction and the local-model helpers the layers above use. Extensions get
// this module as `@earendil-works/pi-ai` (coding-agent's host-modules.ts),
// so the names upstream pi-ai 1.6.0 exports that exist here are kept. What
// only this package's own modules and tests need (SSE parsing, provider
// fetch, error mapping, adapter loading) is in `@pi/ai/internal`
// (src/internal.ts), with no compatibility promise. test/public-surface.txt
// holds this list, so it changes only on purpose.
export { type AdapterOptions, type AdapterRun, type ApiAdapter, failedStream } from "./adapter.js";
export {
	CACHE_WARMING_MAX_IDLE_AGE_MS,
	CACHE_WARMING_MAX_STREAMING_AGE_MS,
	CACHE_WARMING_MIN_SAVINGS,
	type CacheWarmingAction,
	type CacheWarmingDecision,
	type CacheWarmingPhase,
	cacheRefreshDelayMs,
	cacheRefreshOptions,
	canReplayForCacheWarming,
	evaluateCacheWarming,
	promptCacheTtlMs,
} from "./cache-warming.js";
export { cloudCredentialsHint } from "./cloud-credentials.js";
export {
	type NonSystemMessage,
	type NormalizedContext,
	normalizeContext,
	replaySystemState,
	type SystemState,
} from "./context.js";
export { calculateCost, sumUsage } from "./cost.js";
export { envKeyNames, getEnvApiKey } from "./env-keys.js";
export { AssistantMessageEventStream, EventStream, type StreamFunction } from "./event-stream.js";
export { GgufFileError, type GgufInfo, readGgufInfo, readGgufInfoSync } from "./llama-cpp/gguf-file.js";
export { llamaCppModelFromFile, withGgufMetadata } from "./llama-cpp/local-model.js";
export { llamaBackendInfo, unloadLlamaCppModels } from "./llama-cpp/runtime.js";
export {
	builtinModels,
	getAllModels,
	getModel,
	getModels,
	getProviders,
	type KnownModelId,
	type KnownModels,
	type KnownProvider,
	type KnownProviderApis,
	modelsAreEqual,
} from "./models/catalog.js";
export { type JsoncError, type JsoncResult, parseJsonc } from "./models/jsonc.js";
export {
	applyModelsConfig,
	formatModelsConfigIssue,
	loadModelsJson,
	type ModelsConfigOptions,
	type ModelsConfigProvider,
	type ModelsConfigResult,
	parseModelsJson,
} from "./models/models-config.js";
export type { ModelsConfigIssue } from "./models/models-config-fields.js";
// Every name of operations.ts is public (the non-chat model types and their error helpers): one list, there.
export * from "./operations.js";
export { isContextOverflow } from "./overflow.js";
export { IncrementalJsonParser } from "./partial-json.js";
export { containsSecret, redact, registerHeaderSecrets, registerSecret, registerUrlCredentials } from "./redaction.js";
export { type AdapterLoader, apiLoader, hasApi, registerApi, unregisterApi } from "./registry.js";
export { complete, isLoopbackUrl, stream } from "./stream.js";
export { AssistantStreamWriter } from "./stream-writer.js";
export { clampThinkingLevel, getSupportedThinkingLevels, type ReasoningLevel, sendsThinkingLevel } from "./thinking.js";
export {
	type AnthropicMessagesCompat,
	type Api,
	type AssistantMessage,
	type AssistantMessageDiagnostic,
	type AssistantMessageEvent,
	type AssistantMessageEventType,
	type CacheRetention,
	type Context,
	type ImageContent,
	type JsonValue,
	type KnownApi,
	type Message,
	type Model,
	type ModelCompat,
	type ModelCost,
	type ModelPromptCache,
	type OpenAICompletionsCompat,
	type OpenAIResponsesCompat,
	type ProviderErrorInfo,
	type ProviderId,
	type ProviderResponseInfo,
	type StopReason,
	type StreamOptions,
	type SystemMessage,
	type TextContent,
	THINKING_LEVELS,
	type ThinkingContent,
	type ThinkingLevel,
	type Tool,
	type ToolCall,
	type ToolResultMessage,
	type Usage,
	type UserMessage,
} from "./types.js";
export { uuidv7 } from "./uuid.js";
