// Virtual models registered by an extension file, through the BUILT pi
// (docs/virtual-models.md): they exist from start-up (--list-models, --model,
// a saved default, a resumed session), the router is told why each request is
// made (user / continuation for a custom message / direct for an extension's
// complete()), context usage and compaction use the right limits, and a route
// to a model too small for the conversation compacts first. Build first.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import type { Script } from "../../../ai/test/support/fake-provider/server.js";
import { textReply, toolReply, useRpcSandbox } from "../rpc/support.js";

const ROUTER = resolve(__dirname, "../fixtures/extensions/virtual/router.ts");

/** A text answer that reports `promptTokens` of context used. */
function sized(text: string, promptTokens: number): Script {
	return new ChatStream({ model: "fake-model" })
		.role()
		.text(text)
		.finish("stop")
		.usage({ prompt_tokens: promptTokens, completion_tokens: 10 })
		.done()
		.script();
}

let logFile: string;
const rpc = useRpcSandbox((sb) => {
	sb.writeModels({
		models: [
			{ id: "small", contextWindow: 3000, maxTokens: 500 },
			{ id: "big", contextWindow: 200000, maxTokens: 8000 },
		],
	});
	logFile = join(sb.root, "router.log");
	sb.env.ROUTER_LOG = logFile;
});

function logged(): Record<string, unknown>[] {
	if (!existsSync(logFile)) return [];
	return readFileSync(logFile, "utf8")
		.split("\n")
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

const routes = () => logged().filter((r) => r.route !== undefined);
const usages = () => logged().filter((r) => r.usage !== undefined);
const requestModel = (i: number) => (rpc.sb.fake.requests[i].body as { model: string }).model;

interface Entry {
	type: string;
	provider?: string;
	modelId?: string;
	message?: { role: string; provider?: string; model?: string; content?: unknown; customType?: string };
}

function entries(file: string): Entry[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as Entry);
}

