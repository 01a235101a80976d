import { describe, expect, it } from "vitest";
import { lineAndColumn, parseJsonc } from "../src/models/jsonc.js";

function errorOf(text: string) {
	const r = parseJsonc(text);
	if (r.ok) throw new Error(`expected a parse error for ${JSON.stringify(text)}`);
	return r.error;
}

describe("parseJsonc", () => {
	it("parses plain JSON exactly like JSON.parse", () => {
		const samples = [
			'{"a":1,"b":[true,false,null],"c":{"d":"e\\n\\u00e9\\"\\\\/"},"n":-1.5e+3}',
			"[]",
			"{}",
			'"just a string"',
			"0",
			' \n\t{ "x" : [ 1 , 2 ] } \r\n',
			'{"dup":1,"dup":2}',
		];
		for (const s of samples) expect(parseJsonc(s)).toEqual({ ok: true, value: JSON.parse(s) });
	});

	it("accepts line and block comments and trailing commas", () => {
		const text = `// models for the local box
{
  /* the server */ "providers": {
    "ollama": {
      "baseUrl": "http://localhost:11434/v1", // default port
      "models": [ { "id": "a//b" }, { "id": "c/*d*/" }, ],
    },
  },
}
/* trailing comment */`;
		expect(parseJsonc(text)).toEqual({
			ok: true,
			value: {
				providers: { ollama: { baseUrl: "http://localhost:11434/v1", models: [{ id: "a//b" }, { id: "c/*d*/" }] } },
			},
		});
	});

	it("skips a byte-order mark", () => {
		expect(parseJsonc('\ufeff{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
	});

	it("keeps __proto__ as an own property, like JSON.parse", () => {
		const r = parseJsonc('{"__proto__": {"polluted": true}}');
		expect(r.ok).toBe(true);
		const value = (r as { value: Record<string, unknown> }).value;
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(Object.keys(value)).toEqual(["__proto__"]);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it("reports line and column of syntax errors", () => {
		expect(errorOf('{\n  "a": 1\n  "b": 2\n}')).toEqual({
			message: "unexpected '\"', expected ',' or '}'",
			offset: 13,
			line: 3,
			column: 3,
		});
		expect(errorOf('{\n  "a": ,\n}')).toMatchObject({
			line: 2,
			column: 8,
			message: "unexpected ',', expected a value",
		});
		expect(errorOf("{ a: 1 }")).toMatchObject({
			line: 1,
			column: 3,
			message: "unexpected 'a', expected a property name in double quotes or '}'",
		});
		expect(errorOf('{"a": [1, 2')).toMatchObject({
			line: 1,
			column: 12,
			message: "unexpected end of input, expected ',' or ']'",
		});
		expect(errorOf('{"a": "x\ny"}')).toMatchObject({
			line: 1,
			column: 9,
			message: "line break or control character inside a string",
		});
		expect(errorOf('{"a": "x}')).toMatchObject({ line: 1, column: 7, message: "unterminated string" });
		expect(errorOf('{"a": "\\q"}')).toMatchObject({ column: 8, message: "invalid escape \\q" });
		expect(errorOf('{"a": 1} x')).toMatchObject({ column: 10, message: "unexpected 'x' after the JSON value" });
		expect(errorOf("{ /* open")).toMatchObject({ column: 3, message: "unterminated /* comment" });
		expect(errorOf("   ")).toMatchObject({ line: 1, column: 4, message: "empty input, expected a JSON value" });
		expect(errorOf('{"a": -x}')).toMatchObject({ column: 8, message: "unexpected 'x' in a number" });
		expect(errorOf('{"a": tru}')).toMatchObject({ column: 7, message: "unexpected 't', expected a value" });
		expect(errorOf("[1,,2]")).toMatchObject({ column: 4, message: "unexpected ',', expected a value" });
	});

	it("refuses absurd nesting instead of overflowing the stack", () => {
		expect(errorOf("[".repeat(100_000))).toMatchObject({ message: "nested too deeply" });
	});

	it("maps offsets to 1-based line and column", () => {
		expect(lineAndColumn("ab\ncd\n", 0)).toEqual({ line: 1, column: 1 });
		expect(lineAndColumn("ab\ncd\n", 4)).toEqual({ line: 2, column: 2 });
		expect(lineAndColumn("ab\ncd\n", 6)).toEqual({ line: 3, column: 1 });
	});
});
