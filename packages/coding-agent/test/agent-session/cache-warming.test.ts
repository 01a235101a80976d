// Prompt-cache warming through a real session: pi-ai's openai-completions
// adapter talks to the fake provider server over HTTP, the session is a JSONL
// file, extensions are real factories. Time is a hand-driven clock: a refresh
// is "due" when the test moves the clock, never after a real wait.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "@pi/ai";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeProvider, json, startFakeProvider } from "../../../ai/test/support/fake-provider/server.js";
import type { AgentSession } from "../../src/agent-session/agent-session.js";
import type { WarmingClock } from "../../src/agent-session/cache-warmer.js";
import { createAgentSession } from "../../src/agent-session/create-agent-session.js";
import type { AgentSessionEvent } from "../../src/agent-session/events.js";
import { AuthStorage } from "../../src/config/auth.js";
import { ModelRegistry } from "../../src/config/model-registry.js";
import { checkProviderConfig } from "../../src/extensions/provider-shape.js";
import type { CacheWarmingDecisionEvent, ExtensionError, ExtensionFactory } from "../../src/extensions/types.js";
import { formatSessionInfo } from "../../src/modes/interactive/commands/session.js";
import { applySetting, currentSettingsState } from "../../src/modes/interactive/commands/settings.js";
import type { InteractiveContext } from "../../src/modes/interactive/context.js";
import type { AgentSessionRuntime } from "../../src/runtime/agent-session-runtime.js";
import { SessionManager } from "../../src/session/session-manager.js";
import type { SessionEntry } from "../../src/session/types.js";
import { fakeModel, text, toolCall } from "../compaction/support.js";