describe("virtual models from an extension file (built CLI)", () => {
	it("exist at start-up: --list-models lists them, --model selects one; the session records the selection and the physical model", async () => {
		const list = await rpc.sb.run(["-e", ROUTER, "--list-models"]);
		expect(list.code).toBe(0);
		expect(list.stdout).toMatch(/^router\s+auto\s+5K\s+700\s+yes\s+yes\s*$/m);
		expect(list.stdout).toMatch(/^fake\s+big\s+200K/m);

		const file = join(rpc.sb.root, "s.jsonl");
		rpc.sb.fake.enqueue(textReply("from big"));
		const r = await rpc.sb.run(["-e", ROUTER, "--model", "router/auto", "--session", file, "-p", "hello"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("from big\n");
		expect(r.code).toBe(0);
		expect(requestModel(0)).toBe("big");
		expect(routes()).toEqual([{ route: "user", level: "high", to: "big" }]);
		const all = entries(file);
		expect(all.find((e) => e.type === "model_change")).toMatchObject({ provider: "router", modelId: "auto" });
		expect(all.find((e) => e.message?.role === "assistant")?.message).toMatchObject({ provider: "fake", model: "big" });

		// json mode: the reply's message_end names the physical model.
		rpc.sb.fake.enqueue(textReply("again from big"));
		const json = await rpc.sb.run(["-e", ROUTER, "--model", "router/auto", "--no-session", "--mode", "json", "hi"]);
		expect(json.code).toBe(0);
		const ends = json.stdout
			.split("\n")
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l) as { type: string; message?: { role: string; provider?: string; model?: string } })
			.filter((e) => e.type === "message_end" && e.message?.role === "assistant");
		expect(ends.map((e) => `${e.message?.provider}/${e.message?.model}`)).toEqual(["fake/big"]);
	}, 120_000);

	it("a saved default and a resumed session select the virtual model; without its extension the session falls back to the model that answered last", async () => {
		writeFileSync(
			join(rpc.sb.agentDir, "settings.json"),
			JSON.stringify({ defaultProvider: "router", defaultModel: "auto" }),
		);
		const file = join(rpc.sb.root, "s.jsonl");
		rpc.sb.fake.enqueue(textReply("first"), textReply("second"), textReply("third"));
		const first = await rpc.sb.run(["-e", ROUTER, "--session", file, "-p", "one #small"]);
		expect(first.stderr).toBe("");
		expect(first.stdout).toBe("first\n");
		expect(requestModel(0)).toBe("small");

		// Resumed: the selection (router/auto) is restored from the session; the router sees the previous response.
		writeFileSync(join(rpc.sb.agentDir, "settings.json"), JSON.stringify({}));
		const resumed = await rpc.sb.run(["-e", ROUTER, "--session", file, "-p", "two"]);
		expect(resumed.stderr).toBe("");
		expect(resumed.stdout).toBe("second\n");
		expect(requestModel(1)).toBe("big");
		expect(routes()).toEqual([
			{ route: "user", level: "high", to: "small" },
			{ route: "user", level: "high", to: "big", previous: "small" },
		]);

		// The extension is gone: the physical model that answered last (fake/big) takes over.
		const without = await rpc.sb.run(["--session", file, "-p", "three"]);
		expect(without.stderr).toBe("");
		expect(without.stdout).toBe("third\n");
		expect(requestModel(2)).toBe("big");
	}, 120_000);

	it("router reasons: a typed prompt is `user`, a tool follow-up and an extension's custom message are `continuation`, ctx.modelRegistry.complete() is `direct`", async () => {
		rpc.sb.fake.enqueue(toolReply("ls", {}), textReply("listed"), textReply("pinged"), textReply("answered directly"));
		const r = await rpc.sb.run([
			"-e",
			ROUTER,
			"--model",
			"router/auto",
			"--no-session",
			"-p",
			"list files",
			"/ping",
			"/direct",
		]);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(routes().map((x) => x.route)).toEqual(["user", "continuation", "continuation", "direct"]);
		// The custom message reached the model as the last (user-role) message of its request.
		const pinged = rpc.sb.fake.requests[2].body as { messages: { role: string; content: unknown }[] };
		expect(JSON.stringify(pinged.messages.at(-1))).toContain("a note from the router test");
		// complete() was routed like a normal request: a physical model answered, with the configured key.
		expect(logged().find((x) => x.direct)).toEqual({
			direct: "fake/big",
			stopReason: "stop",
			text: "answered directly",
		});
		expect(rpc.sb.fake.requests[3].headers.authorization).toBe("Bearer fake-key");
	}, 120_000);

	it("context usage: the declared window before any response, then the window of the physical model that answered (even before the switch)", async () => {
		const fresh = await rpc.sb.run(["-e", ROUTER, "--model", "router/auto", "--no-session", "-p", "/usage"]);
		expect(fresh.code).toBe(0);
		expect(usages()[0]).toMatchObject({ model: "router/auto", usage: { contextWindow: 5000 } });

		// A session answered by fake/small (selected directly), then resumed with the virtual model selected.
		const file = join(rpc.sb.root, "s.jsonl");
		rpc.sb.fake.enqueue(sized("small answer", 900));
		const direct = await rpc.sb.run(["-e", ROUTER, "--model", "fake/small", "--session", file, "-p", "hi"]);
		expect(direct.stdout).toBe("small answer\n");
		const switched = await rpc.sb.run(["-e", ROUTER, "--model", "router/auto", "--session", file, "-p", "/usage"]);
		expect(switched.code).toBe(0);
		expect(usages()[1]).toMatchObject({ model: "router/auto", usage: { contextWindow: 3000, tokens: 910 } });
	}, 120_000);

	it("a route to a model whose window is too small compacts before the request; the route stays as the router chose it", async () => {
		writeFileSync(
			join(rpc.sb.agentDir, "settings.json"),
			JSON.stringify({ compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 1 } }),
		);
		const file = join(rpc.sb.root, "s.jsonl");
		// Turn one on fake/big reports 2600 tokens of context: under big's window, over small's 3000 − 1000.
		rpc.sb.fake.enqueue(sized("a long first answer", 2600));
		const one = await rpc.sb.run(["-e", ROUTER, "--model", "router/auto", "--session", file, "-p", "first question"]);
		expect(one.stdout).toBe("a long first answer\n");
		rpc.sb.fake.enqueue(textReply("## Goal\nthe summary of turn one"), textReply("small answer"));
		const two = await rpc.sb.run(["-e", ROUTER, "--session", file, "-p", "now #small"]);
		expect(two.stderr).toBe("");
		expect(two.stdout).toBe("small answer\n");
		// Requests: turn one (big), the summary (a direct request, routed), turn two (small, compacted context).
		expect(rpc.sb.fake.requests).toHaveLength(3);
		expect(routes().map((x) => `${x.route}:${x.to}`)).toEqual(["user:big", "user:small", "direct:big"]);
		expect(requestModel(2)).toBe("small");
		const sent = JSON.stringify((rpc.sb.fake.requests[2].body as { messages: unknown[] }).messages);
		expect(sent).toContain("the summary of turn one");
		expect(sent).toContain("now #small");
		expect(sent).not.toContain("first question");
		expect(entries(file).filter((e) => e.type === "compaction")).toHaveLength(1);
	}, 120_000);

	it("rpc: set_model selects the virtual model; each reply names the physical model; get_state reports the selection", async () => {
		const p = rpc.spawn(["-e", ROUTER, "--no-session"]);
		const set = await p.call({ type: "set_model", provider: "router", modelId: "auto" });
		expect(set).toMatchObject({ success: true, data: { provider: "router", id: "auto" } });
		rpc.sb.fake.enqueue(textReply("rpc from small"));
		const before = p.records.length;
		expect(await p.call({ type: "prompt", message: "hello #small" })).toMatchObject({ success: true });
		const end = await p.waitFor((r) => r.type === "agent_end" && p.records.indexOf(r) >= before, 30_000);
		const reply = (end.messages as { role: string; provider?: string; model?: string }[]).at(-1);
		expect(reply).toMatchObject({ role: "assistant", provider: "fake", model: "small" });
		const state = await p.call({ type: "get_state" });
		expect(state).toMatchObject({ success: true, data: { model: { provider: "router", id: "auto" } } });
		expect(requestModel(0)).toBe("small");
	}, 120_000);
});
