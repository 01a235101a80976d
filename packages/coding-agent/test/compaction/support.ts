// AgentSession over real HTTP: pi-ai's openai-completions adapter talks to
// the project's fake provider server on 127.0.0.1; the session is persisted
// in a temp dir so tests can read the JSONL file. Backoff timers are
// replaced by recording ones that fire at once.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "@pi/ai";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import {
	type FakeProvider,
	type RecordedRequest,
	type Script,
	startFakeProvider,
} from "../../../ai/test/support/fake-provider/server.js";
import type { Timers } from "../../src/agent-session/backoff/timers.js";
import { createAgentSession } from "../../src/agent-session/create-agent-session.js";
import type { AgentSessionEvent } from "../../src/agent-session/events.js";
import { AuthStorage } from "../../src/config/auth.js";
import { ModelRegistry } from "../../src/config/model-registry.js";
import { SettingsManager } from "../../src/config/settings.js";
import type { Settings } from "../../src/config/settings-schema.js";
import type { ResourceLoader } from "../../src/resources/resource-loader.js";
import { SessionManager } from "../../src/session/session-manager.js";
import type { SessionEntry } from "../../src/session/types.js";

export const resources: ResourceLoader = {
	reload: async () => {},
	getContextFiles: () => [],
	getSystemPrompt: () => "You are a test agent.",
	getAppendSystemPrompt: () => [],
	getSkills: () => [],
	getDiagnostics: () => [],
};

/** Timers that record each requested delay and fire on the next tick (or wait when `hold` is set). */
export class RecordingTimers implements Timers {
	readonly delays: number[] = [];
	hold = false;
	private pending = new Map<number, () => void>();
	private next = 1;

	setTimeout(callback: () => void, ms: number): unknown {
		this.delays.push(ms);
		const id = this.next++;
		this.pending.set(id, callback);
		if (!this.hold) setImmediate(() => this.fire(id));
		return id;
	}

	clearTimeout(handle: unknown): void {
		this.pending.delete(handle as number);
	}

	/** Fires every held timer. */
	release(): void {
		for (const id of [...this.pending.keys()]) this.fire(id);
	}

	get waiting(): number {
		return this.pending.size;
	}

	private fire(id: number): void {
		const cb = this.pending.get(id);
		this.pending.delete(id);
		cb?.();
	}
}

export function fakeModel(extra: Partial<Model> = {}): Model {
	return {
		id: "fake-model",
		name: "Fake",
		api: "openai-completions",
		provider: "fakeprov",
		baseUrl: "http://127.0.0.1:1/v1",
		reasoning: false,
		input: ["text", "image"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 4096,
		compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
		...extra,
	};
}

/** A streamed text answer whose usage reports `promptTokens` of context. */
export function text(reply: string, promptTokens = 50, completionTokens = 5): Script {
	return new ChatStream()
		.role()
		.text(reply)
		.finish("stop")
		.usage({ prompt_tokens: promptTokens, completion_tokens: completionTokens })
		.done()
		.script();
}

let calls = 0;
/** A streamed tool call. */
export function toolCall(name: string, args: Record<string, unknown>, promptTokens = 50): Script {
	const json = JSON.stringify(args);
	return new ChatStream()
		.role()
		.toolCall(0, `call_${++calls}`, name, [json.slice(0, 5), json.slice(5)])
		.finish("tool_calls")
		.usage({ prompt_tokens: promptTokens, completion_tokens: 5 })
		.done()
		.script();
}

/** Text of the messages of a recorded chat request, one string per message. */
export function requestTexts(req: RecordedRequest): { role: string; text: string }[] {
	const body = req.body as { messages: { role: string; content: unknown; tool_calls?: unknown }[] };
	return body.messages.map((m) => ({
		role: m.role,
		text:
			typeof m.content === "string"
				? m.content
				: Array.isArray(m.content)
					? m.content.map((p: { text?: string }) => p.text ?? "").join("")
					: m.tool_calls
						? JSON.stringify(m.tool_calls)
						: "",
	}));
}

export interface HttpSessionOptions {
	settings?: Settings;
	model?: Partial<Model>;
	tools?: string[];
}

export async function makeHttpSession(options: HttpSessionOptions = {}) {
	const fake: FakeProvider = await startFakeProvider();
	const root = mkdtempSync(join(tmpdir(), "pi-compaction-"));
	const cwd = join(root, "work");
	mkdirSync(cwd, { recursive: true });
	const model = fakeModel({ baseUrl: `${fake.url}/v1`, ...options.model });
	const auth = AuthStorage.inMemory({}, { env: {} });
	auth.setRuntimeApiKey("fakeprov", "test-key");
	const registry = ModelRegistry.inMemory(auth, { builtins: () => [model] });
	const sessionManager = SessionManager.create(cwd, join(root, "sessions"));
	const { session } = await createAgentSession({
		cwd,
		agentDir: join(root, "agent"),
		settingsManager: SettingsManager.inMemory(options.settings ?? {}),
		authStorage: auth,
		modelRegistry: registry,
		sessionManager,
		resourceLoader: resources,
		model,
		tools: options.tools ?? ["read"],
	});
	const timers = new RecordingTimers();
	session.recovery.retry.timers = timers;
	const events: AgentSessionEvent[] = [];
	session.subscribe((e) => {
		events.push(e);
	});
	return {
		session,
		fake,
		model,
		sessionManager,
		cwd,
		timers,
		events,
		/** Entries as written to the session file (header excluded). */
		fileEntries(): SessionEntry[] {
			const file = sessionManager.getSessionFile();
			if (!file) throw new Error("no session file");
			const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
			return lines.slice(1).map((l) => JSON.parse(l) as SessionEntry);
		},
		/** The session's event types, without streaming noise. */
		eventTypes(): string[] {
			return events
				.map((e) => e.type)
				.filter((t) => !["message_update", "message_start", "tool_execution_update"].includes(t));
		},
		async close() {
			session.dispose();
			await fake.close();
			rmSync(root, { recursive: true, force: true });
		},
	};
}

export type HttpSession = Awaited<ReturnType<typeof makeHttpSession>>;

/** Short description of an entry: "message:user", "compaction", … */
export function kind(e: SessionEntry): string {
	return e.type === "message" ? `message:${e.message.role}` : e.type;
}
