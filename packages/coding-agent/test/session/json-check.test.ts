// The byte-level JSON check that lets short session lines be indexed without
// parsing (scan.ts) must agree with JSON.parse: a line it accepts parses, and
// a damaged line it rejects takes the parsing path and is warned about. Both
// the WebAssembly module's check and the JavaScript oracle line-scan.test.ts
// compares the module with.
import { describe, expect, it } from "vitest";
import { acquireLineScanner, releaseLineScanner } from "../../src/session/line-scan.js";
import { oracleIsJson } from "./line-scan-oracle.js";

/** The module's check of `b[start, end)`, the bytes copied into its memory. */
function moduleIsJson(b: Uint8Array, start: number, end: number): boolean {
	const scanner = acquireLineScanner();
	if (!scanner) throw new Error("no WebAssembly in this Node");
	try {
		scanner.buffer(b.length).set(b);
		return scanner.isJson(start, end);
	} finally {
		releaseLineScanner(scanner);
	}
}

function parses(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
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

describe.each([
	["the module", moduleIsJson],
	["the JavaScript oracle", oracleIsJson],
])("the JSON check of %s", (_, isJson) => {
	const check = (text: string): boolean => {
		const b = Buffer.from(text);
		return isJson(b, 0, b.length);
	};

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
		expect(isJson(b, 2, b.length - 2)).toBe(true);
		expect(isJson(b, 2, b.length - 3)).toBe(false);
		expect(isJson(b, 1, b.length - 2)).toBe(false);
	});
});
