// A first frame as data (screen-record.ts) and a TUI adopting a frame already on the screen: the
// bytes of a record draw what the TUI drew, and an adopting TUI writes only what differs from it.
import { describe, expect, it } from "vitest";
import { type Component, CURSOR_MARKER } from "../src/component.js";
import { drawScreenRecord, parseScreenRecord, type ScreenRecord } from "../src/screen-record.js";

const screenRecordBytes = (record: ScreenRecord) => drawScreenRecord(record).bytes;

import { TUI } from "../src/tui.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

class Lines implements Component {
	constructor(public lines: string[]) {}
	render(): string[] {
		return this.lines.slice();
	}
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A TUI started on `term` showing `lines`; resolves once its first frame is drawn. */
async function started(term: VirtualTerminal, lines: string[], adopt?: ScreenRecord, showHardwareCursor = true) {
	const tui = new TUI(term, { minRenderIntervalMs: 0, showHardwareCursor });
	const content = new Lines(lines);
	tui.addChild(content);
	if (adopt) tui.adoptScreen(adopt);
	tui.start();
	await tick();
	return { tui, content };
}

const appLines = [
	"\x1b[1mpi\x1b[22m v1",
	"",
	"\x1b[38;2;98;98;98m──────────\x1b[39m",
	`> hel${CURSOR_MARKER}lo`,
	"\x1b[38;2;98;98;98m──────────\x1b[39m",
	"~/work   fake-model",
];

/** The first frame of a TUI showing `lines`, and that TUI's screen. */
async function recorded(lines: string[], cols = 30, rows = 8) {
	const term = new VirtualTerminal(cols, rows);
	const { tui } = await started(term, lines);
	const record = tui.firstFrame;
	if (!record) throw new Error("no first frame");
	return { record, screen: await term.screen(), writes: term.takeWrites() };
}

describe("screen records", () => {
	it("a TUI keeps its first frame: the rows as written and the cursor's place", async () => {
		const { record } = await recorded(appLines);
		expect(record.width).toBe(30);
		expect(record.height).toBe(8);
		expect(record.lines[3]).toBe("> hello");
		expect(record.cursor).toEqual({ row: 3, col: 5 });
		expect(record.showHardwareCursor).toBe(true);
	});

	it("the bytes of a record draw what the TUI drew, the cursor where it was", async () => {
		const { record, screen, writes } = await recorded(appLines);
		const term = new VirtualTerminal(30, 8);
		term.write(screenRecordBytes(record));
		expect(await term.screen()).toEqual(screen);
		const cursor = term.xterm.buffer.active;
		expect([cursor.cursorY, cursor.cursorX]).toEqual([3, 5]);
		// The same frame as the TUI's own first write (which comes after its terminal set-up).
		expect(writes.endsWith(screenRecordBytes(record).slice("\x1b[?25l".length))).toBe(true);
	});

	it("a TUI adopting the frame on the screen writes no rows when its first frame is the same", async () => {
		const { record, screen } = await recorded(appLines);
		const term = new VirtualTerminal(30, 8);
		term.write(screenRecordBytes(record));
		await term.flush();
		term.takeWrites();
		const { tui, content } = await started(term, appLines, record);
		const writes = term.takeWrites();
		expect(writes).not.toContain("pi");
		expect(writes).not.toContain("fake-model");
		expect(writes).not.toContain("\x1b[?2026h");
		expect(await term.screen()).toEqual(screen);
		expect(tui.firstFrame?.lines).toEqual(record.lines);
		// Later frames diff against the adopted rows as against its own.
		content.lines = [...appLines.slice(0, 5), "~/work   other-model"];
		tui.renderNow();
		const next = term.takeWrites();
		expect(next).toContain("other-model");
		expect(next).not.toContain("pi\x1b[22m v1");
		expect((await term.screen())[5]).toBe("~/work   other-model");
		expect(tui.fullRedraws).toBe(0);
	});

	it("an adopted frame that differs is corrected: the screen ends as the TUI's own frame, nothing of the old one left", async () => {
		const stale = (await recorded(["STALE header", "", "> ", "STALE footer line", "more", "rows", "than now"])).record;
		const fresh = new VirtualTerminal(30, 8);
		await started(fresh, appLines);
		const expected = await fresh.allLines();

		const term = new VirtualTerminal(30, 8);
		term.write(screenRecordBytes(stale));
		await started(term, appLines, stale);
		expect(await term.allLines()).toEqual(expected);
		expect((await term.allLines()).join("\n")).not.toContain("STALE");
		const cursor = term.xterm.buffer.active;
		expect([cursor.cursorY, cursor.cursorX]).toEqual([3, 5]);
	});

	it("a terminal resized since the frame was drawn gets a full redraw", async () => {
		const { record } = await recorded(appLines, 30, 8);
		const term = new VirtualTerminal(30, 8);
		term.write(screenRecordBytes(record));
		await term.flush();
		term.resize(40, 8);
		const { tui } = await started(term, appLines, record);
		expect(tui.fullRedraws).toBe(1);
		const fresh = new VirtualTerminal(40, 8);
		await started(fresh, appLines);
		expect(await term.screen()).toEqual(await fresh.screen());
	});

	it("adoptScreen after start() is ignored", async () => {
		const term = new VirtualTerminal(30, 8);
		const { tui, content } = await started(term, ["one"]);
		const { record } = await recorded(["other"]);
		tui.adoptScreen(record);
		content.lines = ["two"];
		tui.renderNow();
		expect((await term.screen())[0]).toBe("two");
	});

	it("parseScreenRecord takes a stored record back and refuses anything else", async () => {
		const { record } = await recorded(appLines);
		expect(parseScreenRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
		for (const bad of [
			null,
			"x",
			{ ...record, width: 0 },
			{ ...record, height: 2.5 },
			{ ...record, lines: ["a", 1] },
			{ ...record, cursor: { row: "1", col: 0 } },
			{ ...record, showHardwareCursor: undefined },
		])
			expect(parseScreenRecord(bad)).toBeUndefined();
	});
});
