// Helpers shared by the SDK examples.
//
// Every example runs against whatever model pi would pick (your saved default,
// or the first one with credentials). Set PI_EXAMPLE_MODEL=provider/id to choose
// one, e.g. a local OpenAI-compatible server declared in ~/.pi/agent/models.json
// (the examples' test points them at a fake server that way).
import type { AgentSession } from "@pi/coding-agent";

/** Switches the session to $PI_EXAMPLE_MODEL when it is set. */
export function useExampleModel(session: AgentSession): void {
	const wanted = process.env.PI_EXAMPLE_MODEL;
	if (!wanted) return;
	const slash = wanted.indexOf("/");
	const model = session.modelRegistry.find(wanted.slice(0, slash), wanted.slice(slash + 1));
	if (!model) throw new Error(`PI_EXAMPLE_MODEL: no model ${wanted} (see models.json)`);
	session.setModel(model);
}

/** The text of the last assistant reply. */
export function lastReply(session: AgentSession): string {
	return session.getLastAssistantText() ?? "";
}

/** The text of a message's content (a string, or blocks of which the text ones count). */
export function textOf(content: string | readonly { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("");
}
