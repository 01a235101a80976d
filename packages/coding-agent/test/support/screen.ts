// Waiting on what a headless terminal (@xterm/headless) shows: the tests that
// run the interactive app in-process poll its screen until it shows what they
// expect, and fail with the last screen when it never does.

/** Polls `screen` every 10 ms until `pred` holds and returns that screen; past `ms`, throws with the last one. */
export async function waitForScreen(
	screen: () => Promise<string>,
	pred: (s: string) => boolean,
	ms: number,
): Promise<string> {
	const end = Date.now() + ms;
	for (;;) {
		const text = await screen();
		if (pred(text)) return text;
		if (Date.now() > end) throw new Error(`timed out; screen:\n${text}`);
		await new Promise((r) => setTimeout(r, 10));
	}
}
