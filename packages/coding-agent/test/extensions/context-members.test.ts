// The extension contract has upstream Pi 1.6.0's names: the 41 event names,
// and, on the live objects a real session hands an extension (not on the
// types), the 18 `ctx` members of every handler and the 7 a command context
// adds. The lists were read off 1.6.0's published type declarations.
// (`pi`'s 33 members are held by api-surface.test.ts.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/agent-session/create-agent-session.js";
import { EXTENSION_EVENT_NAMES } from "../../src/extensions/events.js";
import type { ExtensionCommandContext, ExtensionContext } from "../../src/extensions/types.js";
import { SessionManager } from "../../src/session/session-manager.js";

const EVENTS_1_6 = [
	"after_provider_response",
	"agent_before_settle",
	"agent_end",
	"agent_settled",
	"agent_start",
	"before_agent_start",
	"before_provider_headers",
	"before_provider_request",
	"cache_warming_decision",
	"context",
	"context_with_system",
	"input",
	"mcp_servers_change",
	"message_end",
	"message_start",
	"message_update",
	"model_select",
	"project_trust",
	"provider_stream_event",
	"resources_discover",
	"session_before_compact",
	"session_before_fork",
	"session_before_switch",
	"session_before_tree",
	"session_compact",
	"session_compact_failed",
	"session_info_changed",
	"session_shutdown",
	"session_start",
	"session_tree",
	"thinking_level_select",
	"tool_call",
	"tool_execution_end",
	"tool_execution_start",
	"tool_execution_update",
	"tool_result",
	"turn_end",
	"turn_start",
	"ui_prompt_end",
	"ui_prompt_start",
	"user_bash",
];

const CTX_MEMBERS_1_6 = [
	"abort",
	"compact",
	"cwd",
	"getContextUsage",
	"getSystemPrompt",
	"hasPendingMessages",
	"hasUI",
	"isIdle",
	"isProjectTrusted",
	"mode",
	"model",
	"modelRegistry",
	"scopedModels",
	"sessionManager",
	"shutdown",
	"signal",
	"thinkingLevel",
	"ui",
];

const COMMAND_CTX_EXTRA = [
	"fork",
	"getSystemPromptOptions",
	"navigateTree",
	"newSession",
	"reload",
	"switchSession",
	"waitForIdle",
];

/** Own and prototype member names of an object, without Object.prototype's. */
function memberNames(value: object): string[] {
	const names = new Set<string>();
	for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
		for (const name of Object.getOwnPropertyNames(o)) if (name !== "constructor") names.add(name);
	}
	return [...names].sort();
}

let dir: string | undefined;
afterEach(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
	dir = undefined;
});

describe("extension events and contexts (as 1.6.0)", () => {
	it("the 41 event names", () => {
		expect([...EXTENSION_EVENT_NAMES].sort()).toEqual(EVENTS_1_6);
	});

	it("ctx and a command's ctx have 1.6.0's members", { timeout: 60_000 }, async () => {
		dir = mkdtempSync(join(tmpdir(), "pi-api-surface-"));
		let ctx: ExtensionContext | undefined;
		let commandCtx: ExtensionCommandContext | undefined;
		const { session, runtime } = await createAgentSession({
			cwd: dir,
			agentDir: join(dir, "agent"),
			sessionManager: SessionManager.inMemory(dir),
			extensions: {
				discover: false,
				factories: [
					(api) => {
						api.on("session_start", (_event, c) => {
							ctx = c;
						});
						api.registerCommand("probe", {
							handler: (_args, c) => {
								commandCtx = c;
							},
						});
					},
				],
			},
		});
		try {
			await session.prompt("/probe");
			expect(ctx).toBeDefined();
			expect(memberNames(ctx as object)).toEqual(CTX_MEMBERS_1_6);
			expect(commandCtx).toBeDefined();
			expect(memberNames(commandCtx as object)).toEqual([...CTX_MEMBERS_1_6, ...COMMAND_CTX_EXTRA].sort());
		} finally {
			await runtime?.dispose();
			session.dispose();
		}
	});
});
