import { type TSchema, Type } from "typebox";
import { Compile } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { isPlainValid } from "../src/validation-fast.js";

// isPlainValid may say false where TypeBox says true (the caller then asks
// TypeBox), never true where TypeBox says false. Checked over every pair of a
// set of schemas (TypeBox-built and plain JSON Schema) and a pool of values.

const schemas: [string, TSchema | object][] = [
	[
		"read-like",
		Type.Object({
			path: Type.String({ description: "file" }),
			offset: Type.Optional(Type.Integer({ minimum: 1 })),
			limit: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100 })),
		}),
	],
	[
		"edit-like",
		Type.Object({
			path: Type.String(),
			edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() }), { minItems: 1, maxItems: 2 }),
		}),
	],
	["union of literals", Type.Union([Type.Literal("a"), Type.Literal(1), Type.Literal(true), Type.Null()])],
	["enum", Type.Enum(["x", "y"])],
	["closed object", Type.Object({ a: Type.Boolean() }, { additionalProperties: false })],
	["typed extras", Type.Object({ a: Type.Boolean() }, { additionalProperties: Type.Number() })],
	["record (patternProperties)", Type.Record(Type.String(), Type.String())],
	["refined", Type.Refine(Type.String(), (v) => v.length > 3)],
	["string length", Type.String({ minLength: 2 })],
	["pattern", Type.String({ pattern: "^[a-z]+$" })],
	["format", Type.String({ format: "email" })],
	["any", Type.Any()],
	["toString property", Type.Object({ toString: Type.String() })],
	["plain: type list", { type: ["string", "null"] }],
	["plain: object enum", { enum: [{ a: 1 }, "z"] }],
	["plain: oneOf", { oneOf: [{ type: "string" }, { type: "number" }] }],
	["plain: unknown keyword", { type: "object", dependentRequired: { a: ["b"] } }],
	["plain: tuple items", { type: "array", items: [{ type: "string" }] }],
	["plain: required only", { type: "object", required: ["a"] }],
	["plain: number bounds", { type: "number", minimum: 0, exclusiveMaximum: 10 }],
];

const values: unknown[] = [
	undefined,
	null,
	true,
	0,
	1,
	1.5,
	-3,
	10,
	Number.NaN,
	Number.POSITIVE_INFINITY,
	"",
	"a",
	"ab",
	"abcd",
	"x",
	"AB1",
	"me@example.com",
	[],
	["a"],
	["a", "b", "c"],
	[{ oldText: "a", newText: "b" }],
	[{ oldText: "a", newText: "b" }, { oldText: "c" }],
	{},
	{ a: 1 },
	{ a: true },
	{ a: true, b: 2 },
	{ a: true, b: "2" },
	{ a: undefined },
	{ path: "f" },
	{ path: "f", offset: 1, limit: 100 },
	{ path: "f", offset: 0 },
	{ path: "f", offset: 1.5 },
	{ path: "f", limit: 0 },
	{ path: "f", offset: undefined },
	{ path: 3 },
	{ path: "f", edits: [{ oldText: "a", newText: "b" }] },
	{ path: "f", edits: [] },
	{ path: "f", edits: [{ oldText: "a" }] },
	{ toString: "s" },
	{ k: "v", j: "w" },
	{ k: 1 },
	Object.create({ path: "inherited" }),
];

describe("isPlainValid", () => {
	for (const [name, schema] of schemas) {
		it(`never accepts what TypeBox refuses: ${name}`, () => {
			const validator = Compile(schema as TSchema);
			for (const value of values) {
				if (isPlainValid(schema, value))
					expect({ value, typebox: validator.Check(value) }).toEqual({ value, typebox: true });
			}
		});
	}

	it("proves the usual tool calls valid without TypeBox", () => {
		const [, read] = schemas[0];
		const [, edit] = schemas[1];
		expect(isPlainValid(read, { path: "f" })).toBe(true);
		expect(isPlainValid(read, { path: "f", offset: 2, limit: 50 })).toBe(true);
		expect(isPlainValid(edit, { path: "f", edits: [{ oldText: "a", newText: "b" }] })).toBe(true);
		expect(isPlainValid(schemas[2][1], null)).toBe(true);
		expect(isPlainValid(schemas[3][1], "y")).toBe(true);
		expect(isPlainValid(schemas[5][1], { a: true, b: 2 })).toBe(true);
	});

	it("leaves to TypeBox what it does not model", () => {
		for (const name of ["refined", "string length", "pattern", "format", "record (patternProperties)"]) {
			const schema = schemas.find(([n]) => n === name)?.[1];
			expect({ name, fast: values.some((v) => isPlainValid(schema, v)) }).toEqual({ name, fast: false });
		}
	});
});
