// What each RPC command does, as a function of the AgentSession. A handler
// returns the response's `data` (undefined for none) or throws; the server
// turns that into the response record. `prompt` lives in rpc-mode.ts because
// its response has to be ordered against the run's events.
import type { AgentSession } from "../../agent-session/agent-session.js";
import { messageText } from "../../messages.js";
import type { RpcCommand, RpcCommandType, RpcResponseData, RpcSessionState, RpcSlashCommand } from "./rpc-types.js";

export interface CommandContext {
	session: AgentSession;
	/** The command's id, if it had one. */
	id?: string;
	/** Writes an extra record (bash output) before the response. */
	emit(record: { type: "bash_execution_update"; id?: string; delta: string }): void;
	/** Commands the client can run through `prompt` (templates, skills, extension commands). */
	getCommands(): RpcSlashCommand[];
}

type Handler<K extends RpcCommandType> = (
	command: Extract<RpcCommand, { type: K }>,
	ctx: CommandContext,
) => RpcResponseData[K] | Promise<RpcResponseData[K]>;

type HandlerTable = { [K in Exclude<RpcCommandType, "prompt">]: Handler<K> };

export function sessionState(session: AgentSession): RpcSessionState {
	const queued = session.agent.getQueuedMessages();
	const state: RpcSessionState = {
		thinkingLevel: session.thinkingLevel,
		isStreaming: session.isStreaming,
		isCompacting: session.isCompacting,
		steeringMode: session.steeringMode,
		followUpMode: session.followUpMode,
		sessionId: session.sessionId,
		autoCompactionEnabled: session.autoCompactionEnabled,
		messageCount: session.messages.length,
		pendingMessageCount: queued.steering.length + queued.followUp.length,
	};
	if (session.model) state.model = session.model;
	if (session.sessionFile) state.sessionFile = session.sessionFile;
	const name = session.sessionManager.getSessionName();
	if (name) state.sessionName = name;
	return state;
}

export const handlers: HandlerTable = {
	steer: async (c, { session }) => {
		await session.steer(c.message, c.images);
		return { disposition: "queued" };
	},
	follow_up: async (c, { session }) => {
		await session.followUp(c.message, c.images);
		return { disposition: "queued" };
	},
	abort: async (_c, { session }) => {
		await session.abort();
		return undefined;
	},
	clear_queue: (_c, { session }) => session.clearQueue(),
	new_session: (c, { session }) => session.newSession({ parentSession: c.parentSession }),
	get_state: (_c, { session }) => sessionState(session),

	set_model: (c, { session }) => {
		const model = session.modelRegistry.find(c.provider, c.modelId);
		if (!model) throw new Error(`Model not found: ${c.provider}/${c.modelId}`);
		session.setModel(model);
		return model;
	},
	cycle_model: (_c, { session }) => session.cycleModel() ?? null,
	get_available_models: (_c, { session }) => ({ models: session.modelRegistry.getAvailable() }),
	set_thinking_level: (c, { session }) => {
		session.setThinkingLevel(c.level);
		return undefined;
	},
	cycle_thinking_level: (_c, { session }) => {
		const level = session.cycleThinkingLevel();
		return level ? { level } : null;
	},
	get_available_thinking_levels: (_c, { session }) => ({ levels: session.getAvailableThinkingLevels() }),
	set_steering_mode: (c, { session }) => {
		session.setSteeringMode(c.mode);
		return undefined;
	},
	set_follow_up_mode: (c, { session }) => {
		session.setFollowUpMode(c.mode);
		return undefined;
	},

	compact: (c, { session }) => session.compact(c.customInstructions),
	set_auto_compaction: (c, { session }) => {
		session.setAutoCompactionEnabled(c.enabled);
		return undefined;
	},
	set_auto_retry: (c, { session }) => {
		session.setAutoRetryEnabled(c.enabled);
		return undefined;
	},
	abort_retry: (_c, { session }) => {
		session.abortRetry();
		return undefined;
	},

	bash: async (c, ctx) => {
		const result = await ctx.session.executeBash(c.command, {
			excludeFromContext: c.excludeFromContext,
			onChunk: (delta) => ctx.emit({ type: "bash_execution_update", ...(ctx.id ? { id: ctx.id } : {}), delta }),
		});
		return {
			output: result.output,
			...(result.exitCode === null ? {} : { exitCode: result.exitCode }),
			cancelled: result.cancelled,
			truncated: result.truncated,
			...(result.fullOutputPath ? { fullOutputPath: result.fullOutputPath } : {}),
		};
	},
	abort_bash: (_c, { session }) => {
		session.abortBash();
		return undefined;
	},

	get_session_stats: (_c, { session }) => {
		const { sessionFile, ...stats } = session.getSessionStats();
		const usage = session.getContextUsage();
		return {
			...(sessionFile ? { sessionFile } : {}),
			...stats,
			...(session.model && usage.contextWindow > 0
				? {
						contextUsage: {
							tokens: usage.tokens,
							contextWindow: usage.contextWindow,
							percent: usage.percent ?? null,
						},
					}
				: {}),
		};
	},
	export_html: async (c, { session }) => {
		const { exportLiveSession } = await import("../../export/live-session.js");
		const result = exportLiveSession(session, c.outputPath, { cwd: process.cwd(), format: "html" });
		return { path: result.path };
	},
	switch_session: (c, { session }) => session.switchSession(c.sessionPath),
	fork: (c, { session }) => session.fork(c.entryId),
	clone: (_c, { session }) => session.clone(),
	get_fork_messages: (_c, { session }) => ({ messages: session.getForkMessages() }),
	get_entries: (c, { session }) => {
		const sm = session.sessionManager;
		const entries = c.since === undefined ? sm.getEntries() : sm.getEntriesAfter(c.since);
		if (!entries) throw new Error(`Entry not found: ${c.since}`);
		return { entries, leafId: sm.getLeafId() };
	},
	get_tree: (_c, { session }) => ({
		tree: session.sessionManager.getTree(),
		leafId: session.sessionManager.getLeafId(),
	}),
	get_last_assistant_text: (_c, { session }) => {
		// Skips replies without text (tool-call-only turns, failed or aborted ones).
		const messages = session.messages;
		for (let i = messages.length - 1; i >= 0; i--) {
			if (messages[i].role !== "assistant") continue;
			const text = messageText(messages[i]);
			if (text) return { text };
		}
		return { text: null };
	},
	set_session_name: (c, { session }) => {
		const name = c.name.trim();
		if (!name) throw new Error("Session name cannot be empty");
		session.setSessionName(name);
		return undefined;
	},
	get_messages: (_c, { session }) => ({ messages: session.messages }),
	get_commands: (_c, ctx) => ({ commands: ctx.getCommands() }),
};
