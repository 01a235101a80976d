// @pi/coding-agent/internal: the package's internals by module, for its own
// tests, benches and sibling packages (@pi/fleet: the session store contract,
// JSONL helpers). No compatibility promise: programs and extensions use the
// curated public surface (index.ts). The CLI entry (`main`, `parseArgs`) is
// public only. Nothing inside the package imports this file.
export * from "./agent-session/agent-session.js";
export * from "./agent-session/backoff/index.js";
export * from "./agent-session/compaction/index.js";
export * from "./agent-session/create-agent-session.js";
export * from "./agent-session/events.js";
export type { ModelCycleResult } from "./agent-session/model-runtime.js";
export * from "./agent-session/recovery/index.js";
export * from "./agent-session/retry/index.js";
export * from "./agent-session/session-stats.js";
export * from "./config/auth.js";
export * from "./config/auth-guidance.js";
export { ConfigValueError, clearConfigValueCache, resolveConfigValue } from "./config/config-value.js";
export * from "./config/model-registry.js";
export * from "./config/model-resolver.js";
export * from "./config/paths.js";
export * from "./config/settings.js";
export type * from "./extensions/session-hooks.js";
export * from "./extensions/tool-hooks.js";
export type { ExtensionAPI, ExtensionContext, ExtensionFactory } from "./extensions/types.js";
export type * from "./extensions/ui-types.js";
export * from "./messages.js";
export * from "./modes/print-mode.js";
export {
	RpcExtensionUI,
	type RpcExtensionUIOptions,
	type SendUIRequest,
} from "./modes/rpc/extension-ui.js";
export { attachJsonlLineReader, JsonlSplitter, serializeJsonLine } from "./modes/rpc/jsonl.js";
export * from "./modes/rpc/rpc-client.js";
export { type RpcModeOptions, RpcServer, runRpcMode } from "./modes/rpc/rpc-mode.js";
export type * from "./modes/rpc/rpc-types.js";
export * from "./modes/rpc/wire-event.js";
export * from "./resources/context-files.js";
export * from "./resources/resource-loader.js";
export * from "./resources/system-prompt.js";
export {
	AgentSessionRuntime,
	type AgentSessionRuntimeOptions,
	type ExtensionsChange,
	type ReloadResult,
} from "./runtime/agent-session-runtime.js";
export type { SessionServices, SessionServicesOptions } from "./runtime/services.js";
export * from "./session/file.js";
export * from "./session/ids.js";
export * from "./session/jsonl-store.js";
export * from "./session/listing.js";
export * from "./session/lock.js";
export * from "./session/paths.js";
export * from "./session/projection.js";
export * from "./session/session-manager.js";
export * from "./session/store.js";
export * from "./session/system-state.js";
export * from "./session/types.js";
export * from "./tools/index.js";
