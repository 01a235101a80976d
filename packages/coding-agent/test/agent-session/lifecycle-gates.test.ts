// The session-level extension seams (SessionLifecycleHooks) as AgentSession
// calls them, whoever drives the session (RPC, the app, an extension's ctx):
// switch/fork gates, message_end replacement, the turn_end and
// agent_before_settle boundaries, user_bash, model/level selection.
import { describe, expect, it } from "vitest";
import type { SessionBoundaryDraft } from "../../src/extensions/events.js";
import type { BoundaryDecision, SessionLifecycleHooks, TurnBoundary } from "../../src/extensions/session-hooks.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "./support.js";

const textOf = (m: { content: unknown }) => JSON.stringify(m.content);

describe("session replacement gates", () => {
	it("session_before_switch cancels /new and /resume; fork and clone ask session_before_fork", async () => {
		const s = await makeSession();
		s.fake.enqueue({ text: "a1" });
		await s.session.prompt("first");
		const seen: unknown[] = [];
		let cancel = true;
		s.session.setLifecycleHooks({
			beforeSwitch: (e) => {
				seen.push({ switch: e });
				return { cancel };
			},
			beforeFork: (e) => {
				seen.push({ fork: e });
				return { cancel };
			},
		});
		const before = s.session.sessionId;
		expect(await s.session.newSession()).toEqual({ cancelled: true });
		expect(s.session.sessionId).toBe(before);
		expect(await s.session.switchSession("/tmp/other.jsonl")).toEqual({ cancelled: true });
		const userId = s.session.getForkMessages()[0].entryId;
		expect(await s.session.fork(userId)).toEqual({ text: "", cancelled: true });
		expect(await s.session.clone()).toEqual({ cancelled: true });
		expect(s.session.sessionId).toBe(before);
		expect(seen).toEqual([
			{ switch: { reason: "new" } },
			{ switch: { reason: "resume", targetSessionFile: "/tmp/other.jsonl" } },
			{ fork: { entryId: userId, position: "before" } },
			{ fork: { entryId: s.sessionManager.getLeafId(), position: "at" } },
		]);
		cancel = false;
		expect(await s.session.fork(userId)).toEqual({ text: "first", cancelled: false });
		expect(s.session.sessionId).not.toBe(before);
		expect(await s.session.newSession()).toEqual({ cancelled: false });
	});
});

describe("message_end replacement", () => {
	it("the replacement is what the session records, the listeners hear and the next request carries", async () => {
		const s = await makeSession();
		s.session.setLifecycleHooks({
			messageEnd: (m) => (m.role === "assistant" ? { ...m, content: [{ type: "text", text: "REPLACED" }] } : m),
		});
		const heard: string[] = [];
		s.session.subscribe((e) => {
			if (e.type === "message_end" && e.message.role === "assistant") heard.push(textOf(e.message));
		});
		s.fake.enqueue({ text: "original" }, { text: "second" });
		await s.session.prompt("one");
		expect(heard).toEqual([JSON.stringify([{ type: "text", text: "REPLACED" }])]);
		expect(s.session.getLastAssistantText()).toBe("REPLACED");
		const stored = s.sessionManager.getEntries().filter((e) => e.type === "message" && e.message.role === "assistant");
		expect(JSON.stringify(stored)).toContain("REPLACED");
		expect(JSON.stringify(stored)).not.toContain("original");
		await s.session.prompt("two");
		expect(JSON.stringify(s.fake.calls[1].messages)).toContain("REPLACED");
		expect(JSON.stringify(s.fake.calls[1].messages)).not.toContain("original");
	});
});

describe("turn_end boundary", () => {
	it("sees the recorded entry ids; drafts are appended; continue makes one more request", async () => {
		const s = await makeSession();
		const turns: TurnBoundary[] = [];
		let asked = false;
		s.session.setLifecycleHooks({
			turnEnd: (turn, proposal, preview) => {
				turns.push(turn);
				if (asked || turn.toolResults.length > 0) return proposal;
				asked = true;
				const entries: SessionBoundaryDraft[] = [
					{ type: "context_edit", targetId: turn.messageEntryId, replacement: null },
					{ type: "custom_message", customType: "retry-note", content: "Answer again, shorter.", display: false },
					{ type: "custom", customType: "marker", data: { n: 1 } },
				];
				const p = preview(entries);
				// The preview applies the drafts: the omitted answer is gone, the note is last.
				expect(JSON.stringify(p.contextMessages)).not.toContain("long answer");
				expect(p.contextMessages.at(-1)).toMatchObject({ role: "custom", customType: "retry-note" });
				expect(p.canContinue).toBe(true);
				return { entries, continue: true };
			},
		});
		s.fake.enqueue({ toolCalls: [{ name: "echo", args: { value: "x" } }] }, { text: "long answer" }, { text: "short" });
		await s.session.prompt("go");
		expect(s.fake.calls).toHaveLength(3);
		const third = JSON.stringify(s.fake.calls[2].messages);
		expect(third).toContain("Answer again, shorter.");
		expect(third).not.toContain("long answer");
		expect(turns).toHaveLength(3);
		const first = turns[0];
		expect(s.sessionManager.getEntry(first.messageEntryId)).toMatchObject({ type: "message" });
		expect(first.toolResultEntryIds).toHaveLength(1);
		expect(s.sessionManager.getEntry(first.toolResultEntryIds[0])).toMatchObject({
			type: "message",
			message: { role: "toolResult" },
		});
		expect(s.sessionManager.getEntries().some((e) => e.type === "custom" && e.customType === "marker")).toBe(true);
		expect(s.session.getLastAssistantText()).toBe("short");
	});

	it("an invalid proposal is rejected whole and reported; nothing is appended", async () => {
		const s = await makeSession();
		const reports: string[] = [];
		s.session.setLifecycleHooks({
			turnEnd: (): BoundaryDecision => ({
				entries: [
					{ type: "custom", customType: "fine" },
					{ type: "context_edit", targetId: "nope", replacement: null },
				],
				continue: true,
			}),
			reportError: (event, message) => reports.push(`${event}: ${message}`),
		});
		s.fake.enqueue({ text: "only" });
		await s.session.prompt("go");
		expect(s.fake.calls).toHaveLength(1);
		expect(reports).toEqual([expect.stringContaining("turn_end: rejected the proposed entries: entries[1]")]);
		expect(s.sessionManager.getEntries().some((e) => e.type === "custom")).toBe(false);
	});
});

