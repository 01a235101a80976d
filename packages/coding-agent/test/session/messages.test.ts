import { describe, expect, it } from "vitest";
import { type BashExecutionMessage, bashExecutionToText, convertToLlm } from "../../src/messages.js";
import { assistant, user } from "./helpers.js";

const bash = (over: Partial<BashExecutionMessage>): BashExecutionMessage => ({
	role: "bashExecution",
	command: "make",
	output: "built\n",
	exitCode: 0,
	cancelled: false,
	truncated: false,
	timestamp: 5,
	...over,
});

describe("convertToLlm", () => {
	it("renders bash executions exactly as the reference does", () => {
		expect(bashExecutionToText(bash({}))).toBe("Ran `make`\n```\nbuilt\n\n```");
		expect(bashExecutionToText(bash({ output: "" }))).toBe("Ran `make`\n(no output)");
		expect(bashExecutionToText(bash({ exitCode: 2 }))).toBe(
			"Ran `make`\n```\nbuilt\n\n```\n\nCommand exited with code 2",
		);
		expect(bashExecutionToText(bash({ cancelled: true, exitCode: 130 }))).toBe(
			"Ran `make`\n```\nbuilt\n\n```\n\n(command cancelled)",
		);
		expect(bashExecutionToText(bash({ truncated: true, fullOutputPath: "/tmp/o.log" }))).toBe(
			"Ran `make`\n```\nbuilt\n\n```\n\n[Output truncated. Full output: /tmp/o.log]",
		);
	});

	it("leads with the first system message when a legacy branch recorded it after the conversation", () => {
		const u = user("q");
		const a = assistant("a");
		const sys = { role: "system" as const, content: "", sections: { base: "B" }, timestamp: 0 };
		const patch = { role: "system" as const, content: "", sections: { base: "B2" }, timestamp: 0 };
		const u2 = user("q2");
		expect(convertToLlm([u, a, sys, u2, patch])).toEqual([sys, u, a, u2, patch]);
		// A prompt already leading (or a later patch) stays where it is.
		expect(convertToLlm([sys, u, a, patch, u2])).toEqual([sys, u, a, patch, u2]);
		expect(convertToLlm([u, a])).toEqual([u, a]);
	});

	it("maps app roles to user messages, drops !! executions and unknown roles, passes pi-ai roles through", () => {
		const u = user("q");
		const a = assistant("a");
		const sys = { role: "system" as const, content: "sys", timestamp: 0 };
		const out = convertToLlm([
			sys,
			u,
			a,
			bash({}),
			bash({ excludeFromContext: true }),
			{ role: "custom", customType: "x", content: "c", display: true, timestamp: 6 },
			{ role: "custom", customType: "x", content: [{ type: "text", text: "c2" }], display: false, timestamp: 7 },
			{ role: "branchSummary", summary: "B", fromId: "f", timestamp: 8 },
			{ role: "compactionSummary", summary: "C", tokensBefore: 1, timestamp: 9 },
			{ role: "somethingElse" } as never,
		]);
		expect(out[0]).toBe(sys);
		expect(out[1]).toBe(u);
		expect(out[2]).toBe(a);
		expect(out.slice(3)).toEqual([
			{ role: "user", content: [{ type: "text", text: "Ran `make`\n```\nbuilt\n\n```" }], timestamp: 5 },
			{ role: "user", content: [{ type: "text", text: "c" }], timestamp: 6 },
			{ role: "user", content: [{ type: "text", text: "c2" }], timestamp: 7 },
			{
				role: "user",
				content: [
					{
						type: "text",
						text: "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB</summary>",
					},
				],
				timestamp: 8,
			},
			{
				role: "user",
				content: [
					{
						type: "text",
						text: "The conversation history before this point was compacted into the following summary:\n\n<summary>\nC\n</summary>",
					},
				],
				timestamp: 9,
			},
		]);
	});
});
