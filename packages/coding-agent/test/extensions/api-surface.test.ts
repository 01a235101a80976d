// The `pi` object an extension receives has every ExtensionAPI member of
// upstream 1.6.0 (the 33 names of its ExtensionAPI interface), each callable
// (`events` is the bus), plus this build's `apiVersion`. A member added to
// the type but forgotten in api.ts, or dropped from it, fails here.
import { describe, expect, it } from "vitest";
import { EXTENSION_API_VERSION, type ExtensionAPI } from "../../src/extensions/types.js";
import { inMemoryExtensions } from "./helpers.js";

const MEMBERS_1_6_0 = [
	"appendEntry",
	"events",
	"exec",
	"getActiveTools",
	"getAllTools",
	"getCommands",
	"getFlag",
	"getMcpServers",
	"getSessionName",
	"getSettings",
	"getThinkingLevel",
	"on",
	"registerCommand",
	"registerEntryRenderer",
	"registerFlag",
	"registerMarkdownTransformer",
	"registerMcpServer",
	"registerMessageRenderer",
	"registerProvider",
	"registerShortcut",
	"registerTool",
	"registerToolRenderer",
	"registerVirtualModel",
	"sendMessage",
	"sendUserMessage",
	"setActiveTools",
	"setLabel",
	"setModel",
	"setSessionName",
	"setThinkingLevel",
	"unregisterMcpServer",
	"unregisterProvider",
	"unregisterVirtualModel",
] as const;

describe("the pi object", () => {
	it("has every 1.6.0 ExtensionAPI member, and apiVersion", () => {
		let pi: ExtensionAPI | undefined;
		inMemoryExtensions({ "a.ts": (api) => void (pi = api) });
		const api = pi as unknown as Record<string, unknown>;
		expect(MEMBERS_1_6_0).toHaveLength(33);
		const missing = MEMBERS_1_6_0.filter((name) => !(name in api));
		expect(missing).toEqual([]);
		for (const name of MEMBERS_1_6_0) {
			if (name === "events") expect(typeof (api.events as { on?: unknown }).on).toBe("function");
			else expect(typeof api[name], name).toBe("function");
		}
		expect(api.apiVersion).toBe(EXTENSION_API_VERSION);
		// Nothing beyond them but apiVersion: a new member is a deliberate change of this list.
		expect(Object.keys(api).sort()).toEqual([...MEMBERS_1_6_0, "apiVersion"].sort());
	});
});
