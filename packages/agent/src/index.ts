export * from "./agent.js";
export * from "./agent-loop.js";
export * from "./hooks.js";
export { defaultConvertToLlm } from "./messages.js";
export * from "./proxy.js";
export * from "./proxy-wire.js";
export { getDefaultStreamFn, setDefaultStreamFn } from "./stream-fn.js";
export {
	ABORTED_TOOL_MESSAGE,
	CUT_OFF_MESSAGE,
	executeToolBatch,
	type ToolBatch,
	type ToolBatchOutcome,
} from "./tool-execution.js";
export * from "./types.js";
export { type ArgumentValidation, validateArguments } from "./validation.js";
