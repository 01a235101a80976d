// The built `pi --mode rpc`: model and thinking changes, session commands
// (fork, clone, switch, new, entries, tree), bash, stats and names.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { RpcClient, RpcClientEvent } from "../../src/modes/rpc/rpc-client.js";
import { useCliSandbox } from "../cli/support.js";
import { startClient, textReply } from "./support.js";

let client: RpcClient | undefined;
const sb = useCliSandbox({
	beforeClose: async () => {
		await client?.stop();
		client = undefined;
	},
});

/** Conversation roles (the projected context may also hold system messages). */
async function roles(c: RpcClient): Promise<string[]> {
	return (await c.getMessages()).map((m) => m.role).filter((r) => r !== "system");
}

async function ask(c: RpcClient, text: string): Promise<void> {
	const settled = c.waitForIdle();
	await c.prompt(text);
	await settled;
}

describe("pi --mode rpc: model and thinking", () => {
	beforeEach(() => {
		sb.writeModels({
			models: [
				{ id: "fake-model", contextWindow: 100000 },
				{ id: "fake-think", reasoning: true, contextWindow: 200000 },
			],
		});
	});

	it("switches and cycles models and thinking levels", async () => {
		client = await startClient(sb);
		const events: RpcClientEvent[] = [];
		client.onEvent((e) => events.push(e));
		expect((await client.getAvailableModels()).map((m) => m.id)).toEqual(["fake-model", "fake-think"]);
		expect((await client.getState()).model?.id).toBe("fake-model");
		expect(await client.getAvailableThinkingLevels()).toEqual(["off"]);
		expect(await client.cycleThinkingLevel()).toBeNull();

		const model = await client.setModel("fake", "fake-think");
		expect(model).toMatchObject({ provider: "fake", id: "fake-think", reasoning: true, contextWindow: 200000 });
		expect(await client.getAvailableThinkingLevels()).toEqual(["off", "minimal", "low", "medium", "high"]);
		await client.setThinkingLevel("high");
		expect(await client.getState()).toMatchObject({ model: { id: "fake-think" }, thinkingLevel: "high" });
		expect(await client.cycleThinkingLevel()).toEqual({ level: "off" });
		expect(events.filter((e) => e.type === "thinking_level_changed")).toEqual([
			{ type: "thinking_level_changed", level: "high" },
			{ type: "thinking_level_changed", level: "off" },
		]);

		await expect(client.setModel("fake", "nope")).rejects.toThrow("Model not found: fake/nope");
		const cycled = await client.cycleModel();
		expect(cycled).toMatchObject({ model: { id: "fake-model" }, isScoped: false });
		// A level the model cannot do is clamped: the request succeeds, the state says "off".
		await client.setThinkingLevel("high");
		expect((await client.getState()).thinkingLevel).toBe("off");

		sb.fake.enqueue(textReply("hi"));
		await client.setModel("fake", "fake-think");
		await ask(client, "hello");
		expect((sb.fake.requests[0].body as { model: string }).model).toBe("fake-think");
	});
});

describe("pi --mode rpc: the max thinking level", () => {
	it("set_thinking_level max is sent where the model has it and clamped where it does not", async () => {
		sb.writeModels({
			compat: { supportsDeveloperRole: false, supportsReasoningEffort: true },
			models: [
				{ id: "fake-model", reasoning: true, contextWindow: 100000 },
				{ id: "fake-max", reasoning: true, contextWindow: 100000, thinkingLevelMap: { xhigh: "xhigh", max: "max" } },
			],
		});
		sb.fake.enqueue(textReply("a"), textReply("b"));
		client = await startClient(sb);
		await client.setThinkingLevel("max");
		expect((await client.getState()).thinkingLevel).toBe("high");
		await ask(client, "one");
		await client.setModel("fake", "fake-max");
		expect((await client.getAvailableThinkingLevels()).slice(-3)).toEqual(["high", "xhigh", "max"]);
		await client.setThinkingLevel("max");
		expect((await client.getState()).thinkingLevel).toBe("max");
		await ask(client, "two");
		const efforts = sb.fake.requests.map((r) => (r.body as { reasoning_effort?: string }).reasoning_effort);
		expect(efforts).toEqual(["high", "max"]);
		expect(await client.cycleThinkingLevel()).toEqual({ level: "off" });
	});
});

