// Your own system prompt instead of pi's, plus an extra paragraph appended
// to it. The resource loader is where prompts, context files and skills come
// from; pass your own ResourceLoader for full control.
//
//   npx tsx packages/coding-agent/examples/04-custom-system-prompt.ts
import { createAgentSession, DefaultResourceLoader, SessionManager } from "@pi/coding-agent";
import { lastReply, useExampleModel } from "./shared.js";

const resourceLoader = new DefaultResourceLoader({
	cwd: process.cwd(),
	agentDir: process.env.PI_CODING_AGENT_DIR ?? `${process.env.HOME}/.pi/agent`,
	systemPrompt: "You are a pirate. Answer every question in pirate speak.",
	appendSystemPrompt: ["Keep answers to one sentence."],
	noContextFiles: true,
});
await resourceLoader.reload();

const { session } = await createAgentSession({
	sessionManager: SessionManager.inMemory(),
	resourceLoader,
	noTools: "all",
});
useExampleModel(session);

await session.prompt("What is a compiler?");
console.log(lastReply(session));
session.dispose();
