// Nothing on disk: the conversation lives in memory (like --no-session), and
// settings changes are not saved. Useful for bots, tests and one-off scripts.
//
//   npx tsx packages/coding-agent/examples/03-in-memory-session.ts
import { createAgentSession, SessionManager, SettingsManager } from "@pi/coding-agent";
import { lastReply, useExampleModel } from "./shared.js";

const { session } = await createAgentSession({
	sessionManager: SessionManager.inMemory(process.cwd()),
	settingsManager: SettingsManager.inMemory(),
	noTools: "all",
});
useExampleModel(session);

await session.prompt("My favourite colour is teal. Just say OK.");
console.log(`1: ${lastReply(session)}`);
await session.prompt("What is my favourite colour?");
console.log(`2: ${lastReply(session)}`);

const stats = session.getSessionStats();
console.log(
	`messages: ${stats.userMessages} user, ${stats.assistantMessages} assistant; file: ${session.sessionFile ?? "none"}`,
);
session.dispose();
