// `context` and `context_with_system` handlers change the request, never the
// session: a handler that drops and rewrites messages shapes what the model is
// sent, while the session file (and the next request's starting point) keeps
// every message as it was recorded.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "@pi/agent-core";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "../agent-session/support.js";

let dir: string | undefined;
afterEach(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
	dir = undefined;
});

const text = (m: { content?: unknown }): string =>
	typeof m.content === "string"
		? m.content
		: ((m.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? "").join("");

describe("context / context_with_system change only the request", () => {
	it("the request carries the rewrite; the session file keeps every message as recorded", {
		timeout: 60_000,
	}, async () => {
		dir = mkdtempSync(join(tmpdir(), "pi-context-only-"));
		const sessionManager = SessionManager.create(dir, join(dir, "sessions"));
		const { session, fake, runtime } = await makeSession({
			cwd: dir,
			agentDir: join(dir, "agent"),
			settingsManager: undefined,
			resourceLoader: undefined,
			sessionManager,
			extensions: {
				discover: false,
				factories: [
					(pi) => {
						// Drop every earlier user message and shout the rest (a rewrite in place, on the handler's copy).
						pi.on("context", (event) => {
							const messages = event.messages as AgentMessage[];
							const lastUser = messages.map((m) => m.role).lastIndexOf("user");
							const kept = messages.filter((m, i) => m.role !== "user" || i === lastUser);
							for (const m of kept) {
								if (m.role === "user" && Array.isArray(m.content)) {
									for (const c of m.content) if (c.type === "text") c.text = c.text.toUpperCase();
								}
							}
							return { messages: kept };
						});
						pi.on("context_with_system", (event) => ({
							messages: [...event.messages, { role: "user", content: "added by the handler", timestamp: 0 }],
						}));
					},
				],
			},
		});
		try {
			fake.enqueue({ text: "first answer" }, { text: "second answer" });
			await session.prompt("first question");
			await session.prompt("second question");

			const sent = fake.calls[1].messages.filter((m) => m.role === "user").map(text);
			expect(sent).toEqual(["SECOND QUESTION", "added by the handler"]);

			// In memory too: the projection the next request starts from was not mutated through the handler's copy.
			const projected = sessionManager
				.buildSessionContext()
				.messages.filter((m) => m.role === "user")
				.map(text);
			expect(projected).toEqual(["first question", "second question"]);

			const file = sessionManager.getSessionFile();
			expect(file).toBeDefined();
			const recorded = readFileSync(file as string, "utf8")
				.trim()
				.split("\n")
				.map((line) => JSON.parse(line) as { type: string; message?: { role: string; content?: unknown } })
				.filter((e) => e.type === "message" && e.message?.role !== "system")
				.map((e) => `${e.message?.role}: ${text(e.message ?? {})}`);
			expect(recorded).toEqual([
				"user: first question",
				"assistant: first answer",
				"user: second question",
				"assistant: second answer",
			]);
		} finally {
			await runtime?.dispose();
			session.dispose();
		}
	});
});
