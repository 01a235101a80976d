// Virtual models (pi.registerVirtualModel, docs/virtual-models.md): the
// selection names the virtual model, each request is routed to a physical
// model and level that the assistant message records; the router sees why a
// request is made (user / continuation / retry / direct), the previous and the
// failed response, and keeps state on the branch; bad routes are error replies.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamFn } from "@pi/agent-core";
import { type AssistantMessage, failedStream, type Model } from "@pi/ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthStorage } from "../../src/config/auth.js";
import { ModelRegistry } from "../../src/config/model-registry.js";
import { VIRTUAL_MODEL_STATE_ENTRY } from "../../src/config/virtual-models.js";
import type { ExtensionAPI, ExtensionFactory } from "../../src/extensions/types.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { FakeStream, makeSession, testModel } from "./support.js";

let root: string;
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "pi-virtual-")));
	mkdirSync(join(root, "agent"), { recursive: true });
	mkdirSync(join(root, "work"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

interface Seen {
	reason: string;
	level: string;
	previous?: string;
	failed?: string;
	state?: unknown;
	hasCtx: boolean;
}

/** An extension registering router/auto: "high" goes to test-model at medium, anything else to plain. */
function router(seen: Seen[], extra?: (pi: ExtensionAPI) => void): ExtensionFactory {
	return (pi) => {
		pi.registerVirtualModel<{ n: number }>({
			provider: "router",
			id: "auto",
			name: "Auto",
			thinkingLevels: ["low", "high"],
			contextWindow: 5000,
			route(request, ctx) {
				seen.push({
					reason: request.reason,
					level: request.thinkingLevel,
					previous: request.previous && `${request.previous.model.id}:${request.previous.thinkingLevel}`,
					failed: request.failed?.message.errorMessage,
					state: request.state,
					hasCtx: typeof ctx.modelRegistry.find === "function",
				});
				const id = request.thinkingLevel === "high" ? "test-model" : "plain";
				const model = ctx.modelRegistry.find("testprov", id) as Model;
				return { model, thinkingLevel: "medium", state: { n: (request.state?.n ?? 0) + 1 } };
			},
		});
		extra?.(pi);
	};
}

async function open(factories: ExtensionFactory[], streamFn?: StreamFn, settings: object = {}) {
	writeFileSync(join(root, "agent", "settings.json"), JSON.stringify(settings));
	const cwd = join(root, "work");
	const fake = new FakeStream();
	const s = await makeSession({
		cwd,
		agentDir: join(root, "agent"),
		settingsManager: undefined,
		resourceLoader: undefined,
		sessionManager: SessionManager.inMemory(cwd),
		streamFn: streamFn ?? fake.streamFn,
		extensions: { factories, discover: false },
	});
	return { ...s, fake };
}

const assistants = (sm: SessionManager) =>
	sm
		.getBranch()
		.flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? [e.message as AssistantMessage] : []));

