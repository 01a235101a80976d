import { describe, expect, it } from "vitest";
import { type Component, Container } from "../src/component.js";
import { Input } from "../src/components/input.js";
import { Markdown } from "../src/components/markdown.js";
import { Text } from "../src/components/text.js";
import { TUI } from "../src/tui.js";
import { plainMarkdownTheme } from "./helpers/themes.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

class Lines implements Component {
	constructor(public lines: string[]) {}
	render(): string[] {
		return this.lines.slice();
	}
}

function setup(cols = 20, rows = 5) {
	const term = new VirtualTerminal(cols, rows);
	const tui = new TUI(term, { minRenderIntervalMs: 0 });
	return { term, tui };
}

describe("TUI differential rendering", () => {
	it("first frame writes all lines without clearing", async () => {
		const { term, tui } = setup();
		tui.addChild(new Lines(["hello", "world"]));
		tui.renderNow();
		expect(await term.screen()).toEqual(["hello", "world", "", "", ""]);
		const out = term.takeWrites();
		expect(out.startsWith("\x1b[?2026h")).toBe(true);
		expect(out.endsWith("\x1b[?2026l")).toBe(true);
		expect(out).not.toContain("\x1b[2J");
	});

	it("rewrites only from the first changed line", async () => {
		const { term, tui } = setup();
		const c = new Lines(["aaa", "bbb", "ccc"]);
		tui.addChild(c);
		tui.renderNow();
		term.takeWrites();
		c.lines = ["aaa", "bbb", "CCC", "ddd"];
		tui.renderNow();
		const out = term.takeWrites();
		expect(out).not.toContain("aaa");
		expect(out).not.toContain("bbb");
		expect(out).toContain("CCC");
		expect(await term.screen()).toEqual(["aaa", "bbb", "CCC", "ddd", ""]);
	});

	it("appending to a long line writes only the new tail", async () => {
		const { term, tui } = setup(40, 5);
		const c = new Lines(["first", "the quick brown fox"]);
		tui.addChild(c);
		tui.renderNow();
		term.takeWrites();
		c.lines = ["first", "the quick brown fox jumps"];
		tui.renderNow();
		const out = term.takeWrites();
		expect(out).toContain(" jumps");
		expect(out).not.toContain("quick");
		expect(await term.screen()).toEqual(["first", "the quick brown fox jumps", "", "", ""]);
	});

	it("grows into scrollback and keeps updating the bottom", async () => {
		const { term, tui } = setup(20, 4);
		const c = new Lines([]);
		tui.addChild(c);
		for (let i = 0; i < 10; i++) {
			c.lines = [...c.lines, `line ${i}`];
			tui.renderNow();
		}
		expect(await term.screen()).toEqual(["line 6", "line 7", "line 8", "line 9"]);
		expect((await term.allLines()).slice(0, 3)).toEqual(["line 0", "line 1", "line 2"]);
		expect(tui.fullRedraws).toBe(0);
		c.lines = [...c.lines.slice(0, 9), "line 9 changed"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["line 6", "line 7", "line 8", "line 9 changed"]);
		expect(tui.fullRedraws).toBe(0);
		// A change above the visible rows forces a full redraw.
		c.lines = ["LINE 0", ...c.lines.slice(1)];
		tui.renderNow();
		expect(tui.fullRedraws).toBe(1);
		expect(await term.screen()).toEqual(["line 6", "line 7", "line 8", "line 9 changed"]);
		expect((await term.allLines())[0]).toBe("LINE 0");
	});

	it("clears rows when content shrinks", async () => {
		const { term, tui } = setup(20, 5);
		const c = new Lines(["a", "b", "c", "d"]);
		tui.addChild(c);
		tui.renderNow();
		c.lines = ["a", "B"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["a", "B", "", "", ""]);
		c.lines = ["a", "B", "x"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["a", "B", "x", "", ""]);
		c.lines = ["a"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["a", "", "", "", ""]);
	});
});

