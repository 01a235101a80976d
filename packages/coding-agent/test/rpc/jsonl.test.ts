// The LF-only JSONL splitter and the stdout guard.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { JsonlSplitter, serializeJsonLine } from "../../src/modes/rpc/jsonl.js";
import { guardStdout } from "../../src/modes/rpc/stdout-guard.js";

function split(chunks: (string | Buffer)[]): string[] {
	const lines: string[] = [];
	const s = new JsonlSplitter((l) => lines.push(l));
	for (const c of chunks) s.push(c);
	s.end();
	return lines;
}

describe("JSONL framing", () => {
	it("splits on LF only, strips one CR, keeps U+2028/U+2029 and a last unterminated line", () => {
		expect(split(["a\u2028b\nc\u2029d\r\ne\r\r\n", "tail"])).toEqual(["a\u2028b", "c\u2029d", "e\r", "tail"]);
		expect(split(["\n\n"])).toEqual(["", ""]);
	});

	it("reassembles multi-byte characters split across chunks", () => {
		const bytes = Buffer.from(`${JSON.stringify({ t: "é\u2028😀" })}\n`, "utf8");
		for (let cut = 1; cut < bytes.length; cut++) {
			expect(split([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([JSON.stringify({ t: "é\u2028😀" })]);
		}
	});

	it("serializes one record per line; lone surrogates escaped, separators raw", () => {
		const text = serializeJsonLine({ s: "x\ud800y\u2028\n" });
		expect(text).toBe('{"s":"x\\ud800y\u2028\\n"}\n');
		expect(text.indexOf("\n")).toBe(text.length - 1);
		expect(JSON.parse(text).s).toBe("x\ud800y\u2028\n");
	});
});

describe("stdout guard", () => {
	it("sends stray stdout writes to stderr while the protocol writes to the real stdout", () => {
		const out: string[] = [];
		const err: string[] = [];
		const stdout = Object.assign(new EventEmitter(), {
			write: (t: string) => out.push(t) > 0,
		}) as unknown as NodeJS.WriteStream;
		const stderr = { write: (t: string) => err.push(t) > 0 } as unknown as NodeJS.WriteStream;
		const guard = guardStdout(stdout, stderr);
		stdout.write("stray log\n");
		guard.sink.write('{"type":"x"}\n');
		guard.restore();
		stdout.write("after\n");
		expect(out).toEqual(['{"type":"x"}\n', "after\n"]);
		expect(err).toEqual(["stray log\n"]);
	});
});
