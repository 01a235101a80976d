import { describe, expect, it } from "vitest";
import { JsonFileError, parseJsonWithPosition } from "../../src/config/json-file.js";

function errorOf(text: string): [number, number, string] {
	const r = parseJsonWithPosition(text, "f.json");
	if (!(r instanceof JsonFileError)) throw new Error("expected an error");
	return [r.line, r.column, r.reason];
}

describe("parseJsonWithPosition", () => {
	it("parses valid JSON (with a BOM)", () => {
		expect(parseJsonWithPosition('\ufeff{"a":[1,2,{"b":null}]}', "f")).toEqual({ a: [1, 2, { b: null }] });
	});
	it.each([
		['{"a": 1,}', [1, 9, "trailing comma"]],
		['{\n  "a": 1\n  "b": 2\n}', [3, 3, "expected ',' or '}'"]],
		["{a: 1}", [1, 2, "expected a property name in double quotes"]],
		['{"a": tru}', [1, 10, "unexpected character '}'"]],
		['{"a": "x', [1, 9, "unexpected end of input"]],
		["[1, 2,]", [1, 7, "trailing comma"]],
		["", [1, 1, "empty file, expected a JSON value"]],
		['{"a":1} x', [1, 9, "unexpected content after the JSON value"]],
		['// c\n{"a":1}', [1, 1, "unexpected character '/'"]],
	] as const)("%j → line/column/reason", (text, expected) => {
		expect(errorOf(text)).toEqual(expected);
	});
});
