// The byte-level JSON check that lets short session lines be indexed without
// parsing (scan.ts) must agree with JSON.parse: a line it accepts parses, and
// a damaged line it rejects takes the parsing path and is warned about.
import { describe, expect, it } from "vitest";
import { isJsonText } from "../../src/session/line-scan.js";

function parses(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

function check(text: string): boolean {
	const b = Buffer.from(text);
	return isJsonText(b, 0, b.length);
}

const LINE = JSON.stringify({
	type: "message",
	id: "0000a1b2",
	parentId: null,
	timestamp: "2026-01-01T00:00:00.000Z",
	message: {
		role: "user",
		content: [{ type: "text", text: 'say "hi" \\ to ☃ and é\n\t\u0001' }],
		timestamp: 1767225602000,
		n: [-1.5e-3, 0, 12, 3.25, true, false, null, {}, []],
	},
});

describe("isJsonText", () => {
	it("agrees with JSON.parse on hand-picked valid and invalid texts", () => {
		const cases = [
			"{}",
			"[]",
			' {"a" : [ 1 , 2 ] } ',
			'{"a":{"b":[true,false,null,-1.5e+3,"\\u00e9\\n"]}}',
			"-0",
			"0.5e-2",
			'"x"',
			"1",
			"false",
			'{"é":"ü"}',
			'{"a":1',
			'{"a":1}}',
			'{"a":"x\\q"}',
			'{"a":tru}',
			'{"a":[1,]}',
			'{"a":1,}',
			"{a:1}",
			'{"a":1}{"b":2}',
			'{"a":01}',
			'{"a":"\u0001"}',
			'{"a":-}',
			'{"a":1.}',
			'{"a":1e}',
			"[1,2",
			'{"a":"b"',
			'{"a":"b\\',
			"nul",
			'{"a":1 "b":2}',
			"[1 2]",
			'{"a":}',
			"{,}",
			"[,1]",
			'{"a":1]',
			"[1}",
			'{"a":"\\u12"}',
			'{"a":"\\u12g4"}',
			"",
			"   ",
			"+1",
			".5",
			"1.5.5",
		];
		for (const text of cases) expect([text, check(text)]).toEqual([text, parses(text)]);
	});

	it("agrees with JSON.parse on every truncation and on single-byte damage of a session line", () => {
		expect(check(LINE)).toBe(true);
		for (let cut = 0; cut < LINE.length; cut++) {
			const text = LINE.slice(0, cut);
			expect([text, check(text)]).toEqual([text, parses(text)]);
		}
		const replacements = ['"', "\\", "{", "}", "[", "]", ",", ":", " ", "x", "0", "\n"];
		for (let i = 0; i < LINE.length; i++) {
			for (const r of replacements) {
				const text = LINE.slice(0, i) + r + LINE.slice(i + 1);
				expect([text, check(text)]).toEqual([text, parses(text)]);
			}
		}
	});

	it("checks only the given byte range", () => {
		const b = Buffer.from(`xx${LINE}yy`);
		expect(isJsonText(b, 2, b.length - 2)).toBe(true);
		expect(isJsonText(b, 2, b.length - 3)).toBe(false);
		expect(isJsonText(b, 1, b.length - 2)).toBe(false);
	});
});
