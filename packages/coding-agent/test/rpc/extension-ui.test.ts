// The RPC extension UI bridge on its own (requests, answers, cancellation,
// timeouts, degraded terminal features), and routed through an in-process
// RpcServer: requests on the output, extension_ui_response lines on the input.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { RpcExtensionUI } from "../../src/modes/rpc/extension-ui.js";
import { JsonlWriter } from "../../src/modes/rpc/jsonl-writer.js";
import { RpcServer } from "../../src/modes/rpc/rpc-mode.js";
import type { RpcExtensionUIRequest } from "../../src/modes/rpc/rpc-types.js";
import { makeSession } from "../agent-session/support.js";

function bridge() {
	const sent: RpcExtensionUIRequest[] = [];
	let n = 0;
	const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
	const ui = new RpcExtensionUI((r) => void sent.push(r), {
		createId: () => `ui-${++n}`,
		setTimeout: (fn, ms) => {
			const t = { fn, ms, cleared: false };
			timers.push(t);
			return t;
		},
		clearTimeout: (t) => {
			(t as { cleared: boolean }).cleared = true;
		},
	});
	return { ui, sent, timers };
}

describe("RpcExtensionUI", () => {
	it("sends dialog requests and resolves them with the client's answers", async () => {
		const { ui, sent } = bridge();
		const select = ui.select("Pick", ["a", "b"], { timeout: 1000 });
		const confirm = ui.confirm("Sure?", "It cannot be undone");
		const input = ui.input("Name", "your name");
		const editor = ui.editor("Edit", "line 1\nline 2");
		expect(sent).toEqual([
			{ type: "extension_ui_request", id: "ui-1", method: "select", title: "Pick", options: ["a", "b"], timeout: 1000 },
			{ type: "extension_ui_request", id: "ui-2", method: "confirm", title: "Sure?", message: "It cannot be undone" },
			{ type: "extension_ui_request", id: "ui-3", method: "input", title: "Name", placeholder: "your name" },
			{ type: "extension_ui_request", id: "ui-4", method: "editor", title: "Edit", prefill: "line 1\nline 2" },
		]);
		expect(ui.pendingCount).toBe(4);
		expect(ui.handleResponse({ type: "extension_ui_response", id: "ui-1", value: "b" })).toBe(true);
		expect(ui.handleResponse({ type: "extension_ui_response", id: "ui-2", confirmed: true })).toBe(true);
		expect(ui.handleResponse({ type: "extension_ui_response", id: "ui-3", value: "Ada" })).toBe(true);
		expect(ui.handleResponse({ type: "extension_ui_response", id: "ui-4", cancelled: true })).toBe(true);
		expect(await select).toBe("b");
		expect(await confirm).toBe(true);
		expect(await input).toBe("Ada");
		expect(await editor).toBeUndefined();
		// Late or duplicate answers are not matched.
		expect(ui.handleResponse({ type: "extension_ui_response", id: "ui-1", value: "a" })).toBe(false);
		expect(ui.pendingCount).toBe(0);
	});

	it("dismisses on cancel, timeout, abort signal and close", async () => {
		const { ui, timers } = bridge();
		const cancelled = ui.confirm("A", "b");
		ui.handleResponse({ type: "extension_ui_response", id: "ui-1", cancelled: true });
		expect(await cancelled).toBe(false);

		const timed = ui.select("T", ["x"], { timeout: 250 });
		expect(timers.map((t) => t.ms)).toEqual([250]);
		timers[0].fn();
		expect(await timed).toBeUndefined();
		expect(ui.handleResponse({ type: "extension_ui_response", id: "ui-2", value: "x" })).toBe(false);

		const answered = ui.input("I", undefined, { timeout: 500 });
		ui.handleResponse({ type: "extension_ui_response", id: "ui-3", value: "v" });
		expect(await answered).toBe("v");
		expect(timers[1].cleared).toBe(true);

		const controller = new AbortController();
		const aborted = ui.confirm("S", "m", { signal: controller.signal });
		controller.abort();
		expect(await aborted).toBe(false);
		const preAborted = ui.select("P", ["x"], { signal: controller.signal });
		expect(await preAborted).toBeUndefined();

		const open = ui.editor("E");
		ui.close();
		expect(await open).toBeUndefined();
		expect(await ui.input("after close")).toBeUndefined();
		expect(ui.pendingCount).toBe(0);
	});

	it("sends fire-and-forget requests and degrades terminal-only features", async () => {
		const { ui, sent } = bridge();
		ui.notify("hello");
		ui.notify("careful", "warning");
		// Clearing a status the client never got sends nothing.
		ui.setStatus("never-set", undefined);
		ui.setStatus("ext", "working");
		ui.setStatus("ext", undefined);
		ui.setStatus("ext", undefined);
		// Likewise removing a widget the client never got.
		ui.setWidget("never-shown", undefined);
		ui.setWidget("w", ["l1", "l2"], { placement: "belowEditor" });
		ui.setWidget("w", undefined);
		ui.setWidget("w", undefined);
		ui.setWidget("w", () => "a component factory");
		ui.setTitle("pi - test");
		ui.setEditorText("draft");
		ui.pasteToEditor("pasted");
		expect(sent.map(({ id: _id, ...rest }) => rest)).toEqual([
			{ type: "extension_ui_request", method: "notify", message: "hello" },
			{ type: "extension_ui_request", method: "notify", message: "careful", notifyType: "warning" },
			{ type: "extension_ui_request", method: "setStatus", statusKey: "ext", statusText: "working" },
			{ type: "extension_ui_request", method: "setStatus", statusKey: "ext", statusText: undefined },
			{
				type: "extension_ui_request",
				method: "setWidget",
				widgetKey: "w",
				widgetLines: ["l1", "l2"],
				widgetPlacement: "belowEditor",
			},
			{ type: "extension_ui_request", method: "setWidget", widgetKey: "w", widgetLines: undefined },
			{ type: "extension_ui_request", method: "setTitle", title: "pi - test" },
			{ type: "extension_ui_request", method: "set_editor_text", text: "draft" },
			{ type: "extension_ui_request", method: "set_editor_text", text: "pasted" },
		]);
		expect(new Set(sent.map((r) => r.id)).size).toBe(sent.length);
		expect(ui.getEditorText()).toBe("");
		expect(await ui.custom()).toBeUndefined();
		expect(ui.getToolsExpanded()).toBe(false);
		expect(ui.getAllThemes()).toEqual([]);
		expect(ui.getTheme()).toBeUndefined();
		expect(ui.setTheme()).toEqual({ success: false, error: "Theme switching is not supported in RPC mode" });
		expect(sent).toHaveLength(9);
	});
});

