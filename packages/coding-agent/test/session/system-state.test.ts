import type { SystemMessage, Tool } from "@pi/ai";
import { describe, expect, it } from "vitest";
import {
	applySystemMessage,
	diffSystemState,
	emptySystemState,
	getCurrentSystemMessage,
	replaySystemState,
} from "../../src/session/system-state.js";
import { user } from "./helpers.js";

const tool = (name: string, description = name): Tool => ({ name, description, parameters: { type: "object" } });

describe("system prompt and tools as patches", () => {
	const head: SystemMessage = {
		role: "system",
		content: "",
		sections: { base: "B", cwd: "/a" },
		toolsAdded: [tool("read"), tool("write")],
		timestamp: 1,
	};

	it("replays head + patches in order: sections replaced/removed, tools added/removed/redefined", () => {
		const patch: SystemMessage = {
			role: "system",
			content: "extra rule",
			sections: { cwd: "/b", skills: "S", base: null },
			toolsRemoved: [{ name: "write" }, { name: "read" }],
			toolsAdded: [tool("read", "read v2"), tool("grep")],
			timestamp: 2,
		};
		const state = replaySystemState([head, user("q"), patch]);
		expect([...state.sections]).toEqual([
			["cwd", "/b"],
			["skills", "S"],
		]);
		expect([...state.tools.values()].map((t) => `${t.name}:${t.description}`)).toEqual(["read:read v2", "grep:grep"]);
		expect(getCurrentSystemMessage([head, user("q"), patch])).toEqual({
			role: "system",
			content: "extra rule",
			sections: { cwd: "/b", skills: "S" },
			toolsAdded: [tool("read", "read v2"), tool("grep")],
			timestamp: 1,
		});
		expect(getCurrentSystemMessage([user("q")])).toBeUndefined();
	});

	it("diffs the current state against the wanted prompt and tools into one patch (or none)", () => {
		const state = emptySystemState();
		applySystemMessage(state, head);
		expect(diffSystemState(state, { base: "B", cwd: "/a" }, [tool("read"), tool("write")], 5)).toBeUndefined();
		const patch = diffSystemState(
			state,
			{ base: "B", cwd: "/c", skills: "S" },
			[tool("read", "changed"), tool("ls")],
			5,
		);
		expect(patch).toEqual({
			role: "system",
			content: "",
			sections: { cwd: "/c", skills: "S" },
			toolsAdded: [tool("read", "changed"), tool("ls")],
			toolsRemoved: [{ name: "read" }, { name: "write" }],
			timestamp: 5,
		});
		// Applying the patch reaches the wanted state exactly.
		applySystemMessage(state, patch as SystemMessage);
		expect(
			diffSystemState(state, { base: "B", cwd: "/c", skills: "S" }, [tool("read", "changed"), tool("ls")]),
		).toBeUndefined();
		expect(diffSystemState(state, { base: "B" }, [tool("read", "changed"), tool("ls")], 6)).toEqual({
			role: "system",
			content: "",
			sections: { cwd: null, skills: null },
			timestamp: 6,
		});
	});
});
