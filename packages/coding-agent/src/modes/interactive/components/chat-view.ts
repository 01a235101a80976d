// The transcript: turns session history and live session events into items
// (user messages, assistant replies, tool calls, `!` commands, summaries,
// notices). Items cache their lines, so only what changed is drawn again.
import type { AgentMessage } from "@pi/agent-core";
import type { AssistantMessage, ImageContent, TextContent, ToolResultMessage } from "@pi/ai";
import { type Component, Container } from "@pi/tui";
import type { AgentSessionEvent } from "../../../agent-session/events.js";
import type { CustomMessageEntry, ProjectedSessionEntry, SessionEntry } from "../../../session/types.js";
import type { ExtensionRenderers } from "../extensions/renderers.js";
import { AssistantMessageItem } from "./assistant-message.js";
import { BashExecutionItem } from "./bash-execution.js";
import { isExpandable, type ThemeSource } from "./cached.js";
import { type EntryOrigin, type MarkdownTransformSource, transformsForEntry } from "./markdown-transform.js";
import { NoticeItem, type StatusKind } from "./notice.js";
import { RetryNoticeItem, type RetryOutcome } from "./retry-notice.js";
import { SummaryItem } from "./summary-item.js";
import { ToolExecutionItem } from "./tool-execution.js";
import { UserMessageItem } from "./user-message.js";

function userText(message: AgentMessage): { text: string; images: ImageContent[] } {
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string") return { text: content, images: [] };
	if (!Array.isArray(content)) return { text: "", images: [] };
	let text = "";
	const images: ImageContent[] = [];
	for (const c of content as (TextContent | ImageContent)[]) {
		if (c.type === "text") text += c.text ?? "";
		else if (c.type === "image") images.push(c);
	}
	return { text, images };
}

export class ChatView extends Container {
	private toolsExpanded = false;
	private thinkingVisible: boolean;
	private readonly tools = new Map<string, ToolExecutionItem>();
	private streaming: AssistantMessageItem | undefined;
	private retry: RetryNoticeItem | undefined;
	/** Shared with assistant items (ctx.ui.setHiddenThinkingLabel). */
	private readonly labels: { hiddenThinking?: string } = {};
	/** The last session entry the transcript shows (see syncEntries). */
	private lastEntryId: string | null | undefined;
	private extensionRenderers: ExtensionRenderers | undefined;
	/** The markdown transformer chain items draw through (pi.registerMarkdownTransformer). */
	private readonly markdownTransforms: MarkdownTransformSource = { current: undefined };

	constructor(
		private readonly theme: ThemeSource,
		options: { showThinking: boolean },
		private readonly requestRender: () => void,
	) {
		super();
		this.thinkingVisible = options.showThinking;
	}

	/** Extension renderers (messages, entries, tools, markdown); absent without extensions. */
	get renderers(): ExtensionRenderers | undefined {
		return this.extensionRenderers;
	}

	set renderers(renderers: ExtensionRenderers | undefined) {
		this.extensionRenderers = renderers;
		this.markdownTransforms.current = renderers
			? (markdown, context) => renderers.transformMarkdown(markdown, context)
			: undefined;
	}

	get toolOutputExpanded(): boolean {
		return this.toolsExpanded;
	}

	get showThinking(): boolean {
		return this.thinkingVisible;
	}

	/** Ctrl+O: expand or collapse every tool output and summary. */
	setToolsExpanded(expanded: boolean): void {
		this.toolsExpanded = expanded;
		for (const c of this.children) if (isExpandable(c) && !(c instanceof AssistantMessageItem)) c.setExpanded(expanded);
	}

	/** Ctrl+T: show thinking blocks in full or as one line. */
	setShowThinking(show: boolean): void {
		this.thinkingVisible = show;
		for (const c of this.children) if (c instanceof AssistantMessageItem) c.setExpanded(show);
	}

	setHiddenThinkingLabel(label: string | undefined): void {
		this.labels.hiddenThinking = label;
		for (const c of this.children) if (c instanceof AssistantMessageItem) c.invalidate();
		this.requestRender();
	}

