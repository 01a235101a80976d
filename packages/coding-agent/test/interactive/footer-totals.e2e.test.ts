// The footer's totals of a resumed session too large to read before the first frame (BUILT app,
// tmux): the first frame shows without them, and they follow on their own — no key pressed — with
// what the file records (every reply billed 1,000 in / 10 out, $0.01).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, user } from "../session/helpers.js";
import { hasTmux, READY, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("a large session's footer totals");

/** `turns` turns whose replies take ~1 KB each on disk: 6,000 of them are ~8 MB, two steps of the footer's reading. */
function largeSession(dir: string, turns: number): string {
	const sm = SessionManager.create(dir, join(dir, "sessions"), {}, { durability: "write" });
	for (let i = 0; i < turns; i++) {
		sm.appendMessage(user(`question ${i}`));
		const reply = assistant(`answer ${i} ${"word ".repeat(150)}`, "fake-model", "fake");
		reply.usage = {
			...reply.usage,
			input: 1000,
			output: 10,
			totalTokens: 1010,
			cost: { ...reply.usage.cost, total: 0.01 },
		};
		sm.appendMessage(reply);
	}
	const file = sm.getSessionFile() as string;
	sm.close();
	return file;
}

describe.skipIf(!hasTmux)("footer totals of a large resumed session (tmux, built app)", () => {
	it("arrive after the first frame without a key pressed", { timeout: 60_000 }, async () => {
		const file = largeSession(app.sb.root, 6000);
		const p = await app.ready({ args: ["--session", file, "--model", "fake/fake-model"], timeoutMs: 30_000 });
		// 6,000 replies × 1,000 in / 10 out / $0.01.
		const screen = await p.waitFor(/↑6\.0M ↓60k \$60\.000/, 15_000);
		expect(screen).toMatch(READY);
	});
});