/** Timers that fire only when the test moves time forward. */
class ManualClock implements WarmingClock {
	time = 1_000_000;
	private readonly timers = new Map<number, { at: number; callback: () => void }>();
	private next = 1;
	now(): number {
		return this.time;
	}
	setTimeout(callback: () => void, ms: number): unknown {
		const id = this.next++;
		this.timers.set(id, { at: this.time + ms, callback });
		return id;
	}
	clearTimeout(handle: unknown): void {
		this.timers.delete(handle as number);
	}
	get pending(): number {
		return this.timers.size;
	}
	/** Moves time on by `ms` and fires every timer due by then. */
	advance(ms: number): void {
		this.time += ms;
		const due = [...this.timers].filter(([, t]) => t.at <= this.time).sort((a, b) => a[1].at - b[1].at);
		for (const [id, t] of due) {
			this.timers.delete(id);
			t.callback();
		}
	}
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	while (!predicate()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

// $10 per million input, $10 output, $1 cache read, no cache-write price: a miss costs $9 per million
// prompt tokens more than a hit. While idle a refresh saves 0.15 × 9 − 1 = $0.35 per million: $0.07 at
// 200 000 tokens (warm), $0.035 at 100 000 (below the $0.05 threshold).
const cost = { input: 10, output: 10, cacheRead: 1, cacheWrite: 0 };
const WARM_TOKENS = 200_000;
const COLD_TOKENS = 100_000;
const DUE_MS = 270_000; // 90% of the 300 s lifetime

interface Setup {
	session: AgentSession;
	runtime?: AgentSessionRuntime;
	fake: FakeProvider;
	clock: ManualClock;
	events: AgentSessionEvent[];
	fileEntries(): SessionEntry[];
}

let root: string | undefined;
let current: Setup | undefined;
afterEach(async () => {
	if (current) {
		await current.runtime?.dispose();
		current.session.dispose();
		await current.fake.close();
	}
	current = undefined;
	if (root) rmSync(root, { recursive: true, force: true });
	root = undefined;
});

async function setup(
	options: {
		model?: Partial<Model>;
		settings?: object;
		factories?: ExtensionFactory[] | ((fake: FakeProvider) => ExtensionFactory[]);
		onExtensionError?: (error: ExtensionError) => void;
	} = {},
): Promise<Setup> {
	const fake = await startFakeProvider();
	root = mkdtempSync(join(tmpdir(), "pi-warming-"));
	const cwd = join(root, "work");
	const agentDir = join(root, "agent");
	mkdirSync(cwd, { recursive: true });
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(
		join(agentDir, "settings.json"),
		JSON.stringify({ compaction: { enabled: false }, ...options.settings }),
	);
	const model = fakeModel({
		baseUrl: `${fake.url}/v1`,
		contextWindow: 1_000_000,
		cost,
		promptCache: { short: 300, long: 3600 },
		...options.model,
	});
	const auth = AuthStorage.inMemory({}, { env: {} });
	auth.setRuntimeApiKey("fakeprov", "test-key");
	const sessionManager = SessionManager.create(cwd, join(root, "sessions"));
	const { session, runtime } = await createAgentSession({
		cwd,
		agentDir,
		authStorage: auth,
		modelRegistry: ModelRegistry.inMemory(auth, { builtins: () => [model] }),
		sessionManager,
		model,
		tools: ["read"],
		extensions: {
			factories: typeof options.factories === "function" ? options.factories(fake) : (options.factories ?? []),
			discover: false,
			onError: options.onExtensionError,
		},
	});
	const clock = new ManualClock();
	if (!session.cacheWarming) throw new Error("the session has no cache warmer");
	session.cacheWarming.clock = clock;
	const events: AgentSessionEvent[] = [];
	session.subscribe((e) => {
		events.push(e);
	});
	current = {
		session,
		runtime,
		fake,
		clock,
		events,
		fileEntries() {
			const file = sessionManager.getSessionFile();
			if (!file) throw new Error("no session file");
			return readFileSync(file, "utf8")
				.split("\n")
				.filter(Boolean)
				.slice(1)
				.map((l) => JSON.parse(l) as SessionEntry);
		},
	};
	return current;
}

/** The request body without its output cap: what the provider caches on. */
function prefixOf(body: unknown): Record<string, unknown> {
	const { max_tokens: _a, max_completion_tokens: _b, ...rest } = body as Record<string, unknown>;
	return rest;
}

const usageEntries = (s: Setup) => s.fileEntries().filter((e) => e.type === "usage");

describe("idle prompt-cache warming", () => {
	it("sends the same prefix with a one-token cap when due; its usage reaches the totals, never the context", async () => {
		const s = await setup();
		s.fake.enqueue(text("first answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		const costBefore = s.session.getSessionStats().cost;
		const contextBefore = s.session.sessionManager.buildSessionContext().messages.length;

		const status = s.session.cacheWarming?.status;
		expect(status).toMatchObject({ state: "scheduled", mode: "idle", nextWarmAt: s.clock.time + DUE_MS });
		expect(status?.decision).toMatchObject({ phase: "idle", action: "warm", continuationProbability: 0.15 });
		expect(status?.decision?.expectedSavings).toBeCloseTo(0.15 * 1.8 - 0.2 - 0.00001, 9);
		expect(formatSessionInfo({ session: s.session } as InteractiveContext)).toContain(
			"Cache warming: idle • next decision in 4m 30s: warm (expected savings $0.070 ≥ $0.050)",
		);

		// Not yet due: nothing is sent.
		s.clock.advance(DUE_MS - 1);
		expect(s.fake.requests).toHaveLength(1);

		s.fake.enqueue(text("WARM-REPLY", WARM_TOKENS, 1));
		s.clock.advance(1);
		await waitFor("the refresh's usage entry", () => s.events.some((e) => e.type === "entry_appended"));

		expect(s.fake.requests).toHaveLength(2);
		const [real, refresh] = s.fake.requests.map((r) => r.body as Record<string, unknown>);
		expect(prefixOf(refresh)).toEqual(prefixOf(real));
		expect(refresh.max_tokens ?? refresh.max_completion_tokens).toBe(1);

		// Recorded as 1.6.0 records it: a usage entry of kind cache_warm, with the response's usage.
		const [entry] = usageEntries(s);
		expect(entry).toMatchObject({ type: "usage", kind: "cache_warm", provider: "fakeprov", model: "fake-model" });
		expect(entry).not.toHaveProperty("note");
		const refreshCost = (WARM_TOKENS * 10 + 1 * 10) / 1_000_000;
		expect(entry.type === "usage" && entry.usage.cost.total).toBeCloseTo(refreshCost, 9);
		expect(s.session.getSessionStats().cost).toBeCloseTo(costBefore + refreshCost, 9);
		expect(s.session.sessionManager.buildSessionContext().messages).toHaveLength(contextBefore);

		// Warming goes on: the next refresh is due one delay after this one.
		expect(s.session.cacheWarming?.status).toMatchObject({ state: "scheduled", nextWarmAt: s.clock.time + DUE_MS });

		// The next real request carries the conversation, not the refresh's answer.
		s.fake.enqueue(text("second answer", WARM_TOKENS, 5));
		await s.session.prompt("again");
		const next = JSON.stringify(s.fake.requests[2].body);
		expect(next).toContain("first answer");
		expect(next).not.toContain("WARM-REPLY");
	});

	it("entries after the request that keep its prefix leave it scheduled; a compaction after it ends warming", async () => {
		const s = await setup();
		s.fake.enqueue(text("first answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		const sm = s.session.sessionManager;
		const answer = sm.getLeafEntry();
		expect(answer).toMatchObject({ type: "message", message: { role: "assistant" } });
		sm.appendLabelChange(answer?.id ?? "", "mark");
		sm.appendCustomEntry("some-extension", { n: 1 });
		// The decision weighs the latest answer's prompt size, found past the entries after it.
		expect(s.session.cacheWarming?.status).toMatchObject({
			state: "scheduled",
			decision: { action: "warm", economicsAvailable: true },
		});
		sm.appendCompaction("summary", answer?.id ?? null, 1000);
		expect(s.session.cacheWarming?.status).toMatchObject({ state: "inactive", reason: "the conversation changed" });
	});

	it("sends nothing below the $0.05 threshold, and says why", async () => {
		const s = await setup();
		s.fake.enqueue(text("answer", COLD_TOKENS, 5));
		await s.session.prompt("hello");
		expect(s.session.cacheWarming?.status.decision).toMatchObject({ action: "stop" });
		s.clock.advance(DUE_MS);
		await waitFor("the decision", () => s.session.cacheWarming?.status.state === "inactive");
		expect(s.session.cacheWarming?.status).toMatchObject({ reason: "expected savings under $0.05" });
		s.clock.advance(60 * 60_000);
		expect(s.fake.requests).toHaveLength(1);
		expect(s.clock.pending).toBe(0);
		expect(usageEntries(s)).toEqual([]);
		expect(formatSessionInfo({ session: s.session } as InteractiveContext)).toContain(
			"Cache warming: idle • inactive: expected savings under $0.05",
		);
	});

	it("sends nothing for a model without a cache lifetime, or with cacheWarming off", async () => {
		const s = await setup({ model: { promptCache: undefined } });
		s.fake.enqueue(text("answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		expect(s.clock.pending).toBe(0);
		expect(s.session.cacheWarming?.status).toMatchObject({
			state: "inactive",
			reason: "fakeprov/fake-model declares no cache lifetime for this retention",
		});
		await s.runtime?.dispose();
		s.session.dispose();
		await s.fake.close();
		current = undefined;
		rmSync(root ?? "", { recursive: true, force: true });

		const off = await setup({ settings: { cacheWarming: "off" } });
		off.fake.enqueue(text("answer", WARM_TOKENS, 5));
		await off.session.prompt("hello");
		expect(off.clock.pending).toBe(0);
		expect(off.session.cacheWarming?.status).toMatchObject({ state: "inactive", reason: "cache warming is off" });
		off.clock.advance(60 * 60_000);
		expect(off.fake.requests).toHaveLength(1);
	});

	it("turning it off in /settings cancels the pending refresh at once and is saved to the user's settings", async () => {
		const s = await setup();
		s.fake.enqueue(text("answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		expect(s.clock.pending).toBe(1);
		const ctx = {
			session: s.session,
			settings: s.session.settings,
			theme: { name: "dark" },
			refreshStatus: () => {},
		} as unknown as InteractiveContext;
		expect(currentSettingsState(ctx).cacheWarming).toBe("idle");
		applySetting(ctx, "cache-warming", "off");
		expect(s.clock.pending).toBe(0);
		expect(s.session.cacheWarming?.status).toMatchObject({ state: "inactive", reason: "cache warming is off" });
		await s.session.settings.flush();
		expect(JSON.parse(readFileSync(join(root ?? "", "agent", "settings.json"), "utf8")).cacheWarming).toBe("off");
		s.clock.advance(60 * 60_000);
		expect(s.fake.requests).toHaveLength(1);
	});

	it("a new prompt cancels the pending refresh; its own request is kept warm instead", async () => {
		const s = await setup();
		s.fake.enqueue(text("one", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		const firstDue = s.session.cacheWarming?.status.nextWarmAt;
		expect(s.clock.pending).toBe(1);

		s.clock.advance(DUE_MS / 2);
		s.fake.enqueue(text("two", WARM_TOKENS, 5));
		await s.session.prompt("again");
		// The first request's timer is gone; one timer, for the second request.
		expect(s.clock.pending).toBe(1);
		const status = s.session.cacheWarming?.status;
		expect(status?.nextWarmAt).toBe(s.clock.time + DUE_MS);
		expect(status?.nextWarmAt).not.toBe(firstDue);
		// The first request's due time passes: nothing is sent.
		s.clock.advance(DUE_MS / 2);
		expect(s.fake.requests).toHaveLength(2);
		// The second one's refresh carries the second request's prefix.
		s.fake.enqueue(text("", WARM_TOKENS, 1));
		s.clock.advance(DUE_MS / 2);
		await waitFor("the refresh", () => s.fake.requests.length === 3 && usageEntries(s).length === 1);
		expect(prefixOf(s.fake.requests[2].body)).toEqual(prefixOf(s.fake.requests[1].body));
	});

	it("a refresh falling due while a new prompt is on its way to its run is not sent", async () => {
		let s: Setup | undefined;
		const seenWhileStarting: (string | undefined)[] = [];
		s = await setup({
			factories: [
				(pi) => {
					// The prompt is past the input stage: time passes the due point before its run starts.
					pi.on("before_agent_start", async () => {
						const warmer = s?.session.cacheWarming;
						if (!s || !warmer || s.clock.pending === 0) return;
						s.clock.advance(DUE_MS);
						await waitFor("the due decision", () => warmer.status.state === "inactive");
						seenWhileStarting.push(warmer.status.reason);
					});
				},
			],
		});
		s.fake.enqueue(text("one", WARM_TOKENS, 5));
		await s.session.prompt("hello"); // no pending refresh yet: advancing fires nothing
		expect(s.clock.pending).toBe(1);
		s.fake.enqueue(text("two", WARM_TOKENS, 5));
		await s.session.prompt("again");
		expect(seenWhileStarting).toEqual(["a new run started"]);
		expect(s.fake.requests).toHaveLength(2);
		expect(usageEntries(s)).toEqual([]);
		// Warming follows the new request.
		expect(s.session.cacheWarming?.status).toMatchObject({ state: "scheduled", nextWarmAt: s.clock.time + DUE_MS });
	});

	it("closing the session (pi exiting) cancels the pending refresh", async () => {
		const s = await setup();
		s.fake.enqueue(text("answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		expect(s.clock.pending).toBe(1);
		await s.runtime?.dispose();
		s.session.dispose();
		expect(s.clock.pending).toBe(0);
		expect(s.session.cacheWarming?.status).toMatchObject({ state: "inactive", reason: "session closed" });
		s.clock.advance(60 * 60_000);
		expect(s.fake.requests).toHaveLength(1);
		current = { ...s, runtime: undefined, session: { dispose() {} } as AgentSession };
	});

	it("a failed refresh is reported, stops warming and leaves the conversation as it was", async () => {
		const s = await setup();
		s.fake.enqueue(text("answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		const entriesBefore = s.fileEntries().length;
		s.fake.enqueue(json(500, { error: { message: "cache node on fire" } }));
		s.clock.advance(DUE_MS);
		await waitFor("the error event", () => s.events.some((e) => e.type === "cache_warming_error"));
		const error = s.events.find((e) => e.type === "cache_warming_error");
		expect(error).toMatchObject({ type: "cache_warming_error" });
		expect(error?.type === "cache_warming_error" && error.errorMessage).toMatch(
			/^Cache warming: the refresh of fakeprov\/fake-model failed: .*cache node on fire/,
		);
		expect(s.session.cacheWarming?.status).toMatchObject({ state: "inactive", reason: "the last refresh failed" });
		expect(formatSessionInfo({ session: s.session } as InteractiveContext)).toMatch(
			/last refresh failed: .*cache node on fire/,
		);
		expect(s.fileEntries()).toHaveLength(entriesBefore);
		expect(s.clock.pending).toBe(0);

		// The session goes on as if nothing happened.
		s.fake.enqueue(text("still here", WARM_TOKENS, 5));
		await s.session.prompt("are you there?");
		expect(s.session.getLastAssistantText()).toBe("still here");
		expect(s.session.messages.filter((m) => m.role === "assistant" && m.stopReason === "error")).toEqual([]);
	});
});

describe("warming during a run", () => {
	/** An extension tool that lets the clock pass the due point while it runs, and waits for what follows. */
	function slowTool(during: (s: Setup) => Promise<void>, get: () => Setup | undefined): ExtensionFactory {
		return (pi) => {
			pi.registerTool({
				name: "slow",
				label: "Slow",
				description: "Takes a while.",
				parameters: Type.Object({}),
				async execute() {
					const s = get();
					if (s) await during(s);
					return { content: [{ type: "text", text: "done" }], details: {} };
				},
			});
		};
	}

	it("a long tool call: the refresh is sent mid-run (the next request is certain), recorded, and the run goes on", async () => {
		let s: Setup | undefined;
		const seen: CacheWarmingDecisionEvent[] = [];
		s = await setup({
			// Below the idle threshold, far above the running one: only a refresh during the run pays.
			settings: { cacheWarming: "streaming" },
			factories: [
				slowTool(
					async (x) => {
						x.fake.enqueue(text("WARM-REPLY", COLD_TOKENS, 1));
						x.clock.advance(DUE_MS);
						await waitFor("the refresh mid-run", () => usageEntries(x).length === 1);
						x.fake.enqueue(text("finished", COLD_TOKENS, 5));
					},
					() => s,
				),
				(pi) => {
					pi.on("cache_warming_decision", (event) => {
						seen.push({ ...event });
					});
				},
			],
		});
		s.fake.enqueue(toolCall("slow", {}, COLD_TOKENS));
		await s.session.prompt("go");
		expect(seen).toMatchObject([{ action: "warm", continuationProbability: 1 }]);
		expect(s.fake.requests).toHaveLength(3);
		const [first, refresh, after] = s.fake.requests.map((r) => r.body);
		expect(prefixOf(refresh)).toEqual(prefixOf(first));
		// The run went on with the tool's result; the refresh's answer is nowhere.
		expect(JSON.stringify(after)).toContain("done");
		expect(JSON.stringify(after)).not.toContain("WARM-REPLY");
		expect(s.session.getLastAssistantText()).toBe("finished");
		// "streaming" warms only while a run goes on.
		expect(s.session.cacheWarming?.status).toMatchObject({
			state: "inactive",
			reason: 'the run settled (cacheWarming is "streaming")',
		});
		expect(s.clock.pending).toBe(0);
	});
});

describe("cache_warming_decision", () => {
	it("an extension's stop skips the refresh; the event carries pi's decision and estimates", async () => {
		const seen: CacheWarmingDecisionEvent[] = [];
		const s = await setup({
			factories: [
				(pi) => {
					pi.on("cache_warming_decision", (event) => {
						seen.push({ ...event });
						return { action: "stop" };
					});
				},
			],
		});
		s.fake.enqueue(text("answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		s.clock.advance(DUE_MS);
		await waitFor("the decision", () => s.session.cacheWarming?.status.state === "inactive");
		expect(seen).toHaveLength(1);
		expect(seen[0]).toMatchObject({ type: "cache_warming_decision", action: "warm", continuationProbability: 0.15 });
		expect(seen[0].missCost).toBeCloseTo((WARM_TOKENS * 9) / 1_000_000, 9);
		expect(seen[0].warmCost).toBeCloseTo((WARM_TOKENS * 1 + 10) / 1_000_000, 9);
		expect(s.session.cacheWarming?.status).toMatchObject({
			reason: "stopped by an extension",
			extensionOverride: true,
		});
		s.clock.advance(60 * 60_000);
		expect(s.fake.requests).toHaveLength(1);
	});

	it("the last handler returning an action wins: a forced warm below the threshold is sent and noted", async () => {
		const s = await setup({
			factories: [
				(pi) => {
					pi.on("cache_warming_decision", () => ({ action: "stop" }));
				},
				(pi) => {
					pi.on("cache_warming_decision", () => ({ action: "warm" }));
					pi.on("cache_warming_decision", () => undefined);
				},
			],
		});
		s.fake.enqueue(text("answer", COLD_TOKENS, 5));
		await s.session.prompt("hello");
		expect(s.session.cacheWarming?.status.decision?.action).toBe("stop");
		s.fake.enqueue(text("", COLD_TOKENS, 1));
		s.clock.advance(DUE_MS);
		await waitFor("the refresh", () => usageEntries(s).length === 1);
		expect(s.fake.requests).toHaveLength(2);
		expect(usageEntries(s)[0]).toMatchObject({ kind: "cache_warm", note: "extension override" });
	});

	it("a throwing handler is reported and pi's own decision stands", async () => {
		const errors: string[] = [];
		const s = await setup({
			factories: [
				(pi) => {
					pi.on("cache_warming_decision", () => {
						throw new Error("decider broke");
					});
				},
			],
			onExtensionError: (e) => errors.push(`${e.event}: ${e.error}`),
		});
		s.fake.enqueue(text("answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		s.fake.enqueue(text("", WARM_TOKENS, 1));
		s.clock.advance(DUE_MS);
		await waitFor("the refresh", () => usageEntries(s).length === 1);
		expect(usageEntries(s)[0]).not.toHaveProperty("note");
		expect(errors).toEqual(["cache_warming_decision: decider broke"]);
	});
});

describe("cache lifetimes of extension models", () => {
	it("pi.registerProvider models take promptCache and are kept warm like built-in ones", async () => {
		const s = await setup({
			factories: (fake) => [
				(pi) => {
					pi.registerProvider("extprov", {
						baseUrl: `${fake.url}/v1`,
						api: "openai-completions",
						apiKey: "ext-key",
						models: [
							{
								id: "ext-model",
								name: "Ext",
								input: ["text"],
								cost,
								contextWindow: 1_000_000,
								compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
								promptCache: { short: 300 },
							},
						],
					});
				},
			],
		});
		const model = s.session.modelRegistry.find("extprov", "ext-model");
		expect(model?.promptCache).toEqual({ short: 300 });
		if (model) s.session.setModel(model);
		s.fake.enqueue(text("answer", WARM_TOKENS, 5));
		await s.session.prompt("hello");
		expect(s.session.cacheWarming?.status).toMatchObject({ state: "scheduled", decision: { action: "warm" } });
		s.fake.enqueue(text("", WARM_TOKENS, 1));
		s.clock.advance(DUE_MS);
		await waitFor("the refresh", () => usageEntries(s).length === 1);
		expect(usageEntries(s)[0]).toMatchObject({ kind: "cache_warm", provider: "extprov" });
	});

	it("a bad promptCache is refused where the extension registers it, naming model, provider and file", () => {
		const model = { id: "m", name: "M", input: ["text" as const], cost, promptCache: { short: -1 } };
		expect(() => checkProviderConfig({ models: [model] }, "extprov", "/ext/warm.ts")).toThrow(
			'pi.registerProvider: promptCache of model "m" (provider "extprov") must be { short?, long? } in seconds, greater than 0 (/ext/warm.ts)',
		);
		expect(() =>
			checkProviderConfig({ models: [{ ...model, promptCache: { short: 300, long: 3600 } }] }, "extprov", "/x.ts"),
		).not.toThrow();
	});
});