describe("agent_before_settle boundary", () => {
	it("adds a message and one more run before agent_settled; not after an abort", async () => {
		const s = await makeSession();
		const events: string[] = [];
		s.session.subscribe((e) => {
			if (e.type === "agent_settled" || e.type === "agent_start") events.push(e.type);
		});
		let added = false;
		const hooks: SessionLifecycleHooks = {
			beforeSettle: (outcome, proposal) => {
				events.push(`before_settle:${outcome}`);
				if (added) return proposal;
				added = true;
				return {
					entries: [{ type: "custom_message", customType: "review", content: "Review the diff.", display: false }],
					continue: true,
				};
			},
		};
		s.session.setLifecycleHooks(hooks);
		s.fake.enqueue({ text: "done" }, { text: "reviewed" });
		await s.session.prompt("go");
		expect(events).toEqual([
			"agent_start",
			"before_settle:completed",
			"agent_start",
			"before_settle:completed",
			"agent_settled",
		]);
		expect(JSON.stringify(s.fake.calls[1].messages)).toContain("Review the diff.");
		expect(s.session.getLastAssistantText()).toBe("reviewed");
	});
});

describe("user_bash", () => {
	it("a handler's result is recorded without running; operations run the command; a throw blocks", async () => {
		const s = await makeSession();
		let mode: "result" | "ops" | "throw" | "none" = "result";
		const ran: string[] = [];
		s.session.setLifecycleHooks({
			userBash: (e) => {
				if (mode === "result")
					return { result: { output: `remote:${e.command}`, exitCode: 0, cancelled: false, truncated: false } };
				if (mode === "ops")
					return {
						operations: {
							exec: async (command, _cwd, o) => {
								ran.push(command);
								o.onData(Buffer.from("via-ops\n"));
								return { exitCode: 3 };
							},
						},
					};
				if (mode === "throw") throw new Error("blocked by policy");
				return undefined;
			},
		});
		const r1 = await s.session.executeBash("ls /nowhere");
		expect(r1).toMatchObject({ output: "remote:ls /nowhere", exitCode: 0, cancelled: false });
		mode = "ops";
		const r2 = await s.session.executeBash("uname");
		expect(r2).toMatchObject({ output: "via-ops", exitCode: 3 });
		expect(ran).toEqual(["uname"]);
		mode = "throw";
		await expect(s.session.executeBash("rm -rf /")).rejects.toThrow("blocked by policy");
		const recorded = s.sessionManager
			.getEntries()
			.flatMap((e) => (e.type === "message" && e.message.role === "bashExecution" ? [e.message] : []));
		expect(recorded.map((m) => [m.command, m.output])).toEqual([
			["ls /nowhere", "remote:ls /nowhere"],
			["uname", "via-ops"],
		]);
	});
});

describe("model_select and thinking_level_select", () => {
	it("fire for set and cycle with the previous values; the level first when the model clamps it", async () => {
		const s = await makeSession();
		const seen: string[] = [];
		s.session.setLifecycleHooks({
			modelSelect: (e) => void seen.push(`model:${e.previousModel?.id}->${e.model.id}:${e.source}`),
			thinkingLevelSelect: (e) => void seen.push(`level:${e.previousLevel}->${e.level}`),
		});
		s.session.setThinkingLevel("high");
		const plain = s.registry.find("testprov", "plain");
		if (!plain) throw new Error("no plain model");
		s.session.setModel(plain);
		s.session.cycleModel();
		expect(seen).toEqual([
			"level:medium->high",
			"level:high->off",
			"model:test-model->plain:set",
			expect.stringMatching(/^model:plain->test-model:cycle$/),
		]);
	});
});

describe("without hooks", () => {
	it("nothing changes: switching works and messages are recorded as they are", async () => {
		const s = await makeSession({ sessionManager: SessionManager.inMemory("/work") });
		s.fake.enqueue({ text: "plain" });
		await s.session.prompt("hi");
		expect(s.session.getLastAssistantText()).toBe("plain");
		expect(await s.session.newSession()).toEqual({ cancelled: false });
	});
});
