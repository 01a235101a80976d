// Talking to a running agent. `steer` queues a message that is delivered after
// the current tool calls finish, before the next model request; `followUp`
// waits until the agent would otherwise stop. Both keep the same run going:
// `prompt()` resolves once everything, queued messages included, is done.
//
//   npx tsx packages/coding-agent/examples/06-steering.ts
import { createAgentSession, SessionManager } from "@pi/coding-agent";
import { textOf, useExampleModel } from "./shared.js";

const { session } = await createAgentSession({ sessionManager: SessionManager.inMemory(), tools: ["bash"] });
useExampleModel(session);

let steered = false;
session.subscribe(async (event) => {
	if (event.type === "tool_execution_start" && !steered) {
		steered = true;
		await session.steer("Actually, also tell me today's weekday.");
		await session.followUp("When you are done, say goodbye.");
	}
	if (event.type === "queue_update") {
		console.log(`queue: steering=${JSON.stringify(event.steering)} followUp=${JSON.stringify(event.followUp)}`);
	}
	if (event.type === "message_end" && event.message.role === "user") {
		const text = textOf(event.message.content);
		console.log(`user: ${text}`);
	}
	if (event.type === "message_end" && event.message.role === "assistant") {
		const text = textOf(event.message.content);
		if (text) console.log(`assistant: ${text}`);
	}
});

await session.prompt("Run `sleep 1; date +%Y` and tell me the year.");
session.dispose();
