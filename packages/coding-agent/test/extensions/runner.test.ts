// Each composition rule of the runner (events.ts names which event follows
// which), and that handler errors become reported values, not throws.
import type { AgentMessage } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { EXTENSION_EVENT_NAMES } from "../../src/extensions/events.js";
import type { ToolCallEvent, ToolResultEvent } from "../../src/extensions/types.js";
import { inMemoryExtensions } from "./helpers.js";

const user = (text: string): AgentMessage => ({ role: "user", content: [{ type: "text", text }], timestamp: 0 });
const textOf = (m: AgentMessage) => (m as { content: { text: string }[] }).content[0]?.text ?? "";

describe("ExtensionRunner", () => {
	it("knows all 41 event names of 1.6.0", () => {
		expect(EXTENSION_EVENT_NAMES).toHaveLength(41);
		expect(new Set(EXTENSION_EVENT_NAMES).size).toBe(41);
	});

	it("notify: every handler runs in load order, then registration order; a throw is reported and the rest still run", async () => {
		const seen: string[] = [];
		const { runner, errors } = inMemoryExtensions({
			a: (pi) => {
				pi.on("agent_start", () => void seen.push("a1"));
				pi.on("agent_start", () => {
					throw new Error("a2 broke");
				});
			},
			b: (pi) => pi.on("agent_start", async () => void seen.push("b1")),
		});
		await runner.emit({ type: "agent_start" });
		expect(seen).toEqual(["a1", "b1"]);
		expect(errors).toEqual([expect.objectContaining({ extensionPath: "a", event: "agent_start", error: "a2 broke" })]);
	});

	it("pi.on returns an unsubscribe that removes only that registration", async () => {
		const seen: string[] = [];
		let off: () => void = () => {};
		const { runner } = inMemoryExtensions({
			a: (pi) => {
				off = pi.on("turn_start", () => void seen.push("x"));
				pi.on("turn_start", () => void seen.push("y"));
			},
		});
		off();
		await runner.emit({ type: "turn_start", turnIndex: 0, timestamp: 0 });
		expect(seen).toEqual(["y"]);
	});

	it("context: chained rewrite; the input list is a copy, so the caller's messages never change", async () => {
		const original = [user("one"), user("two")];
		const { runner, errors } = inMemoryExtensions({
			a: (pi) => pi.on("context", (e) => ({ messages: e.messages.slice(1) })),
			b: (pi) =>
				pi.on("context", (e) => {
					(e.messages[0] as { content: { text: string }[] }).content[0].text = "changed";
					return { messages: [...e.messages, user("three")] };
				}),
			c: (pi) =>
				pi.on("context", () => {
					throw new Error("ignored");
				}),
		});
		const out = await runner.emitContext("context", original);
		expect(out.map(textOf)).toEqual(["changed", "three"]);
		expect(original.map(textOf)).toEqual(["one", "two"]);
		expect(errors).toHaveLength(1);
	});

	it("before_provider_request: a returned value replaces the payload for later handlers", async () => {
		const seenByB: unknown[] = [];
		const { runner } = inMemoryExtensions({
			a: (pi) => pi.on("before_provider_request", (e) => ({ ...(e.payload as object), temperature: 0 })),
			b: (pi) => pi.on("before_provider_request", (e) => void seenByB.push(e.payload)),
		});
		expect(await runner.emitBeforeProviderRequest({ model: "m" })).toEqual({ model: "m", temperature: 0 });
		expect(seenByB).toEqual([{ model: "m", temperature: 0 }]);
	});

	it("before_provider_headers: in-place mutation, null deletes", async () => {
		const { runner } = inMemoryExtensions({
			a: (pi) =>
				pi.on("before_provider_headers", (e) => {
					e.headers["x-session"] = "s1";
					e.headers["x-drop"] = null;
				}),
		});
		expect(await runner.emitBeforeProviderHeaders({ "x-drop": "1", keep: "k" })).toEqual({
			keep: "k",
			"x-drop": null,
			"x-session": "s1",
		});
	});

	it("message_end: a replacement must keep the role; a wrong role is reported and ignored", async () => {
		const { runner, errors } = inMemoryExtensions({
			a: (pi) => pi.on("message_end", () => ({ message: { role: "assistant" } as unknown as AgentMessage })),
			b: (pi) =>
				pi.on("message_end", (e) => ({
					message: { ...e.message, content: [{ type: "text", text: "b" }] } as AgentMessage,
				})),
		});
		const out = await runner.emitMessageEnd(user("orig"));
		expect(textOf(out)).toBe("b");
		expect(errors[0]?.error).toMatch(/keep the role "user"/);
	});

	it("input: transforms chain; the first 'handled' wins and later handlers do not run", async () => {
		const seen: string[] = [];
		const { runner } = inMemoryExtensions({
			a: (pi) => pi.on("input", (e) => ({ action: "transform", text: `${e.text}!` })),
			b: (pi) =>
				pi.on("input", (e) => {
					seen.push(e.text);
					return e.text === "ping!" ? { action: "handled" } : { action: "continue" };
				}),
			c: (pi) => pi.on("input", () => void seen.push("c")),
		});
		expect(await runner.emitInput("hi", undefined, "interactive")).toEqual({
			action: "continue",
			text: "hi!",
			images: undefined,
		});
		expect((await runner.emitInput("ping", undefined, "rpc")).action).toBe("handled");
		expect(seen).toEqual(["hi!", "c", "ping!"]);
	});

	it("tool_call: first block wins; input mutations reach later handlers; a throw blocks (fail closed)", async () => {
		const seen: unknown[] = [];
		const { runner, errors } = inMemoryExtensions({
			a: (pi) =>
				pi.on("tool_call", (e) => {
					(e.input as { command: string }).command = `set -e; ${(e.input as { command: string }).command}`;
				}),
			b: (pi) =>
				pi.on("tool_call", (e) => {
					seen.push((e.input as { command: string }).command);
					if ((e.input as { command: string }).command.includes("rm")) return { block: true, reason: "no rm" };
				}),
			c: (pi) =>
				pi.on("tool_call", (e) => {
					if ((e.input as { command: string }).command.includes("boom")) throw new Error("gate broke");
				}),
		});
		const call = (command: string): ToolCallEvent => ({
			type: "tool_call",
			toolCallId: "t",
			toolName: "bash",
			input: { command },
		});
		const ok = call("ls");
		expect(await runner.emitToolCall(ok)).toBeUndefined();
		expect(ok.input).toEqual({ command: "set -e; ls" });
		expect(await runner.emitToolCall(call("rm -rf /"))).toEqual({ block: true, reason: "no rm" });
		const failed = await runner.emitToolCall(call("boom"));
		expect(failed?.block).toBe(true);
		expect(failed?.reason).toMatch(/c failed: gate broke/);
		expect(errors).toHaveLength(1);
		expect(seen).toEqual(["set -e; ls", "set -e; rm -rf /", "set -e; boom"]);
	});

	it("tool_result: partial patches chain; replacing content drops structured content", async () => {
		const { runner } = inMemoryExtensions({
			a: (pi) => pi.on("tool_result", () => ({ details: { a: 1 } })),
			b: (pi) =>
				pi.on("tool_result", (e) => ({ content: [{ type: "text", text: `${JSON.stringify(e.details)} redacted` }] })),
		});
		const event: ToolResultEvent = {
			type: "tool_result",
			toolCallId: "t",
			toolName: "read",
			input: {},
			content: [{ type: "text", text: "secret" }],
			structuredContent: { s: 1 },
			details: undefined,
			isError: false,
		};
		const out = await runner.emitToolResult(event);
		expect(out).toEqual(
			expect.objectContaining({
				content: [{ type: "text", text: '{"a":1} redacted' }],
				details: { a: 1 },
				isError: false,
			}),
		);
		expect(out?.structuredContent).toBeUndefined();
	});

	it("session_before_*: the first cancel stops; later handlers do not run", async () => {
		const seen: string[] = [];
		const { runner } = inMemoryExtensions({
			a: (pi) => pi.on("session_before_switch", () => ({ cancel: true })),
			b: (pi) => pi.on("session_before_switch", () => void seen.push("b")),
		});
		expect(await runner.emitCancellable({ type: "session_before_switch", reason: "new" })).toEqual({ cancel: true });
		expect(seen).toEqual([]);
	});

	it("session_before_compact: cancel wins over a supplied summary; else the first summary is used", async () => {
		const compaction = { summary: "S", firstKeptEntryId: null, tokensBefore: 1 };
		const base = {
			type: "session_before_compact" as const,
			preparation: {} as never,
			branchEntries: [],
			reason: "manual" as const,
			willRetry: false,
			signal: new AbortController().signal,
		};
		const supplied = inMemoryExtensions({
			a: (pi) => pi.on("session_before_compact", () => ({ compaction })),
			b: (pi) => pi.on("session_before_compact", () => ({ compaction: { ...compaction, summary: "later" } })),
		});
		expect(await supplied.runner.emitBeforeCompact(base)).toEqual({ compaction });
		const cancelled = inMemoryExtensions({
			a: (pi) => pi.on("session_before_compact", () => ({ compaction })),
			b: (pi) => pi.on("session_before_compact", () => ({ cancel: true })),
		});
		expect(await cancelled.runner.emitBeforeCompact(base)).toEqual({ cancel: true });
	});

	it("before_agent_start: messages are collected in load order; the system prompt chains and the last one is forced", async () => {
		const seenPrompts: string[] = [];
		const { runner } = inMemoryExtensions({
			a: (pi) =>
				pi.on("before_agent_start", (e) => ({
					message: { customType: "a", content: "from a", display: false },
					systemPrompt: `${e.systemPrompt} +a`,
				})),
			b: (pi) =>
				pi.on("before_agent_start", (e) => {
					seenPrompts.push(e.systemPrompt);
					return {
						message: { customType: "b", content: "from b", display: true },
						systemPrompt: `${e.systemPrompt} +b`,
					};
				}),
		});
		const out = await runner.emitBeforeAgentStart(
			{
				type: "before_agent_start",
				messageType: "user",
				prompt: "p",
				systemPromptOptions: { selectedTools: [], cwd: "/", contextFiles: [], skills: [] },
			},
			"BASE",
		);
		expect(seenPrompts).toEqual(["BASE +a"]);
		expect(out.systemPrompt).toBe("BASE +a +b");
		expect(out.messages.map((m) => m.customType)).toEqual(["a", "b"]);
	});

	it("project_trust: the first yes/no decides; undecided and throws pass on", async () => {
		const { runner } = inMemoryExtensions({
			a: (pi) => pi.on("project_trust", () => ({ trusted: "undecided" })),
			b: (pi) =>
				pi.on("project_trust", () => {
					throw new Error("x");
				}),
			c: (pi) => pi.on("project_trust", () => ({ trusted: "no", remember: true })),
			d: (pi) => pi.on("project_trust", () => ({ trusted: "yes" })),
		});
		const ctx = { cwd: "/", mode: "print" as const, hasUI: false, ui: {} as never };
		expect(await runner.emitProjectTrust({ type: "project_trust", cwd: "/" }, ctx)).toEqual({
			trusted: "no",
			remember: true,
		});
	});

	it("resources_discover collects paths; cache_warming_decision: the last action wins", async () => {
		const { runner } = inMemoryExtensions({
			a: (pi) => {
				pi.on("resources_discover", () => ({ skillPaths: ["/s1"] }));
				pi.on("cache_warming_decision", () => ({ action: "stop" }));
			},
			b: (pi) => {
				pi.on("resources_discover", () => ({ skillPaths: ["/s2"], promptPaths: ["/p"] }));
				pi.on("cache_warming_decision", () => ({ action: "warm" }));
				pi.on("cache_warming_decision", () => undefined);
			},
		});
		expect(await runner.emitResourcesDiscover({ type: "resources_discover", cwd: "/", reason: "startup" })).toEqual({
			skillPaths: ["/s1", "/s2"],
			promptPaths: ["/p"],
			themePaths: [],
		});
		expect(
			await runner.emitCacheWarmingDecision({
				type: "cache_warming_decision",
				warmCost: 1,
				missCost: 2,
				continuationProbability: 0.5,
				action: "stop",
			}),
		).toBe("warm");
	});

	it("user_bash: the first handler that handles wins; a throw blocks the command", async () => {
		const result = { output: "remote", exitCode: 0, cancelled: false, truncated: false };
		const handled = inMemoryExtensions({
			a: (pi) => pi.on("user_bash", () => undefined),
			b: (pi) => pi.on("user_bash", () => ({ result })),
		});
		const event = { type: "user_bash" as const, command: "ls", excludeFromContext: false, cwd: "/" };
		expect(await handled.runner.emitUserBash(event)).toEqual({ result });
		const broken = inMemoryExtensions({
			a: (pi) =>
				pi.on("user_bash", () => {
					throw new Error("nope");
				}),
		});
		expect(await broken.runner.emitUserBash(event)).toEqual({ blocked: expect.stringMatching(/nope/) });
	});

	it("turn_end boundary: each handler sees the proposal so far; returned fields replace it", async () => {
		const seen: number[] = [];
		const { runner } = inMemoryExtensions({
			a: (pi) => pi.on("turn_end", (e) => ({ entries: [...e.entries, { type: "custom", customType: "a" }] })),
			b: (pi) =>
				pi.on("turn_end", (e) => {
					seen.push(e.entries.length);
					return { continue: true };
				}),
		});
		const out = await runner.emitBoundary({
			type: "turn_end",
			turnIndex: 0,
			message: user("x"),
			toolResults: [],
			messageEntryId: "m",
			toolResultEntryIds: [],
			entries: [],
			continue: false,
			outcome: "completed",
			context: {} as never,
		});
		expect(seen).toEqual([1]);
		expect(out).toEqual({ entries: [{ type: "custom", customType: "a" }], continue: true });
	});

	it("duplicate tools, commands and flags across extensions: a warning naming both files", () => {
		const tool = {
			name: "dup",
			label: "d",
			description: "d",
			parameters: {} as never,
			execute: async () => ({ content: [] }),
		};
		const { runner } = inMemoryExtensions({
			"/ext/one.ts": (pi) => {
				pi.registerTool(tool);
				pi.registerCommand("review", { handler: () => {} });
				pi.registerFlag("plan", { type: "boolean" });
			},
			"/ext/two.ts": (pi) => {
				pi.registerTool({ ...tool, description: "second" });
				pi.registerCommand("review", { handler: () => {} });
				pi.registerFlag("plan", { type: "string" });
			},
		});
		expect(runner.warnings).toEqual([
			"Extension tool dup is registered by both /ext/one.ts and /ext/two.ts; the first one is used.",
			"Extension command /review is registered by both /ext/one.ts and /ext/two.ts; both are kept as /review:1 and /review:2 (load order).",
			"Extension flag --plan is registered by both /ext/one.ts and /ext/two.ts; the first one is used.",
		]);
		expect(runner.getTools().map((t) => t.definition.description)).toEqual(["d"]);
		expect(runner.getCommands().map((c) => c.invocationName)).toEqual(["review:1", "review:2"]);
	});

	it("pi.* actions that need a session fail clearly before it is bound; registerProvider is queued", () => {
		let sendError: unknown;
		const { runtime } = inMemoryExtensions({
			a: (pi) => {
				try {
					pi.sendMessage({ customType: "x", content: "y", display: false });
				} catch (e) {
					sendError = e;
				}
				pi.registerProvider("local", { baseUrl: "http://127.0.0.1:1", api: "openai-completions", models: [] });
			},
		});
		expect(String(sendError)).toMatch(/pi\.sendMessage\(\) is not available while extensions load/);
		expect(runtime.pendingProviders).toHaveLength(1);
	});

	it("pi.events: a listener error is reported as an extension error and does not reach the emitter", () => {
		const got: unknown[] = [];
		const { runtime, errors } = inMemoryExtensions({
			a: (pi) => {
				pi.events.on("ch", () => {
					throw new Error("listener broke");
				});
				pi.events.on("ch", (d) => void got.push(d));
			},
		});
		runtime.events.emit("ch", 42);
		expect(got).toEqual([42]);
		expect(errors[0]).toEqual(expect.objectContaining({ event: "events:ch", error: "listener broke" }));
	});
});
