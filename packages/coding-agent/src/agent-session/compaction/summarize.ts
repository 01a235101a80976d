// The extra model call that turns old conversation into notes: one request
// per summary through the session's stream function (so headers, keys and
// test fakes apply), non-streaming in effect. A split turn makes two requests
// in parallel (history, and the early part of the turn) and joins them.
import type { AgentMessage, StreamFn } from "@pi/agent-core";
import type { AssistantMessage, Context, Model, StreamOptions, ThinkingLevel, Usage } from "@pi/ai";
import { convertToLlm } from "../../messages.js";
import { decideRetry, isRetryableError, type RetryPolicySettings } from "../backoff/retry-policy.js";
import { SleepAbortedError, sleep, type Timers } from "../backoff/timers.js";
import { computeFileLists, type FileListDetails, formatFileOperations } from "./file-ops.js";
import type { CompactionPreparation } from "./prepare.js";
import {
	focusLine,
	joinSplitTurnSummaries,
	NEW_SUMMARY_INSTRUCTIONS,
	SUMMARIZER_SYSTEM_PROMPT,
	TURN_PREFIX_INSTRUCTIONS,
	UPDATE_SUMMARY_INSTRUCTIONS,
} from "./prompts.js";
import { serializeConversation } from "./serialize.js";
import { CHARS_PER_TOKEN } from "./token-estimate.js";

/** Everything needed to make a summary request. */
export interface Summarizer {
	model: Model;
	streamFn: StreamFn;
	apiKey?: string;
	signal?: AbortSignal;
	thinkingLevel?: ThinkingLevel;
	sessionId?: string;
	/** Transient failures of a summary request are retried with the session's retry policy. */
	retry?: { settings: RetryPolicySettings; timers: Timers };
}

/** What a compaction produces; the session stores it as a `compaction` entry. */
export interface CompactionResult<T = unknown> {
	summary: string;
	/** Null keeps nothing (the stored entry then names itself). */
	firstKeptEntryId: string | null;
	tokensBefore: number;
	/** Estimate of the context right after compaction (set once the entry is stored). */
	estimatedTokensAfter?: number;
	usage?: Usage;
	details?: T;
}

export class SummarizationAbortedError extends Error {
	constructor() {
		super("Summarization was aborted");
		this.name = "SummarizationAbortedError";
	}
}

/** Prompt overhead reserved besides the transcript, in tokens. */
const PROMPT_OVERHEAD_TOKENS = 1024;

/** Output budget: a share of the reserve, never above what the model can emit. */
export function summaryMaxTokens(model: Model, reserveTokens: number, share: number): number {
	const wanted = Math.max(256, Math.floor(reserveTokens * share));
	return model.maxTokens > 0 ? Math.min(wanted, model.maxTokens) : wanted;
}

export interface SummaryRequestInput {
	messages: readonly AgentMessage[];
	instructions: string;
	model: Model;
	maxTokens: number;
	previousSummary?: string;
	customInstructions?: string;
	/** Custom instructions replace `instructions` instead of adding a focus line. */
	replaceInstructions?: boolean;
}

/** Builds the summary request's context (no I/O). The transcript is trimmed to fit the model's window. */
export function buildSummaryContext(input: SummaryRequestInput): Context {
	const { model, maxTokens, previousSummary } = input;
	const budgetTokens =
		model.contextWindow > 0 ? model.contextWindow - maxTokens - PROMPT_OVERHEAD_TOKENS : Number.POSITIVE_INFINITY;
	const budgetChars = Math.max(4000, budgetTokens * CHARS_PER_TOKEN - (previousSummary?.length ?? 0));
	const transcript = serializeConversation(convertToLlm(input.messages.slice()), budgetChars);
	const custom = input.customInstructions?.trim();
	const instructions =
		input.replaceInstructions && custom ? custom : input.instructions + focusLine(input.customInstructions);
	let text = `<conversation>\n${transcript}\n</conversation>\n\n`;
	if (previousSummary) text += `<previous-notes>\n${previousSummary}\n</previous-notes>\n\n`;
	text += instructions;
	return {
		systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
		messages: [{ role: "user", content: [{ type: "text", text }], timestamp: Date.now() }],
	};
}

function textOf(message: AssistantMessage): string {
	return message.content
		.filter((b) => b.type === "text")
		.map((b) => (b as { text: string }).text)
		.join("")
		.trim();
}

