// Entries a `message_end` hook appends (builtin:checkpoints records a prompt's
// start snapshot there) share the message's one fdatasync: each line is
// written at once, synced together with the message, and announced
// (`entry_appended`) only after that sync, before the message's `message_end`.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentSessionEvent } from "../../src/agent-session/events.js";
import { ExtensionBridge } from "../../src/agent-session/extension-bridge.js";
import { createNoUIContext } from "../../src/extensions/no-ui.js";
import type { ExtensionAPI } from "../../src/extensions/types.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { inMemoryExtensions } from "../extensions/helpers.js";
import { makeSession } from "./support.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-entry-batch-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Line = { type: string; customType?: string; message?: { role?: string } };
const kind = (l: Line) => (l.type === "message" ? `message:${l.message?.role}` : `${l.type}:${l.customType}`);

async function sessionWith(factory: (pi: ExtensionAPI) => void) {
	const sessionManager = SessionManager.create("/work", dir);
	const made = await makeSession({ sessionManager });
	const { runner, errors } = inMemoryExtensions({ note: factory });
	const ui = createNoUIContext();
	const bridge = new ExtensionBridge({
		session: made.session,
		runner,
		mode: "rpc",
		ui,
		hasUI: false,
		projectTrusted: true,
	});
	await bridge.start();
	const file = () => sessionManager.getSessionFile() as string;
	const lines = () =>
		readFileSync(file(), "utf8")
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l) as Line)
			.filter((l) => l.type !== "session" && l.message?.role !== "system");
	return { ...made, errors, lines };
}

describe("entries appended by message_end hooks share the message's sync", () => {
	it("written at once, synced with the reply, announced after the sync and before the reply's message_end", async () => {
		const atHook: { unsynced: boolean; onDisk: string[] }[] = [];
		let s!: Awaited<ReturnType<typeof sessionWith>>;
		s = await sessionWith((pi) => {
			pi.on("message_end", (event) => {
				if (event.message.role !== "assistant") return;
				pi.appendEntry("note", { before: "reply" });
				atHook.push({ unsynced: s.sessionManager.hasUnsyncedAppends, onDisk: s.lines().map(kind) });
			});
		});
		const heard: string[] = [];
		s.session.subscribe((event: AgentSessionEvent) => {
			if (event.type !== "entry_appended" && event.type !== "message_end") return;
			const what =
				event.type === "entry_appended" ? `entry_appended:${event.entry.type}` : `message_end:${event.message.role}`;
			const synced = s.sessionManager.hasUnsyncedAppends ? "unsynced" : "synced";
			// What the file holds when the event is heard: the announced line must be in it.
			heard.push(`${what} ${synced} file:${s.lines().map(kind).join(",")}`);
		});
		s.fake.enqueue({ text: "hello" });
		await s.session.prompt("hi");

		// The hook's line is in the file the moment appendEntry returns, but waits for the reply's sync.
		expect(atHook).toEqual([
			{
				unsynced: true,
				onDisk: ["model_change:undefined", "thinking_level_change:undefined", "message:user", "custom:note"],
			},
		]);
		const file = "model_change:undefined,thinking_level_change:undefined,message:user";
		expect(heard).toEqual([
			`message_end:user synced file:${file}`,
			`entry_appended:custom synced file:${file},custom:note,message:assistant`,
			`message_end:assistant synced file:${file},custom:note,message:assistant`,
		]);
		expect(s.errors).toEqual([]);
		s.session.dispose();
		s.sessionManager.close();
	});

	it("another event announced meanwhile syncs first and keeps the file's order", async () => {
		let s!: Awaited<ReturnType<typeof sessionWith>>;
		s = await sessionWith((pi) => {
			pi.on("message_end", (event) => {
				if (event.message.role !== "assistant") return;
				pi.appendEntry("note", { n: 1 });
				pi.setSessionName("named in a hook");
			});
		});
		const heard: string[] = [];
		s.session.subscribe((event: AgentSessionEvent) => {
			if (!["entry_appended", "session_info_changed", "message_end"].includes(event.type)) return;
			heard.push(`${event.type}:${s.sessionManager.hasUnsyncedAppends ? "unsynced" : "synced"}`);
		});
		s.fake.enqueue({ text: "hello" });
		await s.session.prompt("hi");
		expect(heard).toEqual([
			"message_end:synced",
			"entry_appended:synced",
			"session_info_changed:synced",
			"message_end:synced",
		]);
		expect(s.lines().map(kind).slice(-3)).toEqual(["custom:note", "session_info:undefined", "message:assistant"]);
		s.session.dispose();
		s.sessionManager.close();
	});
});
