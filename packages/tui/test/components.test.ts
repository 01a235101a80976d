import { afterEach, describe, expect, it, vi } from "vitest";
import { Box } from "../src/components/box.js";
import { CancellableLoader } from "../src/components/cancellable-loader.js";
import { Image } from "../src/components/image.js";
import { Input } from "../src/components/input.js";
import { Loader } from "../src/components/loader.js";
import { Spacer } from "../src/components/spacer.js";
import { Text } from "../src/components/text.js";
import { TruncatedText } from "../src/components/truncated-text.js";
import { MemoryTerminal } from "../src/terminal.js";
import { getPngDimensions, resetCapabilitiesCache, setCapabilities } from "../src/terminal-image.js";
import { TUI } from "../src/tui.js";
import { stripAnsi } from "../src/utils/ansi.js";

// A 2x1 PNG (header is enough for dimensions).
const PNG = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
	Buffer.from("IHDR"),
	Buffer.from([0, 0, 0, 200, 0, 0, 0, 100, 8, 6, 0, 0, 0]),
]).toString("base64");

afterEach(() => resetCapabilitiesCache());

describe("Text, TruncatedText, Spacer, Box", () => {
	it("Text wraps with padding", () => {
		expect(new Text("one two three four", 1, 1).render(10)).toEqual(["", " one two", " three", " four", ""]);
		expect(new Text("", 1, 1).render(10)).toEqual([]);
	});

	it("Text paints a background across the full width, surviving inner resets", () => {
		const bg = (t: string) => `\x1b[44m${t}\x1b[49m`;
		const [line] = new Text("a \x1b[1mb\x1b[0m c", 0, 0, bg).render(8);
		expect(line).toBe("\x1b[44ma \x1b[1mb\x1b[0m\x1b[44m c   \x1b[49m");
	});

	it("Text re-wraps growing output like a fresh render", () => {
		const streamed = new Text("", 0, 0);
		let text = "";
		for (let i = 0; i < 30; i++) {
			text += i % 5 === 4 ? "\n" : `word${i} `;
			if (i === 20) text += "\x1b[31mred part\x1b[0m ";
			streamed.setText(text);
			expect(streamed.render(12)).toEqual(new Text(text, 0, 0).render(12));
		}
		expect(streamed.render(7)).toEqual(new Text(text, 0, 0).render(7));
	});

	it("TruncatedText keeps one line", () => {
		expect(new TruncatedText("a long status line\nsecond").render(10)).toEqual(["a long ..."]);
		expect(new TruncatedText("short", 1, 1).render(10)).toEqual(["", " short", ""]);
	});

	it("Spacer renders empty lines", () => {
		expect(new Spacer(2).render(5)).toEqual(["", ""]);
	});

	it("Box pads children and caches unchanged output", () => {
		const box = new Box(2, 1, (t) => `[${t}]`);
		const text = new Text("hi", 0, 0);
		box.addChild(text);
		const a = box.render(8);
		expect(a).toEqual(["[        ]", "[  hi    ]", "[        ]"]);
		expect(box.render(8)).toBe(a);
		text.setText("yo");
		expect(box.render(8)[1]).toBe("[  yo    ]");
	});
});

describe("Loader", () => {
	it("animates frames and asks for renders", () => {
		vi.useFakeTimers();
		try {
			const tui = new TUI(new MemoryTerminal(20, 5), { minRenderIntervalMs: 0 });
			const spy = vi.spyOn(tui, "requestRender");
			const loader = new Loader(
				tui,
				(s) => s,
				(s) => s,
				"Working",
				{ frames: ["a", "b"], intervalMs: 50 },
			);
			expect(loader.render(20)).toEqual(["", " a Working"]);
			vi.advanceTimersByTime(50);
			expect(loader.render(20)).toEqual(["", " b Working"]);
			loader.setMessage("Done");
			expect(loader.render(20)).toEqual(["", " b Done"]);
			loader.stop();
			vi.advanceTimersByTime(200);
			expect(loader.render(20)).toEqual(["", " b Done"]);
			expect(spy).toHaveBeenCalled();
		} finally {
			vi.useRealTimers();
		}
	});

	it("CancellableLoader aborts on Escape", () => {
		const tui = new TUI(new MemoryTerminal(20, 5));
		const loader = new CancellableLoader(
			tui,
			(s) => s,
			(s) => s,
			"Wait",
		);
		let aborted = 0;
		loader.onAbort = () => aborted++;
		loader.handleInput("x");
		expect(loader.aborted).toBe(false);
		loader.handleInput("\x1b");
		expect(loader.signal.aborted).toBe(true);
		loader.handleInput("\x1b");
		expect(aborted).toBe(1);
		loader.dispose();
	});
});

