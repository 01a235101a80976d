// What an extension gets when it imports `@earendil-works/pi-coding-agent`
// (or `@mariozechner/pi-coding-agent`): the runtime helpers upstream's
// examples use, as live objects of this process (the same file-mutation
// queue as the built-in tools, the same SessionManager class). Types need no
// runtime value; they are erased when jiti transforms the extension.

export { serializeConversation, serializeMessage } from "../agent-session/compaction/serialize.js";
export { getAgentDir, PROJECT_CONFIG_DIR as CONFIG_DIR_NAME } from "../config/paths.js";
export {
	COMPACTION_SUMMARY_PREFIX,
	COMPACTION_SUMMARY_SUFFIX,
	convertToLlm,
	createCustomMessage,
} from "../messages.js";
export { SessionManager } from "../session/session-manager.js";
export { createLocalBashOperations } from "../tools/bash-process.js";
export {
	createAllTools,
	createBashTool,
	createCodingTools,
	createEditTool,
	createFindTool,
	createGrepTool,
	createLsTool,
	createReadOnlyTools,
	createReadTool,
	createWriteTool,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	truncateHead,
	truncateLine,
	truncateTail,
	withFileMutationQueue,
} from "../tools/index.js";
export { VERSION } from "../version.js";
export {
	defineTool,
	EXTENSION_API_VERSION,
	isBashToolResult,
	isEditToolResult,
	isFindToolResult,
	isGrepToolResult,
	isLsToolResult,
	isReadToolResult,
	isToolCallEventType,
	isWriteToolResult,
} from "./types.js";
export { CustomEditor, type CustomEditorOptions, DynamicBorder } from "./ui-components.js";
