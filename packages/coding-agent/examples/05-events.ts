// Every event a session emits, as a one-line trace: runs, turns, messages,
// streaming deltas, tool executions, queue changes, compaction and retries.
// This is what the json and rpc modes write out, one JSON line per event.
//
//   npx tsx packages/coding-agent/examples/05-events.ts
import { type AgentSessionEvent, createAgentSession, SessionManager } from "@pi/coding-agent";
import { useExampleModel } from "./shared.js";

function describe(event: AgentSessionEvent): string {
	switch (event.type) {
		case "message_start":
		case "message_end":
			return `${event.type} (${event.message.role})`;
		case "message_update": {
			const e = event.assistantMessageEvent;
			return "delta" in e ? `message_update ${e.type} ${JSON.stringify(e.delta)}` : `message_update ${e.type}`;
		}
		case "tool_execution_start":
			return `tool_execution_start ${event.toolName} ${JSON.stringify(event.args)}`;
		case "tool_execution_end":
			return `tool_execution_end ${event.toolName} isError=${event.isError}`;
		case "turn_end":
			return `turn_end (${event.toolResults.length} tool results)`;
		case "agent_end":
			return `agent_end (${event.messages.length} new messages)`;
		default:
			return event.type;
	}
}

const { session } = await createAgentSession({ sessionManager: SessionManager.inMemory(), tools: ["ls"] });
useExampleModel(session);
const unsubscribe = session.subscribe((event) => console.log(describe(event)));
await session.prompt("List the files here, then summarise.");
unsubscribe();
session.dispose();
