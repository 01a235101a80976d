// In-process fakes for AgentSession tests: a scripted stream function that
// plays replies through pi-ai's AssistantStreamWriter and records every
// request context, plus a builder for a session wired to in-memory stores.
import type { AgentTool, StreamFn } from "@pi/agent-core";
import { AssistantStreamWriter, type Context, type Model } from "@pi/ai";
import { Type } from "typebox";
import { type CreateAgentSessionOptions, createAgentSession } from "../../src/agent-session/create-agent-session.js";
import { AuthStorage } from "../../src/config/auth.js";
import { ModelRegistry } from "../../src/config/model-registry.js";
import { SettingsManager } from "../../src/config/settings.js";
import type { ResourceLoader } from "../../src/resources/resource-loader.js";
import { SessionManager } from "../../src/session/session-manager.js";

export type Reply = {
	text?: string;
	toolCalls?: { name: string; args: Record<string, unknown> }[];
	gate?: Promise<void>;
};

export function testModel(extra: Partial<Model> = {}): Model {
	return {
		id: "test-model",
		name: "Test Model",
		api: "openai-completions",
		provider: "testprov",
		baseUrl: "http://127.0.0.1:1",
		reasoning: true,
		input: ["text"],
		cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
		// A server that takes reasoning_effort, so the thinking level is really sent (and shown).
		compat: { supportsReasoningEffort: true },
		...extra,
	};
}

export class FakeStream {
	readonly calls: Context[] = [];
	private readonly replies: Reply[] = [];
	private toolCallCounter = 0;

	enqueue(...replies: Reply[]): void {
		this.replies.push(...replies);
	}

	readonly streamFn: StreamFn = (model, context) => {
		this.calls.push({ ...context, messages: structuredClone(context.messages) });
		const writer = new AssistantStreamWriter(model);
		const reply = this.replies.shift() ?? { text: "(no reply scripted)" };
		void (async () => {
			if (reply.gate) await reply.gate;
			if (reply.text !== undefined) {
				const i = writer.beginText();
				writer.appendText(i, reply.text);
				writer.endBlock(i);
			}
			for (const call of reply.toolCalls ?? []) {
				const i = writer.beginToolCall(`call_${++this.toolCallCounter}`, call.name);
				writer.appendToolArguments(i, JSON.stringify(call.args));
				writer.endBlock(i);
			}
			writer.setUsage({ input: 10, output: 5 });
			writer.finish(reply.toolCalls?.length ? "toolUse" : "stop");
		})();
		return writer.stream;
	};
}

export function echoTool(): AgentTool {
	return {
		name: "echo",
		label: "Echo",
		description: "Echoes its input.",
		parameters: Type.Object({ value: Type.String() }),
		execute: async (_id, params) => ({
			content: [{ type: "text", text: `echo:${(params as { value: string }).value}` }],
		}),
	};
}

export const emptyResources: ResourceLoader = {
	reload: async () => {},
	getContextFiles: () => [{ path: "/ctx/AGENTS.md", content: "Project rule." }],
	getSystemPrompt: () => undefined,
	getAppendSystemPrompt: () => [],
	getSkills: () => [],
	getDiagnostics: () => [],
};

export async function makeSession(options: Partial<CreateAgentSessionOptions> & { key?: boolean } = {}) {
	const fake = new FakeStream();
	const auth = AuthStorage.inMemory({}, { env: {} });
	if (options.key !== false) auth.setRuntimeApiKey("testprov", "k");
	const model = testModel();
	const registry = ModelRegistry.inMemory(auth, {
		builtins: () => [model, testModel({ id: "plain", reasoning: false })],
	});
	const sessionManager = options.sessionManager ?? SessionManager.inMemory("/work");
	const result = await createAgentSession({
		cwd: "/work",
		agentDir: "/nonexistent-agent-dir",
		settingsManager: SettingsManager.inMemory(),
		authStorage: auth,
		modelRegistry: registry,
		sessionManager,
		resourceLoader: emptyResources,
		streamFn: fake.streamFn,
		customTools: [echoTool()],
		tools: ["echo"],
		...options,
	});
	return { ...result, fake, sessionManager, registry, auth };
}