describe("pi --mode rpc: sessions", () => {
	it("forks, clones, starts and switches sessions; lists entries and the tree", async () => {
		sb.fake.enqueue(textReply("one"), textReply("two"), textReply("three"));
		client = await startClient(sb, []);
		await ask(client, "first");
		await ask(client, "second");
		const original = (await client.getState()).sessionFile;
		expect(original && existsSync(original)).toBe(true);

		const forkable = await client.getForkMessages();
		expect(forkable.map((m) => m.text)).toEqual(["first", "second"]);

		const { entries, leafId } = await client.getEntries();
		expect(entries.at(-1)?.id).toBe(leafId);
		const since = await client.getEntries(forkable[1].entryId);
		expect(since.entries.map((e) => e.type)).toEqual(["message"]);
		await expect(client.getEntries("no-such-entry")).rejects.toThrow("Entry not found: no-such-entry");
		const { tree } = await client.getTree();
		expect(tree).toHaveLength(1);
		expect(tree[0].entry.id).toBe(entries[0].id);

		expect(await client.fork(forkable[1].entryId)).toEqual({ text: "second", cancelled: false });
		const forked = await client.getState();
		expect(forked.sessionFile).not.toBe(original);
		expect(await roles(client)).toEqual(["user", "assistant"]);
		await ask(client, "second again");
		expect(forked.sessionFile && readFileSync(forked.sessionFile, "utf8")).toContain(`"parentSession":"${original}"`);

		expect(await client.clone()).toEqual({ cancelled: false });
		const cloned = await client.getState();
		expect(cloned.sessionFile).not.toBe(forked.sessionFile);
		expect(await roles(client)).toEqual(["user", "assistant", "user", "assistant"]);

		expect(await client.newSession()).toEqual({ cancelled: false });
		const fresh = await client.getState();
		expect(fresh).toMatchObject({ messageCount: 0, isStreaming: false });
		expect(fresh.sessionId).not.toBe(cloned.sessionId);

		expect(await client.switchSession(original as string)).toEqual({ cancelled: false });
		const back = await client.getState();
		expect(back.sessionFile).toBe(original);
		expect(await roles(client)).toEqual(["user", "assistant", "user", "assistant"]);
		await expect(client.fork("no-such-entry")).rejects.toThrow(/Invalid entry ID for forking/);
	});

	it("names the session and reports stats", async () => {
		sb.fake.enqueue(textReply("answer"));
		client = await startClient(sb);
		const named = client.waitForEvent("session_info_changed");
		await client.setSessionName("my work");
		expect(await named).toEqual({ type: "session_info_changed", name: "my work" });
		await expect(client.setSessionName("   ")).rejects.toThrow("Session name cannot be empty");
		await ask(client, "question");
		const stats = await client.getSessionStats();
		expect(stats).toMatchObject({
			userMessages: 1,
			assistantMessages: 1,
			toolCalls: 0,
			tokens: { input: 50, output: 5 },
			contextUsage: { contextWindow: 100000 },
		});
		expect(stats).not.toHaveProperty("sessionFile");
		expect((await client.getState()).sessionName).toBe("my work");
		// export_html: the default name in the working directory, or the given path.
		const exported = await client.exportHtml();
		expect(exported.path).toBe(join(sb.cwd, `pi-session-${(await client.getState()).sessionId}.html`));
		expect(readFileSync(exported.path, "utf8")).toContain("question");
		const named2 = await client.exportHtml(join(sb.cwd, "named.html"));
		expect(named2.path).toBe(join(sb.cwd, "named.html"));
		await expect(client.exportHtml(join(sb.cwd, "missing-dir", "x.html"))).rejects.toThrow(
			`Cannot write ${join(sb.cwd, "missing-dir", "x.html")}: directory ${join(sb.cwd, "missing-dir")} does not exist`,
		);
		// Only the built-in extensions' commands (builtin:mcp's /mcp) are there.
		expect((await client.getCommands()).filter((c) => c.sourceInfo?.source !== "builtin")).toEqual([]);
	});
});

