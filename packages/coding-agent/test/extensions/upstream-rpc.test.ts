// Upstream 1.6.0's example extensions (test/fixtures/extensions/upstream,
// unmodified) driven through the BUILT `pi --mode rpc`: their dialogs arrive
// as extension_ui_request records and this test answers them as a client
// would. Each test asserts what the example does on 1.6.0. Build first.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GoogleStream } from "../../../ai/test/support/fake-provider/google.js";
import { type RawPi, textReply, toolReply, useRpcSandbox } from "../rpc/support.js";
import { initRepo, stashCommits } from "./git-repo.js";

const UPSTREAM = resolve(__dirname, "../fixtures/extensions/upstream");
const ext = (name: string) => ["-e", join(UPSTREAM, name)];

const rpc = useRpcSandbox();

type Rec = Record<string, unknown>;
/**
 * Sends a prompt that runs an extension command. As 1.6.0, pi answers it ("handled")
 * once the command is done, so a command waiting for a dialog is answered after it.
 */
async function command(p: RawPi, message: string): Promise<Rec> {
	const response = await p.call({ type: "prompt", message });
	expect(response).toMatchObject({ success: true, data: { disposition: "handled" } });
	return response;
}

const uiRequest =
	(method: string, match: (r: Rec) => boolean = () => true) =>
	(r: Rec): boolean =>
		r.type === "extension_ui_request" && r.method === method && match(r);

/** Waits for the next not-yet-answered dialog of `method` and answers it. */
const answered = new Set<unknown>();
async function answer(p: RawPi, method: string, reply: Rec, match?: (r: Rec) => boolean): Promise<Rec> {
	const request = await p.waitFor((r) => !answered.has(r.id) && uiRequest(method, match)(r), 30_000);
	answered.add(request.id);
	p.send(`${JSON.stringify({ type: "extension_ui_response", id: request.id, ...reply })}\n`);
	return request;
}

const notified = (p: RawPi, text: string) =>
	p.waitFor(
		uiRequest("notify", (r) => r.message === text),
		30_000,
	);

/** Tool-result texts the model received in request `i`. */
const toolResults = (i: number) =>
	JSON.stringify(
		(rpc.sb.fake.requests[i].body as { messages: { role: string; content: unknown }[] }).messages
			.filter((m) => m.role === "tool")
			.map((m) => m.content),
	);

