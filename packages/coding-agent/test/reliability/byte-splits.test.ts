// RELIABILITY.md "SSE bytes split anywhere": the openai-completions recorded
// streams (the other three adapters have the same property in their own
// recorded.test.ts) split at EVERY byte boundary — each boundary as a cut in
// one of a set of plans, plus every byte as its own read — through the full
// adapter (`stream()`, SDK request, raw-body SSE parser), with a ping and CRLF
// variants: the unified events must be identical to the unsplit stream.
import { afterAll, describe, expect, it } from "vitest";
import { stream } from "../../../ai/src/stream.js";
import type { Context } from "../../../ai/src/types.js";
import { recordedFrames } from "../../../ai/test/support/fake-provider/recorded.js";
import type { SseFrame } from "../../../ai/test/support/fake-provider/server.js";
import {
	everyBoundaryPlans,
	framedBytes,
	installMemoryFetch,
	projectEvents,
	splitBytes,
} from "../../../ai/test/support/split-replay.js";
import { collect, fakeModel } from "../../../ai/test/support/stream-helpers.js";

const API = "openai-completions";
const model = fakeModel({ api: API, baseUrl: "http://127.0.0.1:9/v1" });
const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const counts: Record<string, string> = {};
afterAll(() => {
	console.info(`[byte-splits] ${API}: ${JSON.stringify(counts)}`);
});

function variants(name: string): [string, SseFrame[]][] {
	const frames = recordedFrames(API, name, { done: true });
	const pinged = [...frames];
	pinged.splice(2, 0, { comment: "ping" }, { raw: "event: keepalive\ndata: {}\n\n" });
	return [
		[name, frames],
		[`${name}+ping`, pinged],
	];
}

describe(`${API}: every byte boundary of the recorded streams`, () => {
	it.each(["openai-text", "xai-text", "xai-tool-call"])(
		"%s",
		async (name) => {
			const memory = installMemoryFetch();
			try {
				const run = async (pieces: Uint8Array[]) => {
					memory.respond(pieces);
					return projectEvents(await collect(stream(model, context, { apiKey: "sk-test" })));
				};
				for (const [label, frames] of variants(name)) {
					for (const crlf of [false, true]) {
						let { bytes, ranges } = framedBytes(frames);
						if (crlf) {
							bytes = Buffer.from(bytes.toString("utf8").replace(/\n/g, "\r\n"), "utf8");
							// Frame ranges shift with the added CRs; recompute from the frame ends.
							ranges = [];
							let start = 0;
							for (let at = bytes.indexOf("\r\n\r\n"); at >= 0; at = bytes.indexOf("\r\n\r\n", at + 4)) {
								ranges.push([start, at + 4]);
								start = at + 4;
							}
						}
						const baseline = await run([bytes]);
						expect(baseline.at(-1)).toMatch(/^done:/);
						const plans = everyBoundaryPlans(ranges, 128);
						expect(new Set(plans.flat()).size).toBe(bytes.length - 1);
						for (const cuts of plans) expect(await run(splitBytes(bytes, cuts))).toEqual(baseline);
						const single = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
						expect(await run(splitBytes(bytes, single))).toEqual(baseline);
						counts[`${label}${crlf ? "+crlf" : ""}`] = `${bytes.length - 1} boundaries / ${plans.length + 1} runs`;
					}
				}
			} finally {
				memory.restore();
			}
			// Thousands of CPU-bound runs: generous so a loaded machine does not time it out.
		},
		120_000,
	);
});
