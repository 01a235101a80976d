// RpcServer over an in-memory stdout with an AgentSession on the in-process
// fake stream: session switching restores each session's model, user bash
// output that finishes during a run is recorded once the run has settled, and
// commands answered synchronously keep their order.
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { JsonlWriter } from "../../src/modes/rpc/jsonl-writer.js";
import { RpcServer } from "../../src/modes/rpc/rpc-mode.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "../agent-session/support.js";

class Sink extends EventEmitter {
	readonly lines: string[] = [];
	write(text: string): boolean {
		this.lines.push(text);
		return true;
	}
	records(): Record<string, unknown>[] {
		return this.lines.map((l) => JSON.parse(l));
	}
}

let dir: string | undefined;
afterEach(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
	dir = undefined;
});

async function setup(sessionManager?: SessionManager) {
	const made = await makeSession(sessionManager ? { sessionManager } : {});
	const sink = new Sink();
	const server = new RpcServer(made.session, new JsonlWriter(sink));
	let n = 0;
	/** Sends a command and resolves with its response. */
	const call = async (command: Record<string, unknown>) => {
		const id = `c${++n}`;
		server.handleLine(JSON.stringify({ ...command, id }));
		for (let i = 0; i < 200; i++) {
			const found = sink.records().find((r) => r.type === "response" && r.id === id);
			if (found) return found as { success: boolean; data?: Record<string, unknown>; error?: string };
			await new Promise((r) => setTimeout(r, 5));
		}
		throw new Error(`no response to ${JSON.stringify(command)}`);
	};
	const settled = async () => {
		for (let i = 0; i < 400 && !sink.records().some((r) => r.type === "agent_settled"); i++) {
			await new Promise((r) => setTimeout(r, 5));
		}
	};
	return { ...made, sink, server, call, settled };
}

describe("RpcServer with a session", () => {
	it("switch_session restores the model recorded in the session it opens", async () => {
		dir = mkdtempSync(join(tmpdir(), "pi-rpc-switch-"));
		const t = await setup(SessionManager.create("/work", dir));
		t.fake.enqueue({ text: "one" }, { text: "two" });
		await t.call({ type: "prompt", message: "first" });
		await t.settled();
		const first = (await t.call({ type: "get_state" })).data as { sessionFile: string; model: { id: string } };
		expect(first.model.id).toBe("test-model");

		await t.call({ type: "new_session" });
		expect((await t.call({ type: "set_model", provider: "testprov", modelId: "plain" })).success).toBe(true);
		await t.call({ type: "prompt", message: "second" });
		await new Promise((r) => setTimeout(r, 50));
		expect(((await t.call({ type: "get_state" })).data as { model: { id: string } }).model.id).toBe("plain");

		expect((await t.call({ type: "switch_session", sessionPath: first.sessionFile })).data).toEqual({
			cancelled: false,
		});
		const back = (await t.call({ type: "get_state" })).data as {
			model: { id: string };
			sessionFile: string;
			thinkingLevel: string;
		};
		expect(back.sessionFile).toBe(first.sessionFile);
		expect(back.model.id).toBe("test-model");
		await t.server.close();
		t.session.dispose();
	});

	it("records bash output that finished during a run once the run has settled", async () => {
		const t = await setup();
		let open!: () => void;
		t.fake.enqueue({ text: "answer", gate: new Promise<void>((r) => (open = r)) });
		await t.call({ type: "prompt", message: "go" });
		const bash = await t.call({ type: "bash", command: "echo during" });
		expect(bash.data).toMatchObject({ output: "during", exitCode: 0 });
		const roles = () =>
			t.session.sessionManager.getEntries().map((e) => (e.type === "message" ? e.message.role : e.type));
		expect(roles()).not.toContain("bashExecution");
		open();
		await t.settled();
		await new Promise((r) => setTimeout(r, 20));
		expect(roles().filter((r) => r === "user" || r === "assistant" || r === "bashExecution")).toEqual([
			"user",
			"assistant",
			"bashExecution",
		]);
		await t.server.close();
		t.session.dispose();
	});

	it("treats a prompt that is still starting as running: a second prompt in the same batch is refused or queued", async () => {
		const t = await setup();
		t.fake.enqueue({ text: "first reply" }, { text: "queued reply" });
		t.server.handleLine('{"id":"p1","type":"prompt","message":"one"}');
		t.server.handleLine('{"id":"p2","type":"prompt","message":"two"}');
		t.server.handleLine('{"id":"p3","type":"prompt","message":"three","streamingBehavior":"followUp"}');
		await t.settled();
		await t.server.close();
		// p1 and p2 are answered in the same tick; which comes first is microtask order.
		const responses = t.sink
			.records()
			.filter((r) => r.type === "response")
			.sort((a, b) => String(a.id).localeCompare(String(b.id)));
		const summary = responses.map((r) => [
			r.id,
			r.success,
			(r.data as { disposition?: string } | undefined)?.disposition,
		]);
		expect(summary).toEqual([
			["p1", true, "started"],
			["p2", false, undefined],
			["p3", true, "queued"],
		]);
		expect(responses[1].error).toMatch(/streamingBehavior/);
		expect(t.fake.calls).toHaveLength(2);
		expect(t.session.getLastAssistantText()).toBe("queued reply");
		t.session.dispose();
	});

	it("answers a prompt an extension command took 'handled' once it is done, and one whose command starts a run 'started' before its events", async () => {
		const made = await makeSession();
		made.fake.enqueue({ text: "from the command's run" });
		const sink = new Sink();
		// As the extension bridge's input path: `/noop` is a command that starts nothing, `/go` one that starts a run.
		const submit = async (text: string) => {
			await new Promise((r) => setTimeout(r, 20));
			if (text === "/go") await made.session.prompt("started by /go");
		};
		const server = new RpcServer(made.session, new JsonlWriter(sink), { submit });
		server.handleLine('{"id":"noop","type":"prompt","message":"/noop"}');
		await server.drain();
		expect(sink.records()).toEqual([
			{ id: "noop", type: "response", command: "prompt", success: true, data: { disposition: "handled" } },
		]);
		server.handleLine('{"id":"go","type":"prompt","message":"/go"}');
		await server.drain();
		const records = sink.records().slice(1);
		expect(records[0]).toEqual({
			id: "go",
			type: "response",
			command: "prompt",
			success: true,
			data: { disposition: "started" },
		});
		expect(records.map((r) => r.type)).toContain("agent_settled");
		expect(made.session.getLastAssistantText()).toBe("from the command's run");
		await server.close();
		made.session.dispose();
	});

	it("answers synchronous commands in the order they arrive, errors included", async () => {
		const t = await setup();
		for (const line of [
			'{"id":"a","type":"get_state"}',
			"oops",
			'{"id":"b","type":"set_steering_mode","mode":"all"}',
			'{"id":"c","type":"nope"}',
			'{"id":"d","type":"get_available_thinking_levels"}',
		]) {
			t.server.handleLine(line);
		}
		expect(t.sink.records().map((r) => `${r.id ?? "-"}:${r.success}`)).toEqual([
			"a:true",
			"-:false",
			"b:true",
			"c:false",
			"d:true",
		]);
		expect(t.session.steeringMode).toBe("all");
		await t.server.close();
		t.session.dispose();
	});
});
