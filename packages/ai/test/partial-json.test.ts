import { parse as parsePartialJson } from "partial-json";
import { describe, expect, it } from "vitest";
import { IncrementalJsonParser } from "../src/partial-json.js";

const documents = [
	'{"path": "src/a.ts", "content": "line 1\\nline \\"2\\"\\t\\u00e9\\ud83d\\ude00 end"}',
	'{"command":"ls -la","timeout":120,"ratio":-1.5e2,"flags":[true,false,null],"nested":{"a":[1,{"b":"c"}],"e":{}},"empty":[]}',
	'{ "edits" : [ { "oldText" : "a\\\\b" , "newText" : "ü/€" } ] , "dry" : false }',
	"{}",
];

function feedAll(pieces: string[]) {
	const parser = new IncrementalJsonParser();
	for (const piece of pieces) parser.feed(piece);
	return parser;
}

describe("IncrementalJsonParser", () => {
	it.each(documents)("ends equal to JSON.parse for every two-piece split of %s", (doc) => {
		for (let at = 0; at <= doc.length; at++) {
			const parser = feedAll([doc.slice(0, at), doc.slice(at)]);
			expect(parser.failed).toBe(false);
			expect(parser.value).toEqual(JSON.parse(doc));
		}
	});

	it.each(documents)("ends equal to JSON.parse when fed one character at a time: %s", (doc) => {
		expect(feedAll([...doc]).value).toEqual(JSON.parse(doc));
	});

	it("shows growing partial values like a whole-prefix parse does, at value boundaries and inside strings", () => {
		const doc = documents[0];
		const parser = new IncrementalJsonParser();
		for (let i = 0; i < doc.length; i++) {
			parser.feed(doc[i]);
			const prefix = doc.slice(0, i + 1);
			// Inside an escape sequence ours holds the pending escape back; partial-json drops a
			// partial string's trailing spaces, ours keeps them.
			if (/\\(u[0-9a-fA-F]{0,3})?$/.test(prefix) || /\s$/.test(prefix)) continue;
			expect(parser.value, prefix).toEqual(parsePartialJson(prefix));
		}
	});

	it("gives the partial objects the streaming tests rely on", () => {
		const parser = new IncrementalJsonParser();
		const seen: unknown[] = [];
		for (const piece of ['{"pa', 'th": "src/', 'a.ts"', "}"]) {
			parser.feed(piece);
			seen.push(structuredClone(parser.value));
		}
		expect(seen).toEqual([{}, { path: "src/" }, { path: "src/a.ts" }, { path: "src/a.ts" }]);
	});

	it("fails on non-object or malformed input so callers can fall back", () => {
		expect(feedAll(["[1,2]"]).failed).toBe(true);
		expect(feedAll(['{"a" 1}']).failed).toBe(true);
		expect(feedAll(['{"a": tru', "x}"]).failed).toBe(true);
		expect(feedAll(['{"a": 1}', "x"]).failed).toBe(true);
		expect(feedAll(['{"a": "\\q"}']).failed).toBe(true);
	});

	it("keeps __proto__ as an own property, like JSON.parse", () => {
		const value = feedAll(['{"__proto__": {"polluted": true}}']).value;
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(Object.keys(value)).toEqual(["__proto__"]);
	});

	it("stays linear for 10k tiny deltas of one long string argument", () => {
		const parser = new IncrementalJsonParser();
		parser.feed('{"path":"big.txt","content":"');
		const started = performance.now();
		for (let i = 0; i < 10_000; i++) parser.feed("abcdefgh");
		parser.feed('"}');
		expect((parser.value.content as string).length).toBe(80_000);
		expect(performance.now() - started).toBeLessThan(500);
	});
});