describe("TUI streaming, resize, cursor and scheduling", () => {
	it("streaming appends rewrite only the changed tail", async () => {
		const { term, tui } = setup(40, 6);
		const history = new Lines(Array.from({ length: 20 }, (_, i) => `history line ${i}`));
		const msg = new Markdown("", 0, 0, plainMarkdownTheme);
		tui.addChild(history);
		tui.addChild(msg);
		tui.renderNow();
		term.takeWrites();
		let text = "";
		const perFrame: number[] = [];
		for (const tok of "The quick brown fox jumps over the lazy dog and keeps on running far".split(/(?= )/)) {
			text += tok;
			msg.setText(text);
			tui.renderNow();
			perFrame.push(Buffer.byteLength(term.takeWrites()));
		}
		expect(await term.screen()).toEqual([
			"history line 16",
			"history line 17",
			"history line 18",
			"history line 19",
			"The quick brown fox jumps over the lazy",
			"dog and keeps on running far",
		]);
		// A word appended to a line costs the sync brackets plus the word, never the whole screen.
		for (const n of perFrame.slice(1)) expect(n).toBeLessThan(60);
		expect(tui.fullRedraws).toBe(0);
	});

	it("redraws fully on width change and keeps lines within the new width", async () => {
		const { term, tui } = setup(30, 5);
		tui.addChild(new Text("alpha beta gamma delta epsilon zeta eta theta", 0, 0));
		tui.renderNow();
		expect(await term.screen()).toEqual(["alpha beta gamma delta epsilon", "zeta eta theta", "", "", ""]);
		term.resize(16, 5);
		tui.renderNow();
		expect(tui.fullRedraws).toBe(1);
		expect(await term.screen()).toEqual(["alpha beta gamma", "delta epsilon", "zeta eta theta", "", ""]);
		expect(await term.anyWrapped()).toBe(false);
		term.resize(16, 3);
		tui.renderNow();
		expect(tui.fullRedraws).toBe(2);
		expect(await term.screen()).toEqual(["alpha beta gamma", "delta epsilon", "zeta eta theta"]);
	});

	it("truncates a line wider than the terminal", async () => {
		const { term, tui } = setup(10, 3);
		tui.addChild(new Lines(["0123456789ABCDEF", "日本語日本語日本語"]));
		tui.renderNow();
		expect(await term.screen()).toEqual(["0123456789", "日本語日本", ""]);
		expect(await term.anyWrapped()).toBe(false);
	});

	it("appends an SGR (and OSC 8) reset after styled lines", () => {
		const { term, tui } = setup(20, 3);
		tui.addChild(new Lines(["\x1b[31mred", "\x1b]8;;http://x\x1b\\link", "plain"]));
		tui.renderNow();
		const out = term.takeWrites();
		expect(out).toContain("\x1b[31mred\x1b[0m\r\n");
		expect(out).toContain("link\x1b[0m\x1b]8;;\x1b\\\r\n");
		expect(out).toContain("\r\nplain\x1b[?2026l");
	});

	it("places the hardware cursor at the focused component's marker", async () => {
		const { term, tui } = setup(20, 4);
		const input = new Input();
		tui.addChild(new Lines(["title"]));
		tui.addChild(input);
		tui.addChild(new Lines(["footer"]));
		tui.setFocus(input);
		input.handleInput("h");
		input.handleInput("日");
		tui.renderNow();
		// The fake cursor is an inverse-video space after the text.
		expect(await term.screen()).toEqual(["title", "> h日 ", "footer", ""]);
		expect(await term.cursor()).toEqual({ x: 5, y: 1 });
		// The marker itself never reaches the terminal.
		expect(term.takeWrites()).not.toContain("pi:c");
		input.handleInput("\x1b[D");
		tui.renderNow();
		expect(await term.cursor()).toEqual({ x: 3, y: 1 });
	});

	it("coalesces render requests into one frame per tick", async () => {
		const { term, tui } = setup(20, 3);
		const c = new Lines(["a"]);
		tui.addChild(c);
		tui.start();
		for (let i = 0; i < 10; i++) {
			c.lines = [`frame ${i}`];
			tui.requestRender();
		}
		await new Promise((r) => setImmediate(r));
		const frames = term.takeWrites().split("\x1b[?2026h").length - 1;
		expect(frames).toBe(1);
		expect((await term.screen())[0]).toBe("frame 9");
		tui.stop();
	});

	it("throttles frames to the minimum interval", async () => {
		const term = new VirtualTerminal(20, 3);
		const tui = new TUI(term, { minRenderIntervalMs: 30 });
		const c = new Lines(["a"]);
		tui.addChild(c);
		tui.start();
		await new Promise((r) => setImmediate(r));
		// A frame drawn just now: the next request must wait out the interval. (Timed from here, not from a
		// sleep, so a loaded machine cannot stretch the sleep past the interval.)
		tui.renderNow();
		term.takeWrites();
		c.lines = ["b"];
		tui.requestRender();
		await new Promise((r) => setImmediate(r));
		expect(term.takeWrites()).toBe("");
		await new Promise((r) => setTimeout(r, 40));
		expect(term.takeWrites()).toContain("b");
		tui.stop();
	});

	it("routes input to the focused component and stops cleanly", async () => {
		const { term, tui } = setup(20, 3);
		const input = new Input();
		tui.addChild(input);
		tui.setFocus(input);
		tui.start();
		term.typeRaw("hi\x1b[D!");
		expect(input.getValue()).toBe("h!i");
		const seen: string[] = [];
		tui.addInputListener((d) => {
			seen.push(d);
			return d === "x" ? { consume: true } : undefined;
		});
		term.typeRaw("xy");
		expect(seen).toEqual(["x", "y"]);
		expect(input.getValue()).toBe("h!yi");
		await new Promise((r) => setImmediate(r));
		tui.stop();
		const out = term.takeWrites();
		expect(out.endsWith("\r\n\x1b[?25h")).toBe(true);
		expect(await term.cursor()).toEqual({ x: 0, y: 1 });
	});

	it("drops Kitty key releases unless the component wants them", () => {
		const { tui } = setup(20, 3);
		const seen: string[] = [];
		const comp: Component = { render: () => [], handleInput: (d) => seen.push(d) };
		tui.setFocus(comp);
		tui.handleInput("\x1b[97;1:3u");
		tui.handleInput("a");
		expect(seen).toEqual(["a"]);
		comp.wantsKeyRelease = true;
		tui.handleInput("\x1b[97;1:3u");
		expect(seen).toEqual(["a", "\x1b[97;1:3u"]);
	});
});

