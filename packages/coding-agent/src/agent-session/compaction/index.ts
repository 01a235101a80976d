// Public surface of compaction and branch summaries (for the SDK barrel and extensions).
export * from "./branch-summary.js";
export * from "./compactor.js";
export * from "./cut-point.js";
export * from "./file-ops.js";
export * from "./navigate-tree.js";
export * from "./prepare.js";
export { SUMMARIZER_SYSTEM_PROMPT } from "./prompts.js";
export * from "./serialize.js";
export * from "./summarize.js";
export * from "./token-estimate.js";
