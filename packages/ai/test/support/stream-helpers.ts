/** Small helpers for adapter tests: a model pointed at the fake server, and event collection. */
import type { AssistantMessageEventStream } from "../../src/event-stream.js";
import type { AssistantMessage, AssistantMessageEvent, Model } from "../../src/types.js";

export function fakeModel<T extends Model>(base: Partial<T> & Pick<Model, "api" | "baseUrl">): Model {
	return {
		id: "fake-model",
		name: "Fake Model",
		provider: "openai",
		reasoning: false,
		input: ["text", "image"],
		cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 16_384,
		...base,
	};
}

export async function collect(stream: AssistantMessageEventStream): Promise<AssistantMessageEvent[]> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

/** Event types in order, with the content index where there is one: "text_delta:0". */
export function eventTrace(events: AssistantMessageEvent[]): string[] {
	return events.map((e) => ("contentIndex" in e ? `${e.type}:${e.contentIndex}` : e.type));
}

/** Deltas of one kind joined, to compare text across splits. */
export function deltas(events: AssistantMessageEvent[], type: "text_delta" | "thinking_delta" | "toolcall_delta") {
	return events.filter((e) => e.type === type).map((e) => (e as { delta: string }).delta);
}

/**
 * The partial arguments each `toolcall_delta` carries, snapshotted as they arrive (`partial` is
 * live). Send one frame per write (`splitAt: frameEnds(...)`, a delay) so each state is seen.
 */
export async function partialArgumentsPerDelta(stream: AssistantMessageEventStream): Promise<unknown[]> {
	const seen: unknown[] = [];
	for await (const e of stream) {
		if (e.type !== "toolcall_delta") continue;
		const block = e.partial.content[e.contentIndex];
		seen.push(block?.type === "toolCall" ? structuredClone(block.arguments) : undefined);
	}
	return seen;
}

/** A finished assistant turn from `origin`, as a transcript holds it (zero usage, stopReason toolUse). */
export function assistantTurn(
	origin: Pick<AssistantMessage, "api" | "provider" | "model">,
	content: AssistantMessage["content"],
	over: Partial<AssistantMessage> = {},
): AssistantMessage {
	return {
		role: "assistant",
		content,
		...origin,
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "toolUse",
		timestamp: 2,
		...over,
	};
}

/** Event types with runs collapsed: "text_delta:0 x6". */
export function compactTrace(events: AssistantMessageEvent[]): string[] {
	const out: { label: string; count: number }[] = [];
	for (const event of events) {
		const label = "contentIndex" in event ? `${event.type}:${event.contentIndex}` : event.type;
		const last = out.at(-1);
		if (last?.label === label) last.count++;
		else out.push({ label, count: 1 });
	}
	return out.map(({ label, count }) => (count > 1 ? `${label} x${count}` : label));
}

/** A message's token counts without the cost. */
export function usageTokens(message: AssistantMessage): Omit<AssistantMessage["usage"], "cost"> {
	const { cost: _cost, ...rest } = message.usage;
	return rest;
}

/** The message of the final `error` event; throws when the stream ended any other way. */
export function errorOf(events: AssistantMessageEvent[]): AssistantMessage {
	const last = events.at(-1);
	if (last?.type !== "error") throw new Error(`expected an error event, got ${last?.type}`);
	return last.error;
}
