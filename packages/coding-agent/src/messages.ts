// Coding-agent message roles, added to agent-core's AgentMessage union by
// declaration merging, and the one conversion that turns them into what the
// model sees. The texts are part of the session-compatibility contract: the
// same session must produce the same request in every pi build.
import type { AgentMessage } from "@pi/agent-core";
import type { ImageContent, Message, TextContent } from "@pi/ai";

/** Output of a `!command` typed by the user (not a tool call of the model). */
export interface BashExecutionMessage {
	role: "bashExecution";
	command: string;
	output: string;
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
	/** `!!command`: shown and stored, never sent to the model. */
	excludeFromContext?: boolean;
	timestamp: number;
}

/** A message an extension injects into the conversation (sent to the model as user content). */
export interface CustomMessage<T = unknown> {
	role: "custom";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
	timestamp: number;
}

/** Findings carried over from an abandoned branch (projected from a `branch_summary` entry). */
export interface BranchSummaryMessage {
	role: "branchSummary";
	summary: string;
	fromId: string;
	timestamp: number;
}

/** What a `compaction` entry contributes to the context. */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore: number;
	timestamp: number;
}

declare module "@pi/agent-core" {
	interface CustomAgentMessages {
		bashExecution: BashExecutionMessage;
		custom: CustomMessage;
		branchSummary: BranchSummaryMessage;
		compactionSummary: CompactionSummaryMessage;
	}
}

export const COMPACTION_SUMMARY_PREFIX =
	"The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
	"The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
// No newline before the closing tag: the reference sends it this way, and a
// byte-identical request keeps provider prompt caches valid across builds.
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/** The user-visible text a bash execution becomes in the model's context. */
/** The text of a message (user, assistant…): a string content as is, else its text blocks joined; "" when it has none. */
export function messageText(message: AgentMessage): string {
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((c: { type?: string }) => c.type === "text")
		.map((c: { text?: string }) => c.text ?? "")
		.join("");
}

export function bashExecutionToText(msg: BashExecutionMessage): string {
	let text = `Ran \`${msg.command}\`\n`;
	text += msg.output ? `\`\`\`\n${msg.output}\n\`\`\`` : "(no output)";
	if (msg.cancelled) {
		text += "\n\n(command cancelled)";
	} else if (msg.exitCode !== null && msg.exitCode !== undefined && msg.exitCode !== 0) {
		text += `\n\nCommand exited with code ${msg.exitCode}`;
	}
	if (msg.truncated && msg.fullOutputPath) {
		text += `\n\n[Output truncated. Full output: ${msg.fullOutputPath}]`;
	}
	return text;
}

/** Session entries carry ISO timestamps; messages carry Unix ms. */
function isoToMs(timestamp: string): number {
	return new Date(timestamp).getTime();
}

export function createBranchSummaryMessage(summary: string, fromId: string, timestamp: string): BranchSummaryMessage {
	return { role: "branchSummary", summary, fromId, timestamp: isoToMs(timestamp) };
}

export function createCompactionSummaryMessage(
	summary: string,
	tokensBefore: number,
	timestamp: string,
): CompactionSummaryMessage {
	return { role: "compactionSummary", summary, tokensBefore, timestamp: isoToMs(timestamp) };
}

export function createCustomMessage(
	customType: string,
	content: string | (TextContent | ImageContent)[],
	display: boolean,
	details: unknown,
	timestamp: string,
): CustomMessage {
	return { role: "custom", customType, content, display, details, timestamp: isoToMs(timestamp) };
}

/**
 * User-role provider messages that stand for an app message (an extension's
 * custom message, a `!` command's output, a summary) rather than one the
 * user wrote: a virtual model's router is told `continuation`, not `user`,
 * for a request that ends with one. Kept by identity, so nothing is added to
 * what providers receive.
 */
const standIns = new WeakSet<Message>();

/** True for a user-role provider message that convertToLlm made from an app message (see `standIns`). */
export function isStandInUserMessage(message: Message): boolean {
	return standIns.has(message);
}

function standIn(message: Message): Message {
	standIns.add(message);
	return message;
}

function userText(text: string, timestamp: number): Message {
	return standIn({ role: "user", content: [{ type: "text", text }], timestamp });
}

/**
 * Turn the agent transcript into provider messages: app roles become user
 * messages, `!!` bash executions and unknown roles are dropped, pi-ai roles
 * pass through unchanged (same object).
 */
export function convertToLlm(messages: AgentMessage[]): Message[] {
	const out: Message[] = [];
	let sawSystem = false;
	for (const m of messages) {
		switch (m.role) {
			case "system":
				// A branch whose first system message comes after the conversation
				// (a session written by 0.73.1, which never recorded its prompt) is
				// sent with that prompt leading, as the writer sent it.
				if (!sawSystem && out.length > 0) out.unshift(m);
				else out.push(m);
				sawSystem = true;
				break;
			case "user":
			case "assistant":
			case "toolResult":
				out.push(m);
				break;
			case "bashExecution":
				if (!m.excludeFromContext) out.push(userText(bashExecutionToText(m), m.timestamp));
				break;
			case "custom":
				out.push(
					standIn({
						role: "user",
						content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content,
						timestamp: m.timestamp,
					}),
				);
				break;
			case "branchSummary":
				out.push(userText(BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX, m.timestamp));
				break;
			case "compactionSummary":
				out.push(userText(COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX, m.timestamp));
				break;
			default:
				// Roles added by other declaration merges are the owner's business, not the model's.
				break;
		}
	}
	return out;
}
