import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { isKittyProtocolActive } from "../src/keys.js";
import { ProcessTerminal } from "../src/terminal.js";

class FakeStdin extends PassThrough {
	isRaw = false;
	setRawMode(raw: boolean): this {
		this.isRaw = raw;
		return this;
	}
}

class FakeStdout extends PassThrough {
	columns = 100;
	rows = 30;
	written = "";
	override write(chunk: string | Uint8Array): boolean {
		this.written += chunk.toString();
		return true;
	}
}

function setup() {
	const stdin = new FakeStdin();
	const stdout = new FakeStdout();
	const term = new ProcessTerminal({
		stdin: stdin as unknown as NodeJS.ReadStream,
		stdout: stdout as unknown as NodeJS.WriteStream,
		kittyQueryTimeoutMs: 20,
	});
	const inputs: string[] = [];
	let resizes = 0;
	term.start(
		(d) => inputs.push(d),
		() => resizes++,
	);
	return { stdin, stdout, term, inputs, resizes: () => resizes };
}

const tick = () => new Promise((r) => setTimeout(r, 30));

describe("ProcessTerminal", () => {
	it("enters raw mode, enables bracketed paste and queries the Kitty protocol", async () => {
		const { stdin, stdout, term } = setup();
		expect(stdin.isRaw).toBe(true);
		expect(stdout.written).toBe("\x1b[?2004h\x1b[?u");
		expect(term.columns).toBe(100);
		expect(term.rows).toBe(30);
		term.stop();
		expect(stdin.isRaw).toBe(false);
		expect(stdout.written.endsWith("\x1b[?2004l")).toBe(true);
	});

	it("enables the Kitty protocol when the terminal answers, and disables it on stop", async () => {
		const { stdin, stdout, term, inputs } = setup();
		stdin.write("\x1b[?0u");
		await tick();
		expect(term.kittyProtocolActive).toBe(true);
		expect(isKittyProtocolActive()).toBe(true);
		expect(stdout.written).toContain("\x1b[>7u");
		expect(inputs).toEqual([]); // the reply is not a key
		term.stop();
		expect(stdout.written).toContain("\x1b[?2004l\x1b[<u");
		expect(isKittyProtocolActive()).toBe(false);
	});

	it("delivers keys one by one, pastes whole, and resize notices", async () => {
		const { stdin, stdout, term, inputs, resizes } = setup();
		stdin.write("a\x1b[A");
		stdin.write(Buffer.from("\x1b[200~pasted\ntext\x1b[201~"));
		stdout.emit("resize");
		await tick();
		expect(inputs).toEqual(["a", "\x1b[A", "\x1b[200~pasted\ntext\x1b[201~"]);
		expect(resizes()).toBe(1);
		term.stop();
	});

	it("sets the title and progress with OSC sequences", () => {
		const { stdout, term } = setup();
		term.setTitle("pi \x07 title");
		term.setProgress(true);
		term.setProgress(false);
		expect(stdout.written).toContain("\x1b]0;pi  title\x07");
		expect(stdout.written).toContain("\x1b]9;4;3\x07");
		expect(stdout.written).toContain("\x1b]9;4;0\x07");
		term.stop();
	});
});
