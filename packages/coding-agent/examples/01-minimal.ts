// The smallest embedding: create a session with the defaults (settings, keys
// and models from ~/.pi/agent, a session file for this directory, the built-in
// tools), stream the answer to stdout, and wait for the run to finish.
//
//   npx tsx packages/coding-agent/examples/01-minimal.ts "What is in this directory?"
import { createAgentSession } from "@pi/coding-agent";
import { useExampleModel } from "./shared.js";

const { session } = await createAgentSession();
useExampleModel(session);

session.subscribe((event) => {
	if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
		process.stdout.write(event.assistantMessageEvent.delta);
	}
});

await session.prompt(process.argv[2] ?? "Say hello.");
process.stdout.write("\n");
session.dispose();
