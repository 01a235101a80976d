// @pi/ai/internal: every module's exports, for this package's benches and
// other packages' tests that reach below the public surface (index.ts) —
// SSE parsing, provider fetch, error mapping, adapter loading, secret
// registry resets. No compatibility promise. Nothing inside the package
// imports this file.
export * from "./adapter.js";
export * from "./cache-retention.js";
export * from "./cache-warming.js";
export * from "./cloud-credentials.js";
export * from "./context.js";
export * from "./cost.js";
export * from "./env-keys.js";
export * from "./errors.js";
export * from "./event-stream.js";
export { GgufFileError, type GgufInfo, readGgufInfo, readGgufInfoSync } from "./llama-cpp/gguf-file.js";
export * from "./llama-cpp/local-model.js";
export { llamaBackendInfo, unloadLlamaCppModels } from "./llama-cpp/runtime.js";
export * from "./models/catalog.js";
export * from "./models/jsonc.js";
export * from "./models/local-compat.js";
export * from "./models/models-config.js";
export * from "./operations.js";
export * from "./overflow.js";
export * from "./partial-json.js";
export * from "./provider-fetch.js";
export * from "./redaction.js";
export * from "./registry.js";
export * from "./sse.js";
export * from "./stream.js";
export * from "./stream-writer.js";
export * from "./thinking.js";
export * from "./transform-messages.js";
export * from "./types.js";
export * from "./uuid.js";
