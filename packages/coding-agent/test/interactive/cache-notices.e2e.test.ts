// showCacheMissNotices in the built app (tmux): a reply that re-sends the
// previous prompt without cache reads gets a "Cache miss" line, live and again
// when the session is reopened, and /compact a line with what the summary was
// billed; with the setting off (the default) nothing.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { hasTmux, READY, submit, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the cache notice tests", { setup: (sb) => sb.writeModels() });

const reply = (text: string, prompt: number, cached: number) =>
	new ChatStream({ model: "fake-model" })
		.role()
		.text(text)
		.finish("stop")
		.usage({ prompt_tokens: prompt, completion_tokens: 5, prompt_tokens_details: { cached_tokens: cached } })
		.done()
		.script();

const MISS = "Cache miss: 30k tokens re-billed";

describe.skipIf(!hasTmux)("cache notices (tmux)", () => {
	it("with showCacheMissNotices a miss is a transcript line, live and when the session is reopened", async () => {
		writeFileSync(
			join(app.sb.agentDir, "settings.json"),
			// A tiny kept tail so /compact has something to summarize.
			JSON.stringify({ showCacheMissNotices: true, compaction: { keepRecentTokens: 1 } }),
		);
		app.sb.fake.enqueue(reply("first answer", 30_000, 2_000), reply("second answer", 31_000, 0));
		const pi = app.start();
		await pi.waitFor(READY);
		const afterFirst = await submit(pi, "one", "first answer");
		expect(afterFirst).not.toContain("Cache miss");
		const screen = await submit(pi, "two", MISS);
		// The line comes after the reply that paid for it.
		expect(screen.indexOf(MISS)).toBeGreaterThan(screen.indexOf("second answer"));
		// A compaction's summary request is billed too: its line follows the compaction.
		// The kept tail cuts the last turn: its prefix and the history are summarized in two requests (15k each).
		app.sb.fake.enqueue(reply("the summary", 15_000, 0), reply("the prefix summary", 15_000, 0));
		await submit(pi, "/compact", "Compaction: 30k tokens billed");
		pi.kill();

		const again = app.start({ args: ["-c"] });
		const history = await again.waitFor("Compaction: 30k tokens billed");
		expect(history).toContain("Compaction: 30k tokens billed");
	});

	it("off by default: the same miss shows nothing", async () => {
		app.sb.fake.enqueue(reply("first answer", 30_000, 2_000), reply("second answer", 31_000, 0));
		const pi = app.start();
		await pi.waitFor(READY);
		await submit(pi, "one", "first answer");
		const screen = await submit(pi, "two", "second answer");
		await pi.waitFor(READY);
		expect(pi.screen()).not.toContain("Cache miss");
		expect(screen).not.toContain("Cache miss");
	});
});
