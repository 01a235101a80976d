// Declared vs callable: `prepareLoadout` lets an active tool hide other
// tools' declarations (they stay active and callable through
// ctx.executeTool) and replace descriptions. codemode uses it for
// `codemode.mode`: "only" declares just codemode (listing the others in its
// description), "on" keeps the others declared with a note on calling them
// from scripts. What is asserted is what the request really declares: the
// shorthand tools plus the recorded system messages, replayed.
import { replaySystemState } from "@pi/ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { createCodemodeExtension } from "../../../src/builtins/codemode/index.js";
import type { ExtensionAPI } from "../../../src/extensions/types.js";
import { requestTools, sessionWithExtensions } from "../support.js";

const textOf = (m: { content: unknown }) =>
	(m.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");

function extensions(extra: Record<string, (pi: ExtensionAPI) => void> = {}) {
	return {
		codemode: createCodemodeExtension(),
		asker: (pi: ExtensionAPI) =>
			pi.registerTool({
				name: "ask_user",
				label: "Ask",
				description: "Asks the user a question.",
				parameters: Type.Object({ question: Type.String() }),
				exposure: "model-only",
				async execute() {
					return { content: [{ type: "text", text: "yes" }] };
				},
			}),
		notes: (pi: ExtensionAPI) =>
			pi.registerTool({
				name: "note_add",
				label: "Note",
				description: "Adds a note to the project notebook.",
				promptGuidelines: ["Keep notes under one line."],
				parameters: Type.Object({ text: Type.String() }),
				exposure: "codemode",
				async execute(_id, params) {
					return { content: [{ type: "text", text: `noted ${params.text}` }] };
				},
			}),
		...extra,
	};
}

async function activeCodemode(settings: Record<string, unknown>, extra?: Record<string, (pi: ExtensionAPI) => void>) {
	const s = await sessionWithExtensions(extensions(extra), { settings });
	s.session.setActiveToolsByName([...s.session.getActiveToolNames(), "codemode"]);
	return s;
}

describe("codemode.mode and prepareLoadout", () => {
	it('"only" declares codemode alone; the script still calls the hidden tools', async () => {
		const s = await activeCodemode({ codemode: { mode: "only" } });
		s.fake.enqueue(
			{
				toolCalls: [
					{
						name: "codemode",
						args: { code: `return [await tools.echo({ value: "a" }), await tools.note_add({ text: "b" })];` },
					},
				],
			},
			{ text: "done" },
		);
		await s.session.prompt("go");

		for (const call of s.fake.calls) {
			const declared = requestTools(call);
			// model-only tools are never callable from scripts, so they stay declared.
			expect(declared.map((t) => t.name).sort()).toEqual(["ask_user", "codemode"]);
			const codemode = declared.find((t) => t.name === "codemode");
			// Its description lists what the scripts can call instead: echo (active, hidden) and note_add (codemode
			// exposure) with their declarations and guidelines; ask_user (model-only) is not callable.
			expect(codemode?.description).toContain("tools.echo(");
			expect(codemode?.description).toContain("tools.note_add(");
			expect(codemode?.description).toContain("Keep notes under one line.");
			expect(codemode?.description).not.toContain("tools.ask_user(");
		}
		// The recorded system prompt lists only the declared tools.
		const prompt = replaySystemState(s.fake.calls[0].messages).systemPrompt;
		expect(prompt).toMatch(/codemode/);
		expect(prompt).not.toMatch(/\becho\b/);
		// echo is still active (getActiveTools) and callable: the script's calls succeeded.
		expect(s.session.getActiveToolNames()).toContain("echo");
		const result = s.session.messages.find((m) => m.role === "toolResult");
		const text = result ? textOf(result) : "";
		expect(JSON.parse(text.slice(text.indexOf("\n") + 1))).toEqual(["echo:a", "noted b"]);
		expect((result as { isError?: boolean }).isError).toBe(false);
	});

	it('"on" keeps the other tools declared, each saying it is callable from scripts', async () => {
		const s = await activeCodemode({});
		s.fake.enqueue({ text: "ok" });
		await s.session.prompt("go");
		const declared = requestTools(s.fake.calls[0]);
		expect(declared.map((t) => t.name).sort()).toEqual(["ask_user", "codemode", "echo"]);
		const echo = declared.find((t) => t.name === "echo");
		expect(echo?.description).toBe("Echoes its input.\n\nAlso callable from codemode scripts as tools.echo(args).");
		// model-only tools cannot be called from scripts: no note.
		expect(declared.find((t) => t.name === "ask_user")?.description).toBe("Asks the user a question.");
		// The codemode description lists note_add (codemode exposure, not declared), not echo (declared).
		const codemode = declared.find((t) => t.name === "codemode");
		expect(codemode?.description).toContain("tools.note_add(");
		expect(codemode?.description).not.toContain("tools.echo(");
	});

	it("switching the mode off again (codemode deactivated) restores the plain declarations", async () => {
		const s = await activeCodemode({ codemode: { mode: "only" } });
		s.fake.enqueue({ text: "one" }, { text: "two" });
		await s.session.prompt("first");
		s.session.setActiveToolsByName(s.session.getActiveToolNames().filter((n) => n !== "codemode"));
		await s.session.prompt("second");
		const second = requestTools(s.fake.calls[1]);
		expect(second.map((t) => t.name).sort()).toEqual(["ask_user", "echo"]);
		expect(second.find((t) => t.name === "echo")?.description).toBe("Echoes its input.");
	});

	it("any extension tool can shape the loadout; a throwing hook is reported and changes nothing", async () => {
		const s = await sessionWithExtensions({
			shaper: (pi) =>
				pi.registerTool({
					name: "orchestrate",
					label: "Orchestrate",
					description: "Runs plans.",
					parameters: Type.Object({}),
					prepareLoadout: (loadout) => ({
						hiddenDeclarations: loadout.declared.filter((t) => t.name !== "orchestrate").map((t) => t.name),
						descriptions: {
							orchestrate: `Runs plans over: ${loadout.callable
								.filter((t) => t.name !== "orchestrate")
								.map((t) => t.name)
								.join(", ")}`,
						},
					}),
					async execute() {
						return { content: [{ type: "text", text: "" }] };
					},
				}),
			broken: (pi) =>
				pi.registerTool({
					name: "broken",
					label: "Broken",
					description: "Breaks.",
					parameters: Type.Object({}),
					prepareLoadout: () => {
						throw new Error("loadout exploded");
					},
					async execute() {
						return { content: [{ type: "text", text: "" }] };
					},
				}),
		});
		s.fake.enqueue({ text: "a" }, { text: "b" });
		await s.session.prompt("go");
		await s.session.prompt("again");
		const declared = requestTools(s.fake.calls[0]);
		expect(declared.map((t) => t.name)).toEqual(["orchestrate"]);
		expect(declared[0].description).toBe("Runs plans over: echo, broken");
		// Reported once, naming the tool, however many requests ran.
		const reports = s.errors.filter((e) => e.error.includes("loadout exploded"));
		expect(reports).toHaveLength(1);
		expect(reports[0].event).toBe("prepareLoadout (broken)");
	});

	it("prepareLoadout runs when the active tools, the registered tools or its loadoutKey change, not per request", async () => {
		let runs = 0;
		let key = "a";
		let api: ExtensionAPI | undefined;
		const counted = (pi: ExtensionAPI) => {
			api = pi;
			pi.registerTool({
				name: "orchestrate",
				label: "Orchestrate",
				description: "Runs plans.",
				parameters: Type.Object({}),
				prepareLoadout: () => {
					runs++;
					return { descriptions: { orchestrate: `Runs plans (${key}).` } };
				},
				loadoutKey: () => key,
				async execute() {
					return { content: [{ type: "text", text: "ran" }] };
				},
			});
		};
		const s = await sessionWithExtensions({ counted });
		// One prompt, three requests (two tool calls, then the answer): one run.
		s.fake.enqueue(
			{ toolCalls: [{ name: "echo", args: { value: "1" } }] },
			{ toolCalls: [{ name: "orchestrate", args: {} }] },
			{ text: "done" },
		);
		await s.session.prompt("go");
		expect(s.fake.calls).toHaveLength(3);
		expect(runs).toBe(1);
		for (const call of s.fake.calls) {
			expect(requestTools(call).find((t) => t.name === "orchestrate")?.description).toBe("Runs plans (a).");
		}

		// The active tools change: one more run, then none while nothing changes.
		s.session.setActiveToolsByName(s.session.getActiveToolNames().filter((n) => n !== "echo"));
		s.fake.enqueue({ text: "x" }, { text: "y" });
		await s.session.prompt("two");
		await s.session.prompt("three");
		expect(runs).toBe(2);

		// A tool registered again (as MCP does after a tools/list_changed notice): one more.
		api?.registerTool({
			name: "late",
			label: "Late",
			description: "Arrived later.",
			parameters: Type.Object({}),
			exposure: "codemode",
			async execute() {
				return { content: [{ type: "text", text: "" }] };
			},
		});
		s.fake.enqueue({ text: "z" });
		await s.session.prompt("four");
		expect(runs).toBe(3);

		// What the hook reads besides the loadout (its key) changes: one more, and the request shows it.
		key = "b";
		s.fake.enqueue({ text: "w" });
		await s.session.prompt("five");
		expect(runs).toBe(4);
		const last = s.fake.calls[s.fake.calls.length - 1];
		expect(requestTools(last).find((t) => t.name === "orchestrate")?.description).toBe("Runs plans (b).");
	});

	it('"only" leaves out direct MCP tools too and lists them in the codemode description', async () => {
		const s = await activeCodemode(
			{ codemode: { mode: "only" } },
			{
				mcp: (pi) =>
					pi.registerTool({
						name: "mcp__docs__search",
						label: "docs: search",
						description: "Search the product documentation.",
						parameters: Type.Object({ query: Type.String() }),
						exposure: "direct",
						namespace: { name: "mcp__docs", aliases: ["docs"] },
						async execute() {
							return { content: [{ type: "text", text: "found" }] };
						},
					}),
			},
		);
		s.fake.enqueue({ text: "ok" });
		await s.session.prompt("go");
		const declared = requestTools(s.fake.calls[0]);
		expect(declared.map((t) => t.name).sort()).toEqual(["ask_user", "codemode"]);
		expect(declared.find((t) => t.name === "codemode")?.description).toContain("tools.mcp__docs__search(");
		expect(s.session.getActiveToolNames()).toContain("mcp__docs__search");
	});
});