	/**
	 * Draws what was appended to the session outside the event stream since
	 * the last call: extension entries (pi.appendEntry) and messages recorded
	 * while idle (pi.sendMessage without a turn). `markOnly` just notes where
	 * the transcript is (history drawn, a message drawn from its events).
	 */
	syncEntries(sessionManager: { getBranch(): SessionEntry[]; getLeafId(): string | null }, markOnly = false): void {
		const leaf = sessionManager.getLeafId();
		if (markOnly || this.lastEntryId === undefined) {
			this.lastEntryId = leaf;
			return;
		}
		if (leaf === this.lastEntryId) return;
		const branch = sessionManager.getBranch();
		const at = this.lastEntryId === null ? -1 : branch.findIndex((e) => e.id === this.lastEntryId);
		const moved = this.lastEntryId !== null && at === -1;
		this.lastEntryId = leaf;
		// Not on this branch any more: tree moves and session switches redraw the whole transcript.
		if (moved) return;
		const from = at + 1;
		let added = false;
		for (const entry of branch.slice(from)) {
			if (entry.type === "custom_message") {
				this.addMessage(entryMessage(entry), entry);
				added = true;
			} else if (entry.type === "message" && entry.message.role === "custom") {
				this.addMessage(entry.message, entry);
				added = true;
			} else if (entry.type === "custom") {
				const item = this.renderers?.customEntry(entry, this.toolsExpanded);
				if (item) {
					this.addChild(item);
					added = true;
				}
			}
		}
		if (added) this.requestRender();
	}

	addItem(component: Component): void {
		this.addChild(component);
		this.requestRender();
	}

	addNotice(text: string, kind: StatusKind | "muted" = "info"): NoticeItem {
		const item = new NoticeItem(this.theme, text, kind);
		this.addItem(item);
		return item;
	}

	addUserMessage(text: string, images: ImageContent[] = []): void {
		this.addItem(new UserMessageItem(this.theme, text, images, this.markdownTransforms));
	}

	addBashExecution(command: string, excludeFromContext: boolean): BashExecutionItem {
		const item = new BashExecutionItem(this.theme, command, excludeFromContext, this.toolsExpanded);
		this.addItem(item);
		return item;
	}

	override clear(): void {
		this.stopRetry();
		super.clear();
		this.tools.clear();
		this.streaming = undefined;
	}

	/**
	 * Draws a whole branch (start-up with -c/--session, after /resume, /tree,
	 * /fork) from the session's projection: each context entry's messages, and
	 * the custom entries an extension draws (registerEntryRenderer) in place.
	 */
	renderHistory(
		entries: readonly ProjectedSessionEntry[],
		notices?: ReadonlyMap<string, readonly { text: string; kind: StatusKind | "muted" }[]>,
	): void {
		for (const { sourceEntry, messages } of entries) {
			if (sourceEntry.type === "custom") {
				const item = this.renderers?.customEntry(sourceEntry, this.toolsExpanded);
				if (item) this.addChild(item);
				continue;
			}
			for (const m of messages) this.addMessage(m, sourceEntry);
			// Lines derived from the recorded usage (cache notices), after the entry they belong to.
			for (const n of notices?.get(sourceEntry.id) ?? []) this.addChild(new NoticeItem(this.theme, n.text, n.kind));
		}
		this.streaming = undefined;
		// Calls without a result in history were cut off (crash, abort before the result).
		this.requestRender();
	}

	/** `origin`: the persisted entry `m` comes from (markdown transformers get its id and time). */
	private addMessage(m: AgentMessage, origin?: EntryOrigin): void {
		const transforms = transformsForEntry(this.markdownTransforms, origin);
		switch (m.role) {
			case "user": {
				const u = userText(m);
				this.addChild(new UserMessageItem(this.theme, u.text, u.images, transforms));
				break;
			}
			case "assistant":
				this.addAssistant(m, true, transforms);
				break;
			case "toolResult":
				this.finishTool(m);
				break;
			case "bashExecution": {
				const item = new BashExecutionItem(this.theme, m.command, m.excludeFromContext === true, this.toolsExpanded);
				item.setOutput(m.output);
				item.finish(m.exitCode, m.cancelled, m.truncated ? m.fullOutputPath : undefined);
				this.addChild(item);
				break;
			}
			case "compactionSummary":
				this.addChild(
					new SummaryItem(
						this.theme,
						`compaction: ${m.tokensBefore.toLocaleString("en-US")} tokens summarized`,
						m.summary,
						this.toolsExpanded,
						transforms,
					),
				);
				break;
			case "branchSummary":
				this.addChild(new SummaryItem(this.theme, "branch summary", m.summary, this.toolsExpanded, transforms));
				break;
			case "custom": {
				if (!m.display) break;
				const text = typeof m.content === "string" ? m.content : userText(m).text;
				const fallback = () => new SummaryItem(this.theme, m.customType, text, true, transforms, "custom");
				this.addChild(this.renderers?.customMessage(m, this.toolsExpanded, fallback) ?? fallback());
				break;
			}
			default:
				break;
		}
	}

	private addAssistant(
		m: AssistantMessage,
		final = true,
		transforms: MarkdownTransformSource | undefined = this.markdownTransforms,
	): AssistantMessageItem {
		const item = new AssistantMessageItem(this.theme, m, this.thinkingVisible, final, this.labels, transforms);
		this.addChild(item);
		this.syncToolCalls(m);
		return item;
	}

