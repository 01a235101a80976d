// Extensions in an SDK session, and the runtime that owns them. `extensions`
// loads what `pi` would (~/.pi/agent/extensions, a trusted project's
// .pi/extensions, settings) plus files and factories you name; the result's
// `runtime` owns the session, its folder's services and the extensions.
// `runtime.reload()` reads them again (what /reload does in the app); a
// switch into a session of another folder moves everything there.
//
//   npx tsx packages/coding-agent/examples/08-extensions.ts
import { createAgentSession, type ExtensionAPI, SessionManager } from "@pi/coding-agent";
import { Type } from "typebox";
import { lastReply, useExampleModel } from "./shared.js";

let loads = 0;
function shout(pi: ExtensionAPI): void {
	const instance = ++loads;
	pi.on("session_start", (event) => console.log(`session_start ${event.reason} (instance ${instance})`));
	pi.on("session_shutdown", (event) => console.log(`session_shutdown ${event.reason} (instance ${instance})`));
	pi.registerTool({
		name: "shout",
		label: "Shout",
		description: "Returns the text in capitals.",
		parameters: Type.Object({ text: Type.String() }),
		execute: async (_id, params) => ({
			content: [{ type: "text", text: (params as { text: string }).text.toUpperCase() }],
			details: {},
		}),
	});
}

const { session, runtime } = await createAgentSession({
	sessionManager: SessionManager.inMemory(),
	// discover: false — only what is named here (no ~/.pi/agent/extensions).
	extensions: { discover: false, factories: [shout] },
});
if (!runtime) throw new Error("extensions were asked for, so there is a runtime");
useExampleModel(session);

await session.prompt("Shout 'hello'.");
console.log(lastReply(session));

const reloaded = await runtime.reload();
console.log(`reload ok: ${reloaded.ok}`);

await runtime.dispose(); // session_shutdown, then the session lets go of its file