describe("pi --mode rpc: get_commands", () => {
	it("lists prompt templates, then skills (as /skill:name), each with where it came from; /name runs through prompt", async () => {
		const prompts = join(sb.agentDir, "prompts");
		mkdirSync(prompts, { recursive: true });
		writeFileSync(
			join(prompts, "fix-tests.md"),
			"---\ndescription: Fix failing tests\n---\nFix the tests in $1 please\n",
		);
		const skill = join(sb.agentDir, "skills", "pdf-tools");
		mkdirSync(skill, { recursive: true });
		writeFileSync(
			join(skill, "SKILL.md"),
			"---\nname: pdf-tools\ndescription: Work with PDF files\n---\nUse pdftotext.\n",
		);
		const extra = join(sb.root, "review.md");
		writeFileSync(extra, "Review the change carefully\n");
		client = await startClient(sb, ["--no-session", "--prompt-template", extra]);
		// Built-in extensions' commands (/mcp) come first; the resources follow.
		expect((await client.getCommands()).filter((c) => c.sourceInfo?.source !== "builtin")).toEqual([
			{
				name: "review",
				description: "Review the change carefully",
				source: "prompt",
				sourceInfo: { path: extra, source: "cli", scope: "temporary", origin: "top-level" },
			},
			{
				name: "fix-tests",
				description: "Fix failing tests",
				source: "prompt",
				sourceInfo: { path: join(prompts, "fix-tests.md"), source: "local", scope: "user", origin: "top-level" },
			},
			{
				name: "skill:pdf-tools",
				description: "Work with PDF files",
				source: "skill",
				sourceInfo: { path: join(skill, "SKILL.md"), source: "local", scope: "user", origin: "top-level" },
			},
		]);
		sb.fake.enqueue(textReply("fixed"));
		await ask(client, "/fix-tests src/parser");
		expect(JSON.stringify(sb.fake.requests[0].body)).toContain("Fix the tests in src/parser please");
	});
});

describe("pi --mode rpc: bash", () => {
	it("runs a command, streams its output, and sends it with the next prompt", async () => {
		sb.fake.enqueue(textReply("seen"));
		client = await startClient(sb);
		const updates: string[] = [];
		client.onEvent((e) => {
			if (e.type === "bash_execution_update") updates.push(JSON.stringify(e));
		});
		const result = await client.send({ id: "b1", type: "bash", command: "echo hi; echo there >&2; exit 3" });
		expect(result).toEqual({
			id: "b1",
			type: "response",
			command: "bash",
			success: true,
			data: { output: "hi\nthere", exitCode: 3, cancelled: false, truncated: false },
		});
		expect(updates.map((u) => JSON.parse(u).id)).toEqual(updates.map(() => "b1"));
		expect(updates.map((u) => JSON.parse(u).delta).join("")).toBe("hi\nthere\n");
		await ask(client, "what happened?");
		const body = JSON.stringify(sb.fake.requests[0].body);
		expect(body).toContain("Ran `echo hi; echo there >&2; exit 3`");
		expect(body).toContain("hi\\nthere");
	});

	it("abort_bash cancels a running command", async () => {
		client = await startClient(sb);
		const running = client.bash("echo started; sleep 30");
		await client.waitForEvent("bash_execution_update");
		const t0 = Date.now();
		await client.abortBash();
		const result = await running;
		expect(Date.now() - t0).toBeLessThan(3000);
		expect(result).toMatchObject({ output: "started", cancelled: true });
	});
});
