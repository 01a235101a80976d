// The codemode tool in a real session: the model's script calls tools
// through ctx.executeTool, so extension tool_call handlers (a permission
// gate) see every inner call; parallel calls, deferred tools, searchTools,
// store() across calls and branches, and abort (Esc) while inner calls run.
import type { AgentTool } from "@pi/agent-core";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { createCodemodeExtension } from "../../../src/builtins/codemode/index.js";
import type { CodemodeDetails } from "../../../src/builtins/codemode/tool.js";
import type { ExtensionAPI, ToolCallEvent } from "../../../src/extensions/types.js";
import { sessionWithExtensions } from "../support.js";

function slowTool(started: () => void, aborted: string[]): AgentTool {
	return {
		name: "slow",
		label: "Slow",
		description: "Waits until aborted.",
		parameters: Type.Object({ id: Type.String() }),
		execute: (_id, params, signal) =>
			new Promise((_resolve, reject) => {
				started();
				signal?.addEventListener("abort", () => {
					aborted.push((params as { id: string }).id);
					reject(new Error("slow was aborted"));
				});
			}),
	};
}

function setup(extra: Record<string, (pi: ExtensionAPI) => void> = {}, customTools?: AgentTool[]) {
	const seen: ToolCallEvent[] = [];
	return sessionWithExtensions(
		{
			codemode: createCodemodeExtension(),
			permission: (pi) => {
				pi.on("tool_call", (event) => {
					seen.push(event);
					if ((event.input as { value?: unknown }).value === "forbidden") return { block: true, reason: "not allowed" };
					return undefined;
				});
			},
			weather: (pi) =>
				pi.registerTool({
					name: "weather_lookup",
					label: "Weather",
					description: "Look up the weather forecast for a city",
					parameters: Type.Object({ city: Type.String() }),
					exposure: "deferred",
					async execute(_id, params) {
						return { content: [{ type: "text", text: `sunny in ${params.city}` }] };
					},
				}),
			...extra,
		},
		customTools ? { customTools, tools: customTools.map((t) => t.name) } : {},
	).then((s) => {
		s.session.setActiveToolsByName([...s.session.getActiveToolNames(), "codemode"]);
		return { ...s, seen };
	});
}

function codemodeResults(messages: readonly { role: string }[]) {
	return messages.filter(
		(m) => m.role === "toolResult" && (m as { toolName?: string }).toolName === "codemode",
	) as unknown as {
		content: { type: string; text?: string }[];
		details: CodemodeDetails;
		isError: boolean;
		toolCallId: string;
		nestedCalls?: { calls: { id: string; name: string; status: string }[] };
	}[];
}
const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? "").join("\n");

