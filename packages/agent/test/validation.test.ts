import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { validateArguments } from "../src/validation.js";

const schema = Type.Object({
	count: Type.Number(),
	index: Type.Optional(Type.Integer()),
	name: Type.Optional(Type.String()),
	flag: Type.Optional(Type.Boolean()),
	tags: Type.Optional(Type.Array(Type.Integer())),
	nested: Type.Optional(Type.Object({ depth: Type.Number() })),
	choice: Type.Optional(Type.Union([Type.Number(), Type.Literal("auto")])),
});

function check(args: unknown) {
	return validateArguments("t", schema, args);
}

describe("validateArguments", () => {
	it("passes valid arguments through unchanged (same object)", () => {
		const args = { count: 1, name: "x" };
		const result = check(args);
		expect(result.ok && result.value).toBe(args);
	});

	it("applies only safe coercions, without mutating the input", () => {
		const args = {
			count: " 2.5 ",
			index: "3",
			name: 7,
			flag: "FALSE",
			tags: ["1", 2],
			nested: '{"depth":"4"}',
			choice: "9",
		};
		const snapshot = structuredClone(args);
		const result = check(args);
		expect(result).toEqual({
			ok: true,
			value: { count: 2.5, index: 3, name: "7", flag: false, tags: [1, 2], nested: { depth: 4 }, choice: 9 },
		});
		expect(args).toEqual(snapshot);
	});

	it("drops null for optional fields that do not allow it", () => {
		expect(check({ count: 1, name: null, flag: null })).toEqual({ ok: true, value: { count: 1 } });
	});

	const unsafe: [string, unknown][] = [
		["empty string for a number", { count: "" }],
		["null for a required number", { count: null }],
		["boolean for a number", { count: true }],
		["fraction for an integer", { count: 1, index: 1.5 }],
		["fractional text for an integer", { count: 1, index: "1.5" }],
		["word for a boolean", { count: 1, flag: "yes" }],
		["object for a string", { count: 1, name: {} }],
		["hex text for a number", { count: "0x10" }],
		["unit text for a number", { count: "5px" }],
	];
	for (const [label, args] of unsafe) {
		it(`refuses ${label}`, () => {
			expect(check(args).ok).toBe(false);
		});
	}

	it("lists every problem with its path and the arguments received", () => {
		const result = check({ count: "many", tags: [1, "x"], nested: { depth: "deep" } });
		expect(result).toEqual({
			ok: false,
			message: [
				'Validation failed for tool "t":',
				"  - count: must be number",
				"  - tags.1: must be integer",
				"  - nested.depth: must be number",
				"",
				"Received arguments:",
				JSON.stringify({ count: "many", tags: [1, "x"], nested: { depth: "deep" } }, null, 2),
			].join("\n"),
		});
	});

	it("works with plain JSON Schema objects too", () => {
		const plain = {
			type: "object",
			properties: { path: { type: "string" }, limit: { type: "integer" } },
			required: ["path"],
		};
		expect(validateArguments("read", plain, { path: "a", limit: "10" })).toEqual({
			ok: true,
			value: { path: "a", limit: 10 },
		});
		const missing = validateArguments("read", plain, {});
		expect(missing.ok).toBe(false);
		expect(!missing.ok && missing.message.split("\n")[1]).toBe("  - (root): must have required properties path");
	});
});
