// showCacheMissNotices in the built app (tmux): a reply that re-sends the
// previous prompt without cache reads gets a "Cache miss" line, live and again
// when the session is reopened, and /compact a line with what the summary was
// billed; with the setting off (the default) nothing. A cache warm (idle
// warming of a model whose cache lifetime PI_CACHE_RETENTION picks) is a live
// "Cache warmed: $…" line with what the refresh cost.
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

	it("a cache warm while idle is a live 'Cache warmed' line; PI_CACHE_RETENTION=long picks the model's long lifetime", async () => {
		// Priced so an idle refresh pays (15% × the 30k-token re-bill at $30/M beats the $0.3/M read);
		// only the long tier's 12 s lifetime puts the refresh within the test (at 90%, 10 s margin: after 2 s).
		app.sb.writeModels({
			models: [
				{
					id: "fake-model",
					contextWindow: 100000,
					cost: { input: 30, output: 1, cacheRead: 0.3, cacheWrite: 0 },
					promptCache: { short: 3600, long: 12 },
				},
			],
		});
		writeFileSync(join(app.sb.agentDir, "settings.json"), JSON.stringify({ showCacheMissNotices: true }));
		// The reply, then the warm: the same prompt again, all of it read from the cache, one output token.
		app.sb.fake.enqueue(reply("warm me", 30_000, 0), reply("", 30_000, 30_000));
		const pi = app.start({ env: { PI_CACHE_RETENTION: "long" } });
		await pi.waitFor(READY);
		await submit(pi, "one", "warm me");
		// 30k cached tokens at $0.3/M plus 5 output tokens at $1/M.
		const screen = await pi.waitFor("Cache warmed: $0.009", 20_000);
		expect(screen.indexOf("Cache warmed: $0.009")).toBeGreaterThan(screen.indexOf("warm me"));
		const warm = app.sb.fake.requests[1].body as {
			max_tokens?: number;
			max_completion_tokens?: number;
			messages: unknown[];
		};
		// The refresh re-sends the reply's request with a one-token cap.
		expect(warm.max_tokens ?? warm.max_completion_tokens).toBe(1);
		expect(warm.messages).toEqual((app.sb.fake.requests[0].body as { messages: unknown[] }).messages);
		pi.kill();
	});
});