describe("Image", () => {
	it("reads dimensions from the PNG header", () => {
		expect(getPngDimensions(PNG)).toEqual({ widthPx: 200, heightPx: 100 });
	});

	it("falls back to text without graphics support", () => {
		setCapabilities({ images: null, trueColor: false, hyperlinks: false });
		const img = new Image(PNG, "image/png", { fallbackColor: (s) => s }, { filename: "shot.png" });
		expect(img.render(60)).toEqual(["[Image: shot.png image/png 200x100]"]);
	});

	it("emits Kitty graphics covering the image rows", () => {
		setCapabilities({ images: "kitty", trueColor: true, hyperlinks: true });
		const img = new Image(PNG, "image/png", { fallbackColor: (s) => s }, { imageId: 7 });
		const lines = img.render(80);
		// 200x100 px at 9x18 px cells: 23 columns, 6 rows.
		expect(lines).toHaveLength(6);
		expect(lines.slice(0, 5)).toEqual(["", "", "", "", ""]);
		expect(lines[5]).toMatch(/^\x1b\[5A\x1b_Ga=T,f=100,q=2,c=23,r=6,i=7,C=1;.+\x1b\\\x1b\[5B$/);
	});

	it("emits iTerm2 inline images", () => {
		setCapabilities({ images: "iterm2", trueColor: true, hyperlinks: true });
		const lines = new Image(PNG, "image/png", { fallbackColor: (s) => s }).render(80);
		expect(lines.at(-1)).toMatch(/\x1b\]1337;File=inline=1;width=23;height=6;size=\d+:.+\x07$/);
	});
});

describe("Input", () => {
	it("edits a single line and submits", () => {
		const input = new Input();
		const submitted: string[] = [];
		input.onSubmit = (v) => submitted.push(v);
		for (const k of ["h", "e", "y", "\x1b[D", "\x7f", "\x05", "!", "\r"]) input.handleInput(k);
		expect(submitted).toEqual(["hy!"]);
	});

	it("joins pasted lines, kills and yanks, undoes", () => {
		const input = new Input();
		input.handleInput("\x1b[200~a\nb\x1b[201~");
		expect(input.getValue()).toBe("a b");
		input.handleInput("\x17");
		expect(input.getValue()).toBe("a ");
		input.handleInput("\x01");
		input.handleInput("\x19");
		expect(input.getValue()).toBe("ba ");
		input.handleInput("\x1f");
		expect(input.getValue()).toBe("a ");
	});

	it("scrolls horizontally to keep the cursor visible", () => {
		const input = new Input();
		input.setValue("abcdefghijklmnopqrstuvwxyz");
		const [line] = input.render(12);
		// 10 columns after the prompt: 9 characters and the cursor cell.
		expect(stripAnsi(line)).toBe("> rstuvwxyz ");
		input.handleInput("\x01");
		expect(stripAnsi(input.render(12)[0])).toBe("> abcdefghij");
	});
});

describe("Image in the renderer", () => {
	it("deletes a Kitty image whose rows are rewritten", async () => {
		setCapabilities({ images: "kitty", trueColor: true, hyperlinks: true });
		const term = new MemoryTerminal(40, 20);
		const tui = new TUI(term, { minRenderIntervalMs: 0 });
		const img = new Image(PNG, "image/png", { fallbackColor: (s) => s }, { imageId: 7 });
		tui.addChild(new Text("before", 0, 0));
		tui.addChild(img);
		tui.addChild(new Text("after", 0, 0));
		tui.renderNow();
		expect(term.takeOutput()).toContain("\x1b_Ga=T,f=100,q=2,c=23,r=6,i=7,C=1;");
		tui.removeChild(img);
		tui.renderNow();
		const out = term.takeOutput();
		expect(out).toContain("\x1b_Ga=d,d=I,i=7\x1b\\");
		expect(out).toContain("after");
	});
});
