import { describe, expect, it } from "vitest";
import { StdinBuffer } from "../src/stdin-buffer.js";

function collect(timeout = 5) {
	const buf = new StdinBuffer({ timeout });
	const events: string[] = [];
	buf.on("data", (d) => events.push(d));
	buf.on("paste", (p) => events.push(`PASTE:${p}`));
	return { buf, events };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("StdinBuffer", () => {
	it("splits a read holding several keys", () => {
		const { buf, events } = collect();
		buf.process("ab\r\x1b[A\x1b[1;5C\x03");
		expect(events).toEqual(["a", "b", "\r", "\x1b[A", "\x1b[1;5C", "\x03"]);
	});

	it("joins an escape sequence split across reads", () => {
		const { buf, events } = collect();
		buf.process("\x1b");
		buf.process("[1;");
		buf.process("5C");
		expect(events).toEqual(["\x1b[1;5C"]);
	});

	it("emits a lone Escape after the timeout", async () => {
		const { buf, events } = collect(5);
		buf.process("\x1b");
		expect(events).toEqual([]);
		await wait(20);
		expect(events).toEqual(["\x1b"]);
	});

	it("treats two quick Escapes as two presses", async () => {
		const { buf, events } = collect(5);
		buf.process("\x1b\x1b");
		await wait(20);
		expect(events).toEqual(["\x1b", "\x1b"]);
	});

	it("keeps Alt+key and Kitty sequences whole", () => {
		const { buf, events } = collect();
		buf.process("\x1bb\x1b[99;5u\x1b[13;2u");
		expect(events).toEqual(["\x1bb", "\x1b[99;5u", "\x1b[13;2u"]);
	});

	it("collects a bracketed paste whole, even split", () => {
		const { buf, events } = collect();
		buf.process("x\x1b[20");
		buf.process("0~line 1\nline 2\x1b[A inside\x1b[2");
		buf.process("01~y");
		expect(events).toEqual(["x", "PASTE:line 1\nline 2\x1b[A inside", "y"]);
	});

	it("decodes UTF-8 split across Buffer reads", () => {
		const { buf, events } = collect();
		const bytes = Buffer.from("日😀", "utf8");
		buf.process(bytes.subarray(0, 2));
		buf.process(bytes.subarray(2, 5));
		buf.process(bytes.subarray(5));
		expect(events).toEqual(["日", "😀"]);
	});

	it("keeps grapheme clusters together", () => {
		const { buf, events } = collect();
		buf.process("👨‍👩‍👧e\u0301");
		expect(events).toEqual(["👨‍👩‍👧", "e\u0301"]);
	});

	it("handles OSC replies terminated by ST", () => {
		const { buf, events } = collect();
		buf.process("\x1b]11;rgb:0000/0000/0000\x1b");
		buf.process("\\a");
		expect(events).toEqual(["\x1b]11;rgb:0000/0000/0000\x1b\\", "a"]);
	});

	it("flush returns the pending incomplete sequence", () => {
		const { buf } = collect(1000);
		buf.process("\x1b[1;");
		expect(buf.flush()).toEqual(["\x1b[1;"]);
		expect(buf.getBuffer()).toBe("");
		buf.destroy();
	});
});

describe("StdinBuffer text without escapes", () => {
	// The split before text of single-unit graphemes skipped the segmenter: every run by grapheme
	// cluster, "\r\n" as two keys.
	const bySegmenter = (text: string) => {
		const out: string[] = [];
		for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
			if (segment === "\r\n") out.push("\r", "\n");
			else out.push(segment);
		}
		return out;
	};
	const pieces = [
		"a",
		"Z",
		" ",
		"\r",
		"\n",
		"\r\n",
		"\t",
		"\x03",
		"\x7f",
		"é",
		"ß",
		"…",
		"│",
		"→",
		"e\u0301",
		"👍",
		"👍🏽",
		"中",
		"\u200d",
		"ä",
	];

	it("emits the keys the segmenter's split gives, for 2,000 generated reads", () => {
		let seed = 3;
		const rand = (n: number) => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed % n;
		};
		for (let k = 0; k < 2000; k++) {
			const text = Array.from({ length: 1 + rand(12) }, () => pieces[rand(pieces.length)]).join("");
			const { buf, events } = collect();
			buf.process(text);
			expect(events).toEqual(bySegmenter(text));
		}
	});
});