describe("codemode tool", () => {
	it("runs inner calls in parallel through tool_call handlers, deferred tools included", async () => {
		const s = await setup();
		s.fake.enqueue(
			{
				toolCalls: [
					{
						name: "codemode",
						args: {
							code: `const [a, b] = await Promise.all([tools.echo({ value: "x" }), tools.echo({ value: "y" })]);
const w = await tools.weather_lookup({ city: "Oslo" });
const found = await searchTools("weather forecast");
return { a, b, w, found: found.map((t) => t.name) };`,
						},
					},
				],
			},
			{ text: "done" },
		);
		await s.session.prompt("go");
		const [result] = codemodeResults(s.session.messages);
		expect(result.isError).toBe(false);
		const text = textOf(result);
		expect(text).toMatch(/^Script completed in/);
		expect(JSON.parse(text.slice(text.indexOf("\n") + 1))).toEqual({
			a: "echo:x",
			b: "echo:y",
			w: "sunny in Oslo",
			found: ["weather_lookup"],
		});
		// The permission extension saw the codemode call and each inner call, with ids under the codemode call's.
		const inner = s.seen.filter((e) => e.toolName !== "codemode");
		expect(inner.map((e) => e.toolName).sort()).toEqual(["echo", "echo", "weather_lookup"]);
		for (const e of inner) expect(e.toolCallId.startsWith(`${result.toolCallId}/`)).toBe(true);
		expect(result.details.calls.map((c) => c.status)).toEqual(["ok", "ok", "ok"]);
		expect(result.nestedCalls?.calls.map((c) => c.name).sort()).toEqual(["echo", "echo", "weather_lookup"]);
		// The script's output reached the model; the inner results did not as messages of their own.
		expect(s.session.messages.filter((m) => m.role === "toolResult")).toHaveLength(1);
	});

	it("a call blocked by a tool_call handler rejects inside the script", async () => {
		const s = await setup();
		s.fake.enqueue(
			{
				toolCalls: [
					{
						name: "codemode",
						args: {
							code: `try { await tools.echo({ value: "forbidden" }); } catch (e) { return "blocked: " + e.message; }`,
						},
					},
				],
			},
			{ text: "done" },
		);
		await s.session.prompt("go");
		const [result] = codemodeResults(s.session.messages);
		expect(textOf(result)).toMatch(/blocked: .*not allowed/);
		expect(result.details.calls[0]).toMatchObject({ name: "echo", status: "error" });
	});

	it("models lists the catalog's chat models; classify and generateImages answer with an error result", async () => {
		const s = await setup();
		const code = `
const chat = await models.getModelsOfType("chat");
const one = await models.getModelOfType("chat", chat[0].provider, chat[0].id);
const classifiers = await models.getModelsOfType("classifier");
const images = await models.getAvailableOfType("image");
const verdict = await models.classify(one, { state: {}, questions: {} });
const painted = await models.generateImages({ provider: "nowhere", id: "paint" }, { input: [] });
let bad;
try { await models.getModelsOfType("video"); } catch (e) { bad = e.message; }
return { chat: chat.length, type: one.type, same: one.id === chat[0].id, classifiers, images,
  verdict: [verdict.stopReason, verdict.errorMessage], painted: [painted.stopReason, painted.errorMessage, painted.output], bad };`;
		s.fake.enqueue({ toolCalls: [{ name: "codemode", args: { code } }] }, { text: "ok" });
		await s.session.prompt("go");
		const result = codemodeResults(s.session.messages)[0];
		expect(result.isError).toBe(false);
		const text = textOf(result);
		const out = JSON.parse(text.slice(text.indexOf("\n") + 1));
		expect(out.chat).toBeGreaterThan(0);
		expect(out).toMatchObject({ type: "chat", same: true, classifiers: [], images: [] });
		expect(out.verdict[0]).toBe("error");
		expect(out.verdict[1]).toMatch(/chat models cannot be run from scripts/);
		expect(out.painted).toEqual(["error", "no image model nowhere/paint", []]);
		expect(out.bad).toMatch(/model type must be one of chat, image, classifier/);
	});

	it("store() values follow the branch", async () => {
		const s = await setup();
		s.fake.enqueue(
			{ toolCalls: [{ name: "codemode", args: { code: `store("n", 41); return "stored";` } }] },
			{ text: "ok" },
		);
		await s.session.prompt("first");
		const afterStore = s.sessionManager.getLeafId() as string;
		s.fake.enqueue({ toolCalls: [{ name: "codemode", args: { code: `return load("n") + 1;` } }] }, { text: "ok" });
		await s.session.prompt("second");
		expect(textOf(codemodeResults(s.session.messages)[1])).toMatch(/\n42$/);

		const branch = s.sessionManager.getBranch();
		const firstUser = branch.findIndex((e) => e.type === "message" && e.message.role === "user");
		await s.session.navigateTree(branch[firstUser - 1]?.id as string);
		s.fake.enqueue({ toolCalls: [{ name: "codemode", args: { code: `return String(load("n"));` } }] }, { text: "ok" });
		await s.session.prompt("elsewhere");
		expect(textOf(codemodeResults(s.session.messages).at(-1) ?? { content: [] })).toMatch(/\nundefined$/);
		await s.session.navigateTree(afterStore);
		expect(afterStore).toBeTruthy();
	});

	it("abort stops the script at once and every inner call ends with a result", async () => {
		const aborted: string[] = [];
		let startedCount = 0;
		let s: Awaited<ReturnType<typeof setup>> | undefined;
		const bothStarted = new Promise<void>((resolve) => {
			const started = () => {
				startedCount++;
				if (startedCount === 2) resolve();
			};
			void setup({}, [slowTool(started, aborted)]).then((made) => {
				s = made;
			});
		});
		while (!s) await new Promise((r) => setImmediate(r));
		const session = s;
		session.fake.enqueue(
			{
				toolCalls: [
					{
						name: "codemode",
						args: { code: `await Promise.all([tools.slow({ id: "a" }), tools.slow({ id: "b" })]); while (true) {}` },
					},
				],
			},
			{ text: "unused" },
		);
		const run = session.session.prompt("go");
		await bothStarted;
		await session.session.abort();
		await run;
		expect(aborted.sort()).toEqual(["a", "b"]);
		const [result] = codemodeResults(session.session.messages);
		expect(result.isError).toBe(true);
		expect(textOf(result)).toMatch(/Script failed/);
		expect(result.details.calls.every((c) => c.status !== "running")).toBe(true);
	});
});
