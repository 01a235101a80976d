// A custom tool next to the built-in ones. Parameters are a TypeBox schema:
// pi validates the model's arguments against it before `execute` runs, and a
// thrown error goes back to the model as an error result it can act on.
//
//   npx tsx packages/coding-agent/examples/02-custom-tool.ts
import type { AgentTool } from "@pi/agent-core";
import { createAgentSession, SessionManager } from "@pi/coding-agent";
import { Type } from "typebox";
import { lastReply, useExampleModel } from "./shared.js";

const rollDice: AgentTool = {
	name: "roll_dice",
	label: "Roll dice",
	description: "Roll one die with the given number of sides and return the result.",
	parameters: Type.Object({ sides: Type.Integer({ minimum: 2, maximum: 100, description: "Number of sides" }) }),
	execute: async (_toolCallId, params) => {
		const { sides } = params as { sides: number };
		// Deterministic for the example's test; use Math.random() for real dice.
		const value = (sides % 6) + 1;
		return { content: [{ type: "text", text: `Rolled a d${sides}: ${value}` }], details: { sides, value } };
	},
};

const { session } = await createAgentSession({
	sessionManager: SessionManager.inMemory(),
	customTools: [rollDice],
	tools: ["read", "roll_dice"], // only these two are offered to the model
});
useExampleModel(session);

session.subscribe((event) => {
	if (event.type === "tool_execution_end") {
		const result = event.result as { content: { type: string; text?: string }[] };
		const text = result.content.map((c) => c.text ?? "").join("");
		console.log(`[tool ${event.toolName}] ${text}`);
	}
});

await session.prompt("Roll a six-sided die and tell me the result.");
console.log(lastReply(session));
session.dispose();
