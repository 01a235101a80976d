import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SystemMessage } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { AgentSessionBusyError } from "../../src/agent-session/agent-session.js";
import type { AgentSessionEvent } from "../../src/agent-session/events.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "./support.js";

const roles = (messages: { role: string }[]) => messages.map((m) => m.role);

describe("AgentSession", () => {
	it("records the start, the system prompt and the exchange; requests carry the projected context", async () => {
		const { session, fake, sessionManager } = await makeSession();
		fake.enqueue({ text: "Hello!" });
		await session.prompt("hi");
		const entries = sessionManager.getEntries();
		expect(entries.map((e) => (e.type === "message" ? `message:${e.message.role}` : e.type))).toEqual([
			"model_change",
			"thinking_level_change",
			"message:system",
			"message:user",
			"message:assistant",
		]);
		const system = (entries[2] as { message: SystemMessage }).message;
		expect(Object.keys(system.sections ?? {})).toEqual(["base", "tools", "guidelines", "context", "environment"]);
		expect(system.sections?.context).toContain("## /ctx/AGENTS.md\n\nProject rule.");
		expect(system.toolsAdded?.map((t) => t.name)).toEqual(["echo"]);
		expect(fake.calls).toHaveLength(1);
		expect(roles(fake.calls[0].messages)).toEqual(["system", "user"]);
		expect(fake.calls[0].tools?.map((t) => t.name)).toEqual(["echo"]);
		expect(session.getLastAssistantText()).toBe("Hello!");
	});

	it("runs a tool loop and persists each message before listeners hear of it", async () => {
		const { session, fake, sessionManager } = await makeSession();
		fake.enqueue({ toolCalls: [{ name: "echo", args: { value: "x" } }] }, { text: "done" });
		const seen: string[] = [];
		session.subscribe((event: AgentSessionEvent) => {
			if (event.type !== "message_end") return;
			const last = sessionManager.getLeafEntry();
			const stored = last?.type === "message" && JSON.stringify(last.message) === JSON.stringify(event.message);
			seen.push(`${event.message.role}:${stored ? "stored" : "missing"}`);
		});
		await session.prompt("go");
		expect(seen).toEqual(["user:stored", "assistant:stored", "toolResult:stored", "assistant:stored"]);
		expect(roles(fake.calls[1].messages)).toEqual(["system", "user", "assistant", "toolResult"]);
		const stats = session.getSessionStats();
		expect(stats).toMatchObject({ userMessages: 1, assistantMessages: 2, toolCalls: 1, toolResults: 1 });
		expect(stats.tokens.input).toBe(20);
	});

	it("a file-backed session has each message's line on disk before listeners hear of it", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-as-flush-"));
		try {
			const sessionManager = SessionManager.create("/work", dir);
			const { session, fake } = await makeSession({ sessionManager });
			fake.enqueue({ toolCalls: [{ name: "echo", args: { value: "x" } }] }, { text: "done" });
			const seen: string[] = [];
			session.subscribe((event: AgentSessionEvent) => {
				if (event.type !== "message_end") return;
				const file = sessionManager.getSessionFile();
				const lines = file ? readFileSync(file, "utf8").trimEnd().split("\n") : [];
				const last = JSON.parse(lines.at(-1) ?? "{}");
				const onDisk = last.type === "message" && JSON.stringify(last.message) === JSON.stringify(event.message);
				seen.push(`${event.message.role}:${onDisk ? "on disk" : "missing"}`);
			});
			await session.prompt("go");
			expect(seen).toEqual(["user:on disk", "assistant:on disk", "toolResult:on disk", "assistant:on disk"]);
			session.dispose();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("a prompt's first appends (system prompt, user message) share one sync, done before any event announces them", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-as-sync-"));
		try {
			// A session file without a recorded system prompt: the next prompt records one.
			const first = SessionManager.create("/work", dir);
			first.appendMessage({ role: "user", content: [{ type: "text", text: "earlier" }], timestamp: 1 });
			const file = first.getSessionFile() as string;
			first.close();
			const sessionManager = SessionManager.open(file);
			const { session, fake } = await makeSession({ sessionManager });
			fake.enqueue({ toolCalls: [{ name: "echo", args: { value: "x" } }] }, { text: "done" });
			const seen: string[] = [];
			session.subscribe((event: AgentSessionEvent) => {
				const role = "message" in event ? `(${event.message.role})` : "";
				seen.push(`${event.type}${role}:${sessionManager.hasUnsyncedAppends ? "unsynced" : "synced"}`);
			});
			await session.prompt("go");
			// The system prompt's line waits for the user message's; nothing after the hold waits.
			expect(seen.filter((s) => s.endsWith(":unsynced"))).toEqual([
				"agent_start:unsynced",
				"turn_start:unsynced",
				"message_start(user):unsynced",
			]);
			expect(seen).toContain("message_end(user):synced");
			const lines = readFileSync(file, "utf8")
				.trimEnd()
				.split("\n")
				.map((l) => JSON.parse(l));
			expect(lines.map((l) => l.message?.role ?? l.type).slice(-5)).toEqual([
				"system",
				"user",
				"assistant",
				"toolResult",
				"assistant",
			]);
			session.dispose();
			sessionManager.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("the session tree, not the agent's cache, decides the next request's context", async () => {
		const { session, fake, sessionManager } = await makeSession();
		fake.enqueue({ text: "one" }, { text: "two" });
		await session.prompt("first");
		sessionManager.resetLeaf();
		await session.prompt("second");
		expect(roles(fake.calls[1].messages)).toEqual(["system", "user"]);
		expect(JSON.stringify(fake.calls[1].messages[1])).toContain("second");
	});

	it("rejects a prompt during a run unless told to steer or follow up; queue updates are emitted", async () => {
		const { session, fake } = await makeSession();
		let release!: () => void;
		const gate = new Promise<void>((r) => {
			release = r;
		});
		fake.enqueue({ text: "slow", gate }, { text: "after follow-up" });
		const events: AgentSessionEvent[] = [];
		session.subscribe((e) => {
			if (e.type === "queue_update") events.push(e);
		});
		const run = session.prompt("start");
		await new Promise((r) => setTimeout(r, 10));
		await expect(session.prompt("again")).rejects.toBeInstanceOf(AgentSessionBusyError);
		await session.prompt("later", { streamingBehavior: "followUp" });
		release();
		await run;
		expect(events).toEqual([
			{ type: "queue_update", steering: [], followUp: ["later"] },
			{ type: "queue_update", steering: [], followUp: [] },
		]);
		expect(roles(fake.calls[1].messages)).toEqual(["system", "user", "assistant", "user"]);
	});

	it("thinking levels are clamped, recorded and announced; model switches are recorded", async () => {
		const { session, sessionManager, registry } = await makeSession({ thinkingLevel: "low" });
		const changes: string[] = [];
		session.subscribe((e) => {
			if (e.type === "thinking_level_changed") changes.push(e.level);
		});
		expect(session.thinkingLevel).toBe("low");
		expect(session.setThinkingLevel("xhigh")).toBe("high");
		session.setModel(registry.find("testprov", "plain")!);
		expect(session.thinkingLevel).toBe("off");
		expect(changes).toEqual(["high", "off"]);
		const kinds = sessionManager
			.getEntries()
			.map((e) =>
				e.type === "thinking_level_change"
					? `level:${e.thinkingLevel}`
					: e.type === "model_change"
						? `model:${e.modelId}`
						: e.type,
			);
		expect(kinds).toEqual(["model:test-model", "level:low", "level:high", "model:plain", "level:off"]);
	});

	it("tool hooks can block a call", async () => {
		const { session, fake } = await makeSession();
		session.toolHooks.onBeforeToolCall(() => ({ block: true, reason: "not allowed" }));
		fake.enqueue({ toolCalls: [{ name: "echo", args: { value: "x" } }] }, { text: "ok" });
		await session.prompt("go");
		const result = fake.calls[1].messages[3];
		expect(result).toMatchObject({
			role: "toolResult",
			isError: true,
			content: [{ type: "text", text: "not allowed" }],
		});
	});

	it("refuses to start without credentials, with guidance", async () => {
		const none = await makeSession({ key: false });
		await expect(none.session.prompt("hi")).rejects.toThrow(/^No models available: no provider has credentials\./);
		const chosen = await makeSession({ key: false, model: none.registry.find("testprov", "test-model") });
		await expect(chosen.session.prompt("hi")).rejects.toThrow(/^No API key found for testprov\. Set TESTPROV_API_KEY/);
	});
});