describe("upstream examples in rpc mode (built CLI)", () => {
	it("timed-confirm: an unanswered timed dialog auto-cancels server-side; answered ones resolve", async () => {
		const pi = rpc.spawn(["--no-session", ...ext("timed-confirm.ts")]);
		const selecting = command(pi, "/timed-select");
		const select = await answer(pi, "select", { value: "Option B" });
		expect(select).toMatchObject({ title: "Pick an option", options: ["Option A", "Option B", "Option C"] });
		expect(select.timeout).toBe(10_000);
		await notified(pi, "Selected: Option B");
		await selecting;

		const timing = command(pi, "/timed");
		const timed = await pi.waitFor(uiRequest("confirm", (r) => r.timeout === 5000));
		// Nobody answers: the agent side resolves the dialog after its timeout.
		await notified(pi, "Cancelled or timed out");
		expect(answered.has(timed.id)).toBe(false);
		await timing;

		const signalled = command(pi, "/timed-signal");
		await notified(pi, "Dialog will auto-cancel in 5 seconds...");
		await answer(pi, "confirm", { confirmed: true }, (r) => r.timeout === undefined);
		await notified(pi, "Confirmed by user!");
		await signalled;
		expect(rpc.sb.fake.requests).toHaveLength(0);
	}, 60_000);

	it("rpc-demo: title/widget/status on start, a dangerous bash call goes to select, commands use input/editor/prefill", async () => {
		const pi = rpc.spawn(["--no-session", ...ext("rpc-demo.ts")]);
		await pi.waitFor(uiRequest("setTitle", (r) => r.title === "pi RPC Demo"));
		await pi.waitFor(uiRequest("setWidget", (r) => r.widgetKey === "rpc-demo"));
		await pi.waitFor(uiRequest("setStatus", (r) => r.statusText === "Turns: 0"));

		rpc.sb.fake.enqueue(
			toolReply("bash", { command: "sudo rm -rf /tmp/nothing-here" }),
			toolReply("bash", { command: "echo allowed-ran" }),
			textReply("done"),
		);
		await pi.call({ type: "prompt", message: "clean up" });
		await pi.waitFor(uiRequest("setStatus", (r) => r.statusText === "Turn 1 running..."));
		const select = await answer(pi, "select", { value: "Block" });
		expect(select).toMatchObject({
			title: "Dangerous command: sudo rm -rf /tmp/nothing-here",
			options: ["Allow", "Block"],
		});
		await notified(pi, "Command blocked by user");
		await pi.waitFor((r) => r.type === "agent_settled" || r.type === "agent_end");
		await pi.waitFor(uiRequest("setStatus", (r) => r.statusText === "Turn 3 done"));
		expect(toolResults(1)).toContain("Blocked by user");
		expect(toolResults(2)).toContain("allowed-ran");

		const inputting = command(pi, "/rpc-input");
		await answer(pi, "input", { value: "forty-two" }, (r) => r.title === "Enter a value");
		await notified(pi, "You entered: forty-two");
		await inputting;

		const editing = command(pi, "/rpc-editor");
		const editor = await answer(pi, "editor", { value: "a\nb" });
		expect(editor.prefill).toBe("Line 1\nLine 2\nLine 3");
		await notified(pi, "Editor submitted (2 lines)");
		await editing;

		await command(pi, "/rpc-prefill");
		await pi.waitFor(uiRequest("set_editor_text", (r) => r.text === "This text was set by the rpc-demo extension."));
		await notified(pi, "Editor prefilled");
		expect(rpc.sb.fake.requests).toHaveLength(3);
	}, 60_000);

	it("reload-runtime: /reload-runtime (ctx.reload) reloads the extensions in rpc mode from their files", async () => {
		// A second extension whose text changes on disk shows which instance answers.
		const stamp = join(rpc.sb.root, "stamp.ts");
		const write = (generation: string) =>
			writeFileSync(
				stamp,
				`export default function (pi) {\n\tpi.registerCommand("stamp", { handler: async (_a, ctx) => ctx.ui.notify("stamp ${generation}") });\n\tpi.on("session_start", (e, ctx) => ctx.ui.notify("start ${generation} " + e.reason));\n}\n`,
			);
		write("one");
		const pi = rpc.spawn(["--no-session", ...ext("reload-runtime.ts"), "-e", stamp]);
		await notified(pi, "start one startup");
		await pi.call({ type: "prompt", message: "/stamp" });
		await notified(pi, "stamp one");
		write("two");
		await pi.call({ type: "prompt", message: "/reload-runtime" });
		await notified(pi, "start two reload");
		await pi.call({ type: "prompt", message: "/stamp" });
		await notified(pi, "stamp two");
		expect(rpc.sb.fake.requests).toHaveLength(0);

		// The model's reload_runtime tool: the agent_settled handler sends /reload-runtime, which runs once the
		// run has settled (a sendUserMessage from agent_settled starts the next run, as in 1.6.0).
		write("three");
		rpc.sb.fake.enqueue(toolReply("reload_runtime", {}));
		await pi.call({ type: "prompt", message: "reload yourself" });
		await notified(pi, "start three reload");
		await pi.call({ type: "prompt", message: "/stamp" });
		await notified(pi, "stamp three");
		expect(rpc.sb.fake.requests).toHaveLength(1);
	}, 90_000);
});

