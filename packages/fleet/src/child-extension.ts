// Loaded into every fleet run's `pi --mode rpc` child (`-e`). It talks to the
// worker over the child's IPC channel (stdout is the RPC protocol):
//   - before any tool runs, it reports the call ("intent") and waits until the
//     worker has stored the session so far, the intent and a workspace snapshot
//     in PostgreSQL, so after a crash the next worker knows what may have run;
//     after the tool ran, before its result is recorded, it waits again ("done")
//     so the snapshot includes the tool's effects before the session says so;
//   - when the worker goes away (IPC channel closed), the child exits at once:
//     an orphaned run must not keep changing the workspace another worker owns;
//   - `/fleet-resume <token> <note>` re-issues the model call of an interrupted
//     run: a hidden custom message with the note starts a turn from the stored
//     context. The token (PI_FLEET_RESUME_TOKEN, new for each child) tells the
//     worker's resume from a user's prompt that happens to start with
//     `/fleet-resume`: that one reaches the model as text, as it would in a
//     local pi, which has no such command.
// Imports types only, so the child loads nothing more than this file.
import type { ExtensionAPI } from "@pi/coding-agent";

/** Child → worker. */
export interface IntentMessage {
	fleet: "intent" | "done";
	id: number;
	toolCallId: string;
	toolName: string;
}

/** Worker → child: the intent is durable (or, with `block`, the tool must not run). */
export interface IntentAck {
	fleet: "ack";
	id: number;
	block?: string;
}

export const RESUME_COMMAND = "fleet-resume";
export const RESUME_TOKEN_ENV = "PI_FLEET_RESUME_TOKEN";
export const RESUME_CUSTOM_TYPE = "fleet.resume";

export default function fleetChild(pi: ExtensionAPI): void {
	const send = process.send?.bind(process);
	if (!send) return;
	let next = 0;
	const waiting = new Map<number, (ack: IntentAck) => void>();
	process.on("message", (raw: unknown) => {
		const ack = raw as IntentAck;
		if (ack?.fleet !== "ack") return;
		waiting.get(ack.id)?.(ack);
		waiting.delete(ack.id);
	});

	process.on("disconnect", () => process.exit(70));
	const ask = (fleet: IntentMessage["fleet"], toolCallId: string, toolName: string): Promise<IntentAck> => {
		const id = ++next;
		const acked = new Promise<IntentAck>((resolve) => waiting.set(id, resolve));
		const message: IntentMessage = { fleet, id, toolCallId, toolName };
		send(message);
		return acked;
	};

	pi.on("tool_call", async (event) => {
		if (event.parentToolCallId) return undefined;
		const ack = await ask("intent", event.toolCallId, event.toolName);
		return ack.block ? { block: true, reason: ack.block } : undefined;
	});

	pi.on("tool_result", async (event) => {
		if (event.parentToolCallId) return undefined;
		await ask("done", event.toolCallId, event.toolName);
		return undefined;
	});

	const token = process.env[RESUME_TOKEN_ENV];
	pi.registerCommand(RESUME_COMMAND, {
		description: "Continue an interrupted fleet run from the stored session",
		handler: async (args) => {
			if (!token || !(args === token || args.startsWith(`${token} `))) {
				pi.sendUserMessage(args ? `/${RESUME_COMMAND} ${args}` : `/${RESUME_COMMAND}`);
				return;
			}
			const note = args.slice(token.length).trim();
			pi.sendMessage(
				{ customType: RESUME_CUSTOM_TYPE, content: note || "The run was interrupted and resumed.", display: false },
				{ triggerTurn: true },
			);
		},
	});
}