	/** Creates (or updates the arguments of) the items of the message's tool calls. */
	private syncToolCalls(m: AssistantMessage): void {
		for (const c of m.content) {
			if (c.type !== "toolCall") continue;
			const existing = this.tools.get(c.id);
			if (existing) {
				if (existing.status === "pending") existing.setArgs(c.arguments);
				continue;
			}
			const item = this.newToolItem(c.id, c.name, c.arguments);
			this.tools.set(c.id, item);
			this.addChild(item);
		}
	}

	private newToolItem(id: string, name: string, args: unknown): ToolExecutionItem {
		const renderers = this.renderers?.tool(name);
		const custom = renderers && this.renderers ? { renderers, hooks: this.renderers.hooksForTools() } : undefined;
		return new ToolExecutionItem(this.theme, id, name, args, this.toolsExpanded, custom);
	}

	private finishTool(m: ToolResultMessage): void {
		const item = this.tools.get(m.toolCallId);
		if (item) item.finish(m, m.isError);
	}

	/** Live session events. */
	handleEvent(event: AgentSessionEvent): void {
		switch (event.type) {
			case "message_start":
				if (event.message.role === "assistant") this.streaming = this.addAssistant(event.message, false);
				else if (event.message.role !== "toolResult") this.addMessage(event.message);
				break;
			case "message_update":
				if (event.message.role === "assistant" && this.streaming) {
					this.streaming.update(event.message, false);
					this.syncToolCalls(event.message);
				}
				break;
			case "message_end":
				if (event.message.role === "assistant") {
					if (this.streaming) this.streaming.update(event.message);
					else this.addAssistant(event.message);
					this.syncToolCalls(event.message);
					// Calls that will never run (aborted or failed reply) must not look pending.
					if (event.message.stopReason === "aborted" || event.message.stopReason === "error") {
						for (const c of event.message.content) {
							const item = c.type === "toolCall" ? this.tools.get(c.id) : undefined;
							if (item && item.status === "pending") item.finish({ content: [] }, true);
						}
					}
					this.streaming = undefined;
				} else if (event.message.role === "toolResult") this.finishTool(event.message);
				break;
			case "tool_execution_start": {
				// A call made by another tool (ctx.executeTool, codemode's inner calls) is no item of its own:
				// the calling tool reports it (codemode's renderer lists them), as it does in the transcript.
				if ("parentToolCallId" in event && event.parentToolCallId) break;
				let item = this.tools.get(event.toolCallId);
				if (!item) {
					item = this.newToolItem(event.toolCallId, event.toolName, event.args);
					this.tools.set(event.toolCallId, item);
					this.addChild(item);
				}
				item.start(event.args);
				break;
			}
			case "tool_execution_update":
				this.tools.get(event.toolCallId)?.setPartial(event.partialResult);
				break;
			case "tool_execution_end":
				this.tools.get(event.toolCallId)?.finish(event.result, event.isError);
				break;
			case "compaction_end":
				if (event.result) {
					const title = `compaction${event.reason === "manual" ? "" : ` (${event.reason})`}: ${event.result.tokensBefore.toLocaleString("en-US")} tokens summarized`;
					this.addChild(
						new SummaryItem(this.theme, title, event.result.summary, this.toolsExpanded, this.markdownTransforms),
					);
				} else if (event.aborted) this.addChild(new NoticeItem(this.theme, "Compaction cancelled", "muted"));
				else if (event.errorMessage)
					this.addChild(new NoticeItem(this.theme, `Compaction failed: ${event.errorMessage}`, "error"));
				break;
			case "auto_retry_start":
				this.stopRetry();
				this.retry = new RetryNoticeItem(
					this.theme,
					event.attempt,
					event.maxAttempts,
					event.delayMs,
					event.errorMessage,
					this.requestRender,
				);
				this.addChild(this.retry);
				break;
			case "auto_retry_end":
				if (event.success) {
					if (this.retry?.isOpen) this.stopRetry({ kind: "succeeded" });
				} else if (event.finalError === "Retry cancelled") this.stopRetry({ kind: "failed", text: "Retry cancelled" });
				else
					this.stopRetry({
						kind: "failed",
						text: `Retry failed after ${event.attempt} attempt${event.attempt === 1 ? "" : "s"}${event.finalError ? `: ${event.finalError}` : ""}`,
					});
				break;
			default:
				return;
		}
		this.requestRender();
	}

	private stopRetry(outcome: RetryOutcome = { kind: "hidden" }): void {
		this.retry?.end(outcome);
		this.retry = undefined;
	}
}

/** A custom_message entry as the message it records. */
function entryMessage(entry: CustomMessageEntry): AgentMessage {
	return {
		role: "custom",
		customType: entry.customType,
		content: entry.content,
		display: entry.display,
		details: entry.details,
		timestamp: Date.parse(entry.timestamp) || Date.now(),
	};
}