describe("virtual models", () => {
	it("the selection stays virtual; each request goes to the routed physical model and level", async () => {
		const seen: Seen[] = [];
		const { session, registry, fake, sessionManager, runtime } = await open([router(seen)]);
		const auto = registry.find("router", "auto");
		expect(auto).toBeDefined();
		// A provider id only virtual models use needs no credentials.
		expect(registry.getAvailable().map((m) => `${m.provider}/${m.id}`)).toContain("router/auto");
		session.setModel(auto as Model);
		expect(session.getAvailableThinkingLevels()).toEqual(["low", "high"]);
		session.setThinkingLevel("high");

		fake.enqueue({ toolCalls: [{ name: "echo", args: { value: "x" } }] }, { text: "done" });
		await session.prompt("hello");
		expect(session.model?.id).toBe("auto");
		const replies = assistants(sessionManager);
		expect(replies.map((m) => `${m.provider}/${m.model}:${m.thinkingLevel}`)).toEqual([
			"testprov/test-model:medium",
			"testprov/test-model:medium",
		]);
		// Why each request was made, what answered before, and the router's state on the branch.
		expect(seen).toEqual([
			{ reason: "user", level: "high", previous: undefined, failed: undefined, state: undefined, hasCtx: true },
			{
				reason: "continuation",
				level: "high",
				previous: "test-model:medium",
				failed: undefined,
				state: { n: 1 },
				hasCtx: true,
			},
		]);
		const states = sessionManager
			.getBranch()
			.filter((e) => e.type === "custom" && e.customType === VIRTUAL_MODEL_STATE_ENTRY);
		expect(states).toHaveLength(2);
		// The model_change entry names the selection, not the routed model.
		const change = sessionManager.getBranch().filter((e) => e.type === "model_change");
		expect(change.at(-1)).toMatchObject({ provider: "router", modelId: "auto" });

		session.setThinkingLevel("low");
		fake.enqueue({ text: "small" });
		await session.prompt("again");
		expect(assistants(sessionManager).at(-1)).toMatchObject({ model: "plain", thinkingLevel: "off" });
		expect(seen.at(-1)).toMatchObject({ reason: "user", level: "low", state: { n: 2 } });
		await runtime?.dispose();
	});

	it("a retry tells the router what failed; a throwing router or a bad route is an error reply", async () => {
		const seen: Seen[] = [];
		const fake = new FakeStream();
		let calls = 0;
		const flaky: StreamFn = (model, context, options) => {
			calls++;
			if (calls === 1)
				return failedStream(model, "upstream overloaded", { kind: "overloaded", status: 529, retryable: true });
			return fake.streamFn(model, context, options);
		};
		let mode: "ok" | "throw" | "virtual" = "ok";
		const { session, registry, sessionManager, runtime } = await open(
			[
				router(seen, (pi) => {
					pi.registerVirtualModel({
						provider: "router",
						id: "odd",
						name: "Odd",
						route(_request, ctx) {
							if (mode === "throw") throw new Error("no idea");
							return { model: ctx.modelRegistry.find("router", "auto") as Model, thinkingLevel: "off" };
						},
					});
				}),
			],
			flaky,
			{ retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 } },
		);
		session.setModel(registry.find("router", "auto") as Model);
		fake.enqueue({ text: "recovered" });
		await session.prompt("hi");
		expect(seen.map((s) => s.reason)).toEqual(["user", "retry"]);
		expect(seen[1].failed).toBe("upstream overloaded");
		expect(assistants(sessionManager).at(-1)).toMatchObject({ model: "test-model", stopReason: "stop" });

		session.setModel(registry.find("router", "odd") as Model);
		mode = "throw";
		await session.prompt("route me");
		expect(assistants(sessionManager).at(-1)?.errorMessage).toBe(
			'Virtual model "router/odd" could not route the request: no idea',
		);
		mode = "virtual";
		await session.prompt("route me again");
		expect(assistants(sessionManager).at(-1)?.errorMessage).toMatch(
			/Virtual model "router\/odd" returned the virtual model "router\/auto"/,
		);
		await runtime?.dispose();
	});

	it("registry: a virtual model hides a physical one of the same id until it is unregistered; bad definitions are named", async () => {
		const auth = AuthStorage.inMemory({}, { env: {} });
		auth.setRuntimeApiKey("testprov", "k");
		const registry = ModelRegistry.inMemory(auth, { builtins: () => [testModel()] });
		registry.registerVirtualModel({
			provider: "testprov",
			id: "test-model",
			name: "Routed",
			route: () => ({ model: testModel(), thinkingLevel: "off" }),
		});
		expect(registry.find("testprov", "test-model")?.api).toBe("pi-virtual");
		registry.registerModel(testModel({ name: "refreshed" }));
		expect(registry.find("testprov", "test-model")?.api).toBe("pi-virtual");
		registry.unregisterVirtualModel("testprov", "test-model");
		expect(registry.find("testprov", "test-model")).toMatchObject({ api: "openai-completions", name: "refreshed" });

		const errors: string[] = [];
		await open([
			(pi) => {
				try {
					pi.registerVirtualModel({ provider: "x", id: "y", name: "Y" } as never);
				} catch (e) {
					errors.push(String(e));
				}
			},
		]);
		expect(errors[0]).toMatch(/registerVirtualModel "x\/y" needs a route\(request, ctx\) function/);
	});
});