const sessionFile = async (p: RawPi) => (await p.data({ type: "get_state" })).sessionFile as string;
const forkEntry = async (p: RawPi, text: string) => {
	const { messages } = (await p.data({ type: "get_fork_messages" })) as {
		messages: { entryId: string; text: string }[];
	};
	const found = messages.find((m) => m.text === text);
	expect(found).toBeDefined();
	return found?.entryId as string;
};

describe("upstream session examples in rpc mode (built CLI)", () => {
	it("confirm-destructive: new_session, switch_session and fork ask first; a refusal cancels with a notice", async () => {
		const pi = rpc.spawn(ext("confirm-destructive.ts"));
		rpc.sb.fake.enqueue(textReply("hi there"), textReply("second answer"));
		await pi.promptAndSettle("hello");
		const original = await sessionFile(pi);
		const helloEntry = await forkEntry(pi, "hello");

		// fork: a select; anything but "Yes, create fork" cancels.
		const refusedFork = pi.call({ type: "fork", entryId: helloEntry });
		const select = await answer(pi, "select", { value: "No, stay in current session" });
		expect(select).toMatchObject({
			title: `Fork from entry ${helloEntry.slice(0, 8)}?`,
			options: ["Yes, create fork", "No, stay in current session"],
		});
		await notified(pi, "Fork cancelled");
		expect(await refusedFork).toMatchObject({ success: true, data: { cancelled: true } });
		expect(await sessionFile(pi)).toBe(original);

		// new_session: a confirm; refused, then accepted.
		const refusedNew = pi.call({ type: "new_session" });
		const confirm = await answer(pi, "confirm", { confirmed: false });
		expect(confirm).toMatchObject({
			title: "Clear session?",
			message: "This will delete all messages in the current session.",
		});
		await notified(pi, "Clear cancelled");
		expect(await refusedNew).toMatchObject({ success: true, data: { cancelled: true } });
		expect(await sessionFile(pi)).toBe(original);
		const acceptedNew = pi.call({ type: "new_session" });
		await answer(pi, "confirm", { confirmed: true }, (r) => r.title === "Clear session?");
		expect(await acceptedNew).toMatchObject({ success: true, data: { cancelled: false } });
		const second = await sessionFile(pi);
		expect(second).not.toBe(original);

		// switch_session (reason "resume") from a session with a user message: a confirm.
		await pi.promptAndSettle("second question");
		const refusedSwitch = pi.call({ type: "switch_session", sessionPath: original });
		const ask = await answer(pi, "confirm", { confirmed: false }, (r) => r.title === "Switch session?");
		expect(ask.message).toBe("You have messages in the current session. Switch anyway?");
		await notified(pi, "Switch cancelled");
		expect(await refusedSwitch).toMatchObject({ success: true, data: { cancelled: true } });
		expect(await sessionFile(pi)).toBe(second);
		const acceptedSwitch = pi.call({ type: "switch_session", sessionPath: original });
		await answer(pi, "confirm", { confirmed: true }, (r) => r.title === "Switch session?");
		expect(await acceptedSwitch).toMatchObject({ success: true, data: { cancelled: false } });
		expect(await sessionFile(pi)).toBe(original);

		// An accepted fork goes ahead.
		const acceptedFork = pi.call({ type: "fork", entryId: helloEntry });
		await answer(pi, "select", { value: "Yes, create fork" });
		expect(await acceptedFork).toMatchObject({ success: true, data: { text: "hello", cancelled: false } });
		expect(rpc.sb.fake.requests).toHaveLength(2);
	}, 90_000);

	it("git-checkpoint: stash commits at turn starts; once the run settled they are dropped, so a fork asks nothing", async () => {
		initRepo(rpc.sb.cwd, { "a.txt": "v1\n" });
		// -ne: pi's own builtin:checkpoints would offer its file restore on fork; only the example's behaviour is asked here.
		const pi = rpc.spawn(["-ne", ...ext("git-checkpoint.ts")]);
		rpc.sb.fake.enqueue(
			toolReply("bash", { command: "printf 'v2\\n' > a.txt" }),
			toolReply("bash", { command: "printf 'v3\\n' > a.txt" }),
			textReply("done"),
		);
		await pi.promptAndSettle("change a.txt twice");
		expect(stashCommits(rpc.sb.cwd, "a.txt").map((c) => c.content)).toEqual(["v2\n", "v3\n"]);
		// The extension clears its checkpoints on agent_settled: the fork is not offered a restore.
		const forked = await pi.call({ type: "fork", entryId: await forkEntry(pi, "change a.txt twice") });
		expect(forked).toMatchObject({ success: true, data: { text: "change a.txt twice", cancelled: false } });
		expect(pi.records.filter((r) => r.type === "extension_ui_request" && r.method === "select")).toEqual([]);
		expect(readFileSync(join(rpc.sb.cwd, "a.txt"), "utf8")).toBe("v3\n");
	}, 60_000);

	it("custom-compaction: its summary (from gemini-2.5-flash via modelRegistry.complete) is the compaction entry", async () => {
		// The built-in google provider answers from the fake server (Gemini's wire format).
		const models = JSON.parse(readFileSync(join(rpc.sb.agentDir, "models.json"), "utf8"));
		models.providers.google = { baseUrl: rpc.sb.fake.url };
		writeFileSync(join(rpc.sb.agentDir, "models.json"), JSON.stringify(models));
		rpc.sb.env.GEMINI_API_KEY = "fake-google-key";
		// Keep little, so the earlier exchange is summarized.
		writeFileSync(join(rpc.sb.agentDir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 1 } }));
		const pi = rpc.spawn(ext("custom-compaction.ts"));
		rpc.sb.fake.enqueue(textReply("first answer"), textReply("second answer"));
		await pi.promptAndSettle("first question");
		await pi.promptAndSettle("second question");

		const summary = "## Goals\nAnswer two questions (summarized by the custom compaction).";
		rpc.sb.fake.enqueue(
			new GoogleStream()
				.text(summary)
				.chunk([], "STOP", { promptTokenCount: 321, candidatesTokenCount: 12, totalTokenCount: 333 })
				.script(),
		);
		const result = await pi.data({ type: "compact" });
		await notified(pi, "Custom compaction extension triggered");
		const progress = await pi.waitFor(uiRequest("notify", (r) => String(r.message).startsWith("Custom compaction:")));
		expect(progress.message).toMatch(
			/^Custom compaction: summarizing \d+ messages \([\d,]+ tokens\) with gemini-2\.5-flash\.\.\.$/,
		);
		expect(result.summary).toBe(summary);

		// The summary request went to gemini-2.5-flash with the extension's prompt and the conversation.
		const request = rpc.sb.fake.requests[2];
		expect(request.path).toContain("/models/gemini-2.5-flash:streamGenerateContent");
		const sent = JSON.stringify(request.body);
		expect(sent).toContain("You are a conversation summarizer");
		expect(sent).toContain("first question");
		expect(
			(request.body as { generationConfig?: { maxOutputTokens?: number } }).generationConfig?.maxOutputTokens,
		).toBe(8192);

		// The session file holds the extension's summary, and the next request carries it.
		const file = await sessionFile(pi);
		const compaction = readFileSync(file, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l) as Rec)
			.filter((e) => e.type === "compaction");
		expect(compaction).toHaveLength(1);
		expect(compaction[0]).toMatchObject({
			summary,
			firstKeptEntryId: result.firstKeptEntryId,
			tokensBefore: result.tokensBefore,
		});
		rpc.sb.fake.enqueue(textReply("third answer"));
		await pi.promptAndSettle("third question");
		expect(JSON.stringify(rpc.sb.fake.requests[3].body)).toContain(
			"Answer two questions (summarized by the custom compaction).",
		);
	}, 60_000);
});
