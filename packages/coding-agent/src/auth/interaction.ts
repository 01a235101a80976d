// How a login flow talks to whoever runs it (the `pi auth login` terminal, the
// interactive app's /login): it announces URLs and device codes, asks for
// choices or pasted text, and stops when `signal` aborts. Flows never print.

export type LoginNotice =
	/** Open this URL in a browser (the runner may open it itself). */
	| { type: "auth_url"; url: string; instructions?: string }
	/** Enter `userCode` at `verificationUri`. */
	| { type: "device_code"; userCode: string; verificationUri: string; expiresInSeconds?: number }
	| { type: "progress"; message: string };

export type LoginPrompt =
	| { type: "select"; message: string; options: { id: string; label: string }[] }
	/** Free text (e.g. an enterprise domain); empty is allowed. */
	| { type: "text"; message: string; placeholder?: string }
	/** A secret: read without echo, never logged. */
	| { type: "secret"; message: string }
	/**
	 * The pasted redirect URL or code, offered while a browser callback is awaited
	 * (for machines where the browser cannot reach the loopback server). The runner
	 * should reject the promise, or never settle it, when it cannot ask; `signal`
	 * aborts when the callback arrived first.
	 */
	| { type: "manual_code"; message: string; signal: AbortSignal };

export interface LoginInteraction {
	notify(notice: LoginNotice): void;
	prompt(prompt: LoginPrompt): Promise<string>;
	/** Aborts the login (Ctrl+C, Esc); flows end with a LoginCancelledError. */
	signal: AbortSignal;
	/** False where no browser can be opened (`--no-browser`, SSH): flows then prefer device codes. */
	browser: boolean;
}

export class LoginCancelledError extends Error {
	constructor() {
		super("Login cancelled");
		this.name = "LoginCancelledError";
	}
}

/** A login or refresh failure. The message never contains a token. */
export class LoginError extends Error {
	constructor(
		message: string,
		/** True when the stored login is no longer usable and the user must log in again. */
		readonly loginAgain = false,
	) {
		super(message);
		this.name = "LoginError";
	}
}

export function throwIfCancelled(signal: AbortSignal): void {
	if (signal.aborted) throw new LoginCancelledError();
}

/** Sleeps, ending early with LoginCancelledError when `signal` aborts. */
export function cancellableSleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal.aborted) return reject(new LoginCancelledError());
		const onAbort = () => {
			clearTimeout(timer);
			reject(new LoginCancelledError());
		};
		const timer = setTimeout(() => {
			signal.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal.addEventListener("abort", onAbort, { once: true });
	});
}
