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

describe("ProcessTerminal on a terminal that goes away", () => {
	it("a write failing because the reader is gone (EPIPE) is reported once through onLost; later writes are skipped", async () => {
		// A real socket whose peer closes it (as a terminal's pty does when its window closes): the
		// next writes fail, emitted as an `error` event on the stream (fatal without a listener).
		const { createServer, connect } = await import("node:net");
		const { mkdtempSync, rmSync } = await import("node:fs");
		const { tmpdir } = await import("node:os");
		const { join } = await import("node:path");
		const dir = mkdtempSync(join(tmpdir(), "pi-tui-lost-"));
		const path = join(dir, "s");
		const server = createServer((peer) => peer.destroy());
		await new Promise<void>((r) => server.listen(path, r));
		// Half-open, as a tty stream: the peer's end does not end (and silently destroy) this side.
		const stdout = connect({ path, allowHalfOpen: true });
		await new Promise((r) => stdout.once("connect", r));
		stdout.on("data", () => {});
		try {
			const term = new ProcessTerminal({
				stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
				stdout: stdout as unknown as NodeJS.WriteStream,
			});
			const lost: Error[] = [];
			term.start(
				() => {},
				() => {},
				(e) => lost.push(e),
			);
			for (let i = 0; i < 200 && lost.length === 0; i++) {
				term.write("x".repeat(64 * 1024));
				await new Promise((r) => setImmediate(r));
			}
			expect(["EPIPE", "ECONNRESET"]).toContain((lost[0] as NodeJS.ErrnoException).code);
			expect(term.lost).toBe(lost[0]);
			term.write("more");
			term.stop();
			await tick();
			expect(lost).toHaveLength(1);
		} finally {
			stdout.destroy();
			await new Promise((r) => server.close(r));
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
