import { describe, expect, it } from "vitest";
import { normalizeContext, renderSystemUpdate, replaySystemState, splitSystemMessages } from "../src/context.js";
import type { Message, SystemMessage, Tool } from "../src/types.js";

const tool = (name: string): Tool => ({ name, description: `${name} tool`, parameters: { type: "object" } });
const user: Message = { role: "user", content: "hi", timestamp: 5 };

describe("normalizeContext", () => {
	it("folds systemPrompt and tools into a leading system message", () => {
		const out = normalizeContext({ systemPrompt: "P", tools: [tool("read")], messages: [user] });
		expect(out.messages).toEqual([{ role: "system", content: "P", toolsAdded: [tool("read")], timestamp: 0 }, user]);
	});

	it("leaves a context without shorthand untouched", () => {
		const messages = [user];
		expect(normalizeContext({ messages }).messages).toBe(messages);
	});

	it("merges with an existing leading system message without mutating it", () => {
		const leading: SystemMessage = {
			role: "system",
			content: [{ type: "text", text: "Own." }],
			sections: { rules: "R" },
			toolsAdded: [tool("bash")],
			timestamp: 3,
		};
		const out = normalizeContext({ systemPrompt: "P", tools: [tool("read")], messages: [leading, user] });
		expect(out.messages[0]).toEqual({
			role: "system",
			content: "P\n\nOwn.",
			sections: { rules: "R" },
			toolsAdded: [tool("read"), tool("bash")],
			timestamp: 3,
		});
		expect(leading.content).toEqual([{ type: "text", text: "Own." }]);
		expect(replaySystemState(out.messages)).toEqual({
			systemPrompt: "P\n\nOwn.\n\nR",
			tools: [tool("read"), tool("bash")],
		});
	});
});

describe("replaySystemState", () => {
	it("appends content, replaces and removes sections, adds and removes tools in order", () => {
		const messages: Message[] = [
			{
				role: "system",
				content: "Base.",
				sections: { a: "A1", b: "B1" },
				toolsAdded: [tool("read"), tool("bash")],
				timestamp: 0,
			},
			user,
			{ role: "system", content: "", sections: { a: "A2", c: "C1" }, toolsRemoved: [{ name: "bash" }], timestamp: 6 },
			{
				role: "system",
				content: "More.",
				sections: { b: null },
				toolsAdded: [tool("grep"), { ...tool("read"), description: "v2" }],
				timestamp: 7,
			},
		];
		expect(replaySystemState(messages)).toEqual({
			systemPrompt: "Base.\n\nMore.\n\nA2\n\nC1",
			tools: [{ ...tool("read"), description: "v2" }, tool("grep")],
		});
	});

	it("is empty without system messages", () => {
		expect(replaySystemState([user])).toEqual({ systemPrompt: "", tools: [] });
	});
});

describe("splitSystemMessages", () => {
	it("returns the replayed state and the transcript without system messages", () => {
		const out = splitSystemMessages([
			{ role: "system", content: "S", timestamp: 0 },
			user,
			{ role: "system", content: "T", toolsAdded: [tool("x")], timestamp: 6 },
		]);
		expect(out).toEqual({ systemPrompt: "S\n\nT", tools: [tool("x")], messages: [user] });
	});
});

describe("a changed tool definition (removed and added in one message)", () => {
	it("replays as the new definition, not as a removal", () => {
		const changed = { ...tool("x"), description: "new x" };
		const state = replaySystemState([
			{ role: "system", content: "S", toolsAdded: [tool("x"), tool("y")], timestamp: 1 },
			{ role: "system", content: "", toolsRemoved: [{ name: "x" }], toolsAdded: [changed], timestamp: 2 },
		]);
		expect(state.tools.map((t) => [t.name, t.description])).toEqual([
			["y", tool("y").description],
			["x", "new x"],
		]);
		expect(
			renderSystemUpdate({
				role: "system",
				content: "",
				toolsRemoved: [{ name: "x" }, { name: "z" }],
				toolsAdded: [changed],
				timestamp: 3,
			}),
		).toBe("(Tools no longer available: z.)");
	});
});

describe("renderSystemUpdate", () => {
	it("states content, new sections, removed sections and removed tools", () => {
		expect(
			renderSystemUpdate({
				role: "system",
				content: "Plan mode.",
				sections: { style: "Be short.", old: null },
				toolsRemoved: [{ name: "write" }, { name: "edit" }],
				timestamp: 1,
			}),
		).toBe(
			'Plan mode.\n\nBe short.\n\n(The "old" instructions no longer apply.)\n\n(Tools no longer available: write, edit.)',
		);
	});
});
