// How a session event looks on the wire. Only `message_update` changes: the
// in-process event carries the whole partial message twice (`message` and
// `assistantMessageEvent.partial`), which makes a long answer cost
// O(length²) bytes. On the wire it is delta-only, as in the 1.x reference
// (docs/json.md there): the partial snapshots are dropped, the latest usage
// is kept, and `toolcall_start` names the call it starts.
import type { AssistantMessage, AssistantMessageEvent, Usage } from "@pi/ai";
import type { AgentSessionEvent } from "../../agent-session/events.js";

type WithoutPartial<T> = T extends { partial: unknown } ? Omit<T, "partial"> : T;

export type JsonAssistantMessageEvent =
	| Exclude<WithoutPartial<AssistantMessageEvent>, { type: "toolcall_start" }>
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string };

export type JsonMessageUpdateEvent = {
	type: "message_update";
	usage: Usage;
	assistantMessageEvent: JsonAssistantMessageEvent;
};

export type JsonAgentSessionEvent = Exclude<AgentSessionEvent, { type: "message_update" }> | JsonMessageUpdateEvent;

const ZERO_USAGE: Usage = {
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function toJsonAssistantEvent(e: AssistantMessageEvent, message: AssistantMessage): JsonAssistantMessageEvent {
	if (e.type === "toolcall_start") {
		const block = message.content[e.contentIndex];
		const call = block?.type === "toolCall" ? block : undefined;
		return { type: "toolcall_start", contentIndex: e.contentIndex, id: call?.id ?? "", toolName: call?.name ?? "" };
	}
	if ("partial" in e) {
		const { partial: _partial, ...rest } = e;
		return rest as JsonAssistantMessageEvent;
	}
	return e;
}

/** The wire form of a session event (a new object for `message_update`, the event itself otherwise). */
export function toJsonEvent(event: AgentSessionEvent): JsonAgentSessionEvent {
	if (event.type !== "message_update") return event;
	const message = event.message as AssistantMessage;
	return {
		type: "message_update",
		usage: message.usage ?? ZERO_USAGE,
		assistantMessageEvent: toJsonAssistantEvent(event.assistantMessageEvent, message),
	};
}