/** Sends one summary request; resolves the text and usage, throws on failure or abort. */
export async function requestSummary(
	context: Context,
	maxTokens: number,
	s: Summarizer,
): Promise<{ text: string; usage: Usage }> {
	if (s.signal?.aborted) throw new SummarizationAbortedError();
	const options: StreamOptions = { maxTokens, cacheRetention: "none" };
	if (s.signal) options.signal = s.signal;
	if (s.apiKey !== undefined) options.apiKey = s.apiKey;
	if (s.sessionId !== undefined) options.sessionId = s.sessionId;
	if (s.model.reasoning && s.thinkingLevel && s.thinkingLevel !== "off") options.reasoning = s.thinkingLevel;
	let response: AssistantMessage;
	for (let attempt = 1; ; attempt++) {
		if (s.signal?.aborted) throw new SummarizationAbortedError();
		try {
			response = await (await s.streamFn(s.model, context, options)).result();
		} catch (error) {
			if (s.signal?.aborted) throw new SummarizationAbortedError();
			throw new Error(`Summarization failed: ${error instanceof Error ? error.message : String(error)}`);
		}
		if (!s.retry?.settings.enabled || s.signal?.aborted || !isRetryableError(response, s.model.contextWindow)) break;
		const decision = decideRetry(attempt, s.retry.settings, response);
		if (!decision.retry) break;
		try {
			await sleep(decision.delayMs, s.signal, s.retry.timers);
		} catch (error) {
			if (error instanceof SleepAbortedError) throw new SummarizationAbortedError();
			throw error;
		}
	}
	if (response.stopReason === "aborted" || s.signal?.aborted) throw new SummarizationAbortedError();
	if (response.stopReason === "error") {
		throw new Error(`Summarization failed: ${response.errorMessage ?? "unknown error"}`);
	}
	if (response.stopReason === "length") {
		throw new Error(`Summarization failed: the summary was cut off at the output limit (${maxTokens} tokens)`);
	}
	const text = textOf(response);
	if (!text) throw new Error("Summarization failed: the model returned an empty summary");
	return { text, usage: response.usage };
}

export function addUsage(a: Usage, b: Usage): Usage {
	return {
		input: a.input + b.input,
		output: a.output + b.output,
		cacheRead: a.cacheRead + b.cacheRead,
		cacheWrite: a.cacheWrite + b.cacheWrite,
		totalTokens: a.totalTokens + b.totalTokens,
		cost: {
			input: a.cost.input + b.cost.input,
			output: a.cost.output + b.cost.output,
			cacheRead: a.cost.cacheRead + b.cost.cacheRead,
			cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
			total: a.cost.total + b.cost.total,
		},
	};
}

/** The requests a compaction makes (history, and the turn prefix when the cut splits a turn). */
export function buildCompactionRequests(
	prep: CompactionPreparation,
	model: Model,
	customInstructions?: string,
): { history?: { context: Context; maxTokens: number }; turnPrefix?: { context: Context; maxTokens: number } } {
	const out: ReturnType<typeof buildCompactionRequests> = {};
	const reserve = prep.settings.reserveTokens;
	if (prep.messagesToSummarize.length > 0 || !prep.isSplitTurn) {
		const maxTokens = summaryMaxTokens(model, reserve, 0.8);
		out.history = {
			maxTokens,
			context: buildSummaryContext({
				messages: prep.messagesToSummarize,
				instructions: prep.previousSummary ? UPDATE_SUMMARY_INSTRUCTIONS : NEW_SUMMARY_INSTRUCTIONS,
				model,
				maxTokens,
				previousSummary: prep.previousSummary,
				customInstructions,
			}),
		};
	}
	if (prep.isSplitTurn && prep.turnPrefixMessages.length > 0) {
		const maxTokens = summaryMaxTokens(model, reserve, 0.5);
		out.turnPrefix = {
			maxTokens,
			context: buildSummaryContext({
				messages: prep.turnPrefixMessages,
				instructions: TURN_PREFIX_INSTRUCTIONS,
				model,
				maxTokens,
				customInstructions,
			}),
		};
	}
	return out;
}

/** Summarizes a prepared compaction. Throws on failure; SummarizationAbortedError on abort. */
export async function compact(
	prep: CompactionPreparation,
	summarizer: Summarizer,
	customInstructions?: string,
): Promise<CompactionResult<FileListDetails>> {
	const requests = buildCompactionRequests(prep, summarizer.model, customInstructions);
	// When one of the two requests fails, the other is cancelled rather than left running.
	const both = new AbortController();
	const onOuter = () => both.abort();
	summarizer.signal?.addEventListener("abort", onOuter, { once: true });
	if (summarizer.signal?.aborted) both.abort();
	const s: Summarizer = { ...summarizer, signal: both.signal };
	let history: { text: string; usage: Usage } | undefined;
	let prefix: { text: string; usage: Usage } | undefined;
	try {
		[history, prefix] = await Promise.all([
			requests.history ? requestSummary(requests.history.context, requests.history.maxTokens, s) : undefined,
			requests.turnPrefix ? requestSummary(requests.turnPrefix.context, requests.turnPrefix.maxTokens, s) : undefined,
		]);
	} catch (error) {
		both.abort();
		throw error;
	} finally {
		summarizer.signal?.removeEventListener("abort", onOuter);
	}
	let summary: string;
	let usage: Usage | undefined;
	if (history && prefix) {
		summary = joinSplitTurnSummaries(history.text, prefix.text);
		usage = addUsage(history.usage, prefix.usage);
	} else if (prefix) {
		summary = joinSplitTurnSummaries(prep.previousSummary ?? "", prefix.text);
		usage = prefix.usage;
	} else {
		summary = history?.text ?? "";
		usage = history?.usage;
	}
	const details = computeFileLists(prep.fileOps);
	summary += formatFileOperations(details.readFiles, details.modifiedFiles);
	const result: CompactionResult<FileListDetails> = {
		summary,
		firstKeptEntryId: prep.firstKeptEntryId,
		tokensBefore: prep.tokensBefore,
		details,
	};
	if (usage) result.usage = usage;
	return result;
}
