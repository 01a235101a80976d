// A LoginInteraction for a plain terminal (`pi auth login`): notices go to
// stderr, answers are read line by line from stdin, secrets without echo when
// stdin is a terminal. Ctrl+C cancels the login.
import { createInterface, type Interface } from "node:readline";
import type { LoginInteraction, LoginNotice, LoginPrompt } from "../../auth/interaction.js";
import { openBrowser } from "../../auth/open-browser.js";
import type { CommandIo } from "./io.js";

export interface TerminalLogin extends LoginInteraction {
	close(): void;
}

export function terminalLogin(io: CommandIo, options: { browser: boolean }): TerminalLogin {
	const controller = new AbortController();
	const input = io.stdin;
	let rl: Interface | undefined;
	const lines: string[] = [];
	const waiters: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
	let ended = false;
	const reader = () => {
		if (rl) return rl;
		rl = createInterface({ input, terminal: false });
		rl.on("line", (line) => {
			const waiter = waiters.shift();
			if (waiter) waiter.resolve(line);
			else lines.push(line);
		});
		rl.on("close", () => {
			ended = true;
			for (const w of waiters.splice(0)) w.reject(new Error("No more input on stdin"));
		});
		return rl;
	};
	const readLine = (): Promise<string> => {
		reader();
		const queued = lines.shift();
		if (queued !== undefined) return Promise.resolve(queued);
		if (ended) return Promise.reject(new Error("No more input on stdin"));
		return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
	};
	const readSecret = (): Promise<string> => {
		const tty = input as NodeJS.ReadStream;
		if (!tty.isTTY || typeof tty.setRawMode !== "function") return readLine();
		return new Promise((resolve, reject) => {
			let value = "";
			tty.setRawMode(true);
			tty.resume();
			const onData = (chunk: Buffer) => {
				for (const ch of chunk.toString("utf8")) {
					if (ch === "\r" || ch === "\n") return finish(() => resolve(value));
					if (ch === "\u0003") return finish(() => reject(new Error("Login cancelled")));
					if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
					else if (ch >= " ") value += ch;
				}
			};
			const finish = (then: () => void) => {
				tty.off("data", onData);
				tty.setRawMode(false);
				tty.pause();
				io.stderr.write("\n");
				then();
			};
			tty.on("data", onData);
		});
	};
	const onSigint = () => controller.abort();
	process.on("SIGINT", onSigint);

	const notify = (notice: LoginNotice) => {
		if (notice.type === "auth_url") {
			const opened = options.browser && openBrowser(notice.url, io.env);
			io.stderr.write(
				`${opened ? "Opening your browser. If it did not open, visit" : "Open this URL in a browser to sign in"}:\n\n  ${notice.url}\n\n`,
			);
			if (notice.instructions) io.stderr.write(`${notice.instructions}\n`);
		} else if (notice.type === "device_code") {
			io.stderr.write(`Visit ${notice.verificationUri} and enter the code:\n\n  ${notice.userCode}\n\n`);
			io.stderr.write("Waiting for the approval… (Ctrl+C cancels)\n");
		} else io.stderr.write(`${notice.message}\n`);
	};

	const prompt = async (p: LoginPrompt): Promise<string> => {
		if (p.type === "select") {
			io.stderr.write(`${p.message}\n`);
			p.options.forEach((o, i) => {
				io.stderr.write(`  ${i + 1}. ${o.label}\n`);
			});
			io.stderr.write("> ");
			const answer = (await readLine()).trim();
			const chosen = p.options[Number(answer) - 1] ?? p.options.find((o) => o.id === answer);
			if (!chosen) throw new Error(`"${answer}" is not one of the choices`);
			return chosen.id;
		}
		if (p.type === "secret") {
			io.stderr.write(`${p.message} `);
			return readSecret();
		}
		if (p.type === "manual_code") {
			io.stderr.write(`${p.message}\n`);
			return new Promise((resolve, reject) => {
				const onAbort = () => reject(new Error("not needed"));
				p.signal.addEventListener("abort", onAbort, { once: true });
				readLine().then(resolve, reject);
			});
		}
		io.stderr.write(`${p.message}${p.placeholder ? ` (e.g. ${p.placeholder})` : ""} `);
		return readLine();
	};

	return {
		signal: controller.signal,
		browser: options.browser,
		notify,
		prompt,
		close() {
			process.off("SIGINT", onSigint);
			rl?.close();
			input.pause?.();
		},
	};
}