/** An in-memory stdout: records what is written; can pretend its buffer is full. */
class FakeSink extends EventEmitter {
	readonly lines: string[] = [];
	full = false;
	write(text: string): boolean {
		this.lines.push(text);
		return !this.full;
	}
	records(): Record<string, unknown>[] {
		return this.lines.map((l) => JSON.parse(l));
	}
}

describe("RpcServer (in process)", () => {
	it("routes extension_ui_response lines to the open dialog and ignores unknown ids", async () => {
		const { session } = await makeSession();
		const sink = new FakeSink();
		const stderr: string[] = [];
		const server = new RpcServer(session, new JsonlWriter(sink), {
			stderr: { write: (t: string) => stderr.push(t) } as unknown as NodeJS.WritableStream,
		});
		const answer = server.ui.select("Allow?", ["Allow", "Block"]);
		const request = sink.records()[0];
		expect(request).toMatchObject({ type: "extension_ui_request", method: "select", title: "Allow?" });
		server.handleLine(JSON.stringify({ type: "extension_ui_response", id: "nope", value: "x" }));
		server.handleLine(JSON.stringify({ type: "extension_ui_response", id: request.id, value: "Block" }));
		expect(await answer).toBe("Block");
		expect(stderr.join("")).toContain("unknown or settled request nope");
		server.handleLine(JSON.stringify({ type: "extension_ui_response", id: 5 }));
		expect(sink.records().at(-1)).toEqual({
			type: "response",
			command: "extension_ui_response",
			success: false,
			error: 'Field "id" must be a string',
		});
		await server.close();
		session.dispose();
	});

	it("holds session events back while the output is full, in order, and loses none", async () => {
		const { session, fake } = await makeSession();
		fake.enqueue({ text: "hello there" });
		const sink = new FakeSink();
		const server = new RpcServer(session, new JsonlWriter(sink));
		sink.full = true;
		server.handleLine(JSON.stringify({ id: "p", type: "prompt", message: "hi" }));
		await new Promise((r) => setTimeout(r, 50));
		// The first event was written and found the buffer full: nothing more until 'drain'.
		const before = sink.records().map((r) => r.type);
		expect(before).toEqual(["response", "agent_start"]);
		sink.full = false;
		sink.emit("drain");
		await session.agent.waitForIdle();
		await server.close();
		const types = sink.records().map((r) => r.type);
		expect(types.slice(0, 3)).toEqual(["response", "agent_start", "turn_start"]);
		expect(types.at(-1)).toBe("agent_settled");
		expect(types.filter((t) => t === "message_end")).toHaveLength(2);
		session.dispose();
	});
});