describe("TUI component contract edge cases", () => {
	it("notices a component that mutates its returned array in place", async () => {
		const { term, tui } = setup(20, 4);
		const lines = ["one", "two"];
		tui.addChild({ render: () => lines });
		tui.addChild(new Lines(["tail"]));
		tui.renderNow();
		lines[0] = "ONE";
		lines.push("three");
		tui.renderNow();
		expect(await term.screen()).toEqual(["ONE", "two", "three", "tail"]);
	});

	it("walks nested containers and handles children moving between frames", async () => {
		const { term, tui } = setup(20, 5);
		const inner = new Container();
		const a = new Lines(["a"]);
		const b = new Lines(["b1", "b2"]);
		inner.addChild(a);
		inner.addChild(b);
		tui.addChild(inner);
		tui.addChild(new Lines(["end"]));
		tui.renderNow();
		inner.removeChild(a);
		inner.addChild(a);
		tui.renderNow();
		expect(await term.screen()).toEqual(["b1", "b2", "a", "end", ""]);
	});

	it("with clear-on-shrink, shrinking content is redrawn to end at the bottom", async () => {
		const { term, tui } = setup(20, 3);
		tui.setClearOnShrink(true);
		expect(tui.getClearOnShrink()).toBe(true);
		const c = new Lines(["1", "2", "3", "4", "5"]);
		tui.addChild(c);
		tui.renderNow();
		c.lines = ["1", "2", "3", "4"];
		tui.renderNow();
		expect(tui.fullRedraws).toBe(1);
		expect(await term.screen()).toEqual(["2", "3", "4"]);
	});

	it("a forced render clears and redraws everything", async () => {
		const { term, tui } = setup(20, 3);
		tui.addChild(new Lines(["x", "y"]));
		tui.renderNow();
		term.takeWrites();
		tui.requestRender(true);
		tui.renderNow();
		expect(term.takeWrites()).toContain("\x1b[3J\x1b[2J\x1b[H");
		expect(await term.screen()).toEqual(["x", "y", ""]);
	});
});

describe("TUI stop and restart", () => {
	it("redraws everything cleanly after a stop/start cycle", async () => {
		const { term, tui } = setup(20, 4);
		const c = new Lines(["one", "two"]);
		tui.addChild(c);
		tui.start();
		tui.renderNow();
		tui.stop();
		// Something else (an external editor, a shell) scribbles on the screen.
		term.write("\x1b[2J\x1b[Hscribble");
		tui.start();
		c.lines = ["one", "two", "three"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["one", "two", "three", ""]);
		tui.stop();
	});
});

describe("TUI scheduling across stop/start", () => {
	it("renders after a restart even if a frame was pending at stop", async () => {
		const term = new VirtualTerminal(20, 3);
		const tui = new TUI(term, { minRenderIntervalMs: 40 });
		const c = new Lines(["a"]);
		tui.addChild(c);
		tui.renderNow();
		tui.start(); // within the interval: the frame waits on a timer
		tui.stop(); // ...which stop() cancels
		term.takeWrites();
		c.lines = ["b"];
		tui.start();
		await new Promise((r) => setTimeout(r, 80));
		expect((await term.screen())[0]).toBe("b");
		tui.stop();
	});
});
