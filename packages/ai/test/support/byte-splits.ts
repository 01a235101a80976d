/**
 * The byte-split checks every adapter runs on its recorded streams: the parse path gives the same
 * events however the bytes are cut, and so does the full adapter when every byte arrives alone.
 */
import { afterAll, describe, expect, it } from "vitest";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import type { FakeTarget } from "./adapter-setup.js";
import type { SseFrame } from "./fake-provider/server.js";
import { everyBoundaryPlans, framedBytes, installMemoryFetch, projectEvents, splitBytes } from "./split-replay.js";
import { collect } from "./stream-helpers.js";

export interface ByteSplitKit {
	api: string;
	env: FakeTarget;
	context: Context;
	key: { apiKey: string };
	/** Each recorded stream to split, by a label for the test name. */
	streams: { label: string; frames: () => SseFrame[] }[];
	/** The adapter's parse path without the request, piece by piece. */
	decode: (pieces: Uint8Array[]) => Promise<string[]>;
	/** Cut each frame at most every this many bytes per run (keeps runs bounded on large frames). */
	period: number;
	/** What the last projected event must look like, e.g. /^done:/. */
	terminal: RegExp;
	/** Per-test timeout for the every-boundary test, when the default is too short. */
	timeoutMs?: number;
	/** Name of the full-adapter test (kept as each adapter had it). */
	fullAdapterTitle?: string;
}

const everyByte = (bytes: Uint8Array) => Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);

export function describeByteSplits(kit: ByteSplitKit): void {
	describe(`${kit.api}: byte splits of recorded streams`, () => {
		const counts: Record<string, string> = {};
		afterAll(() => {
			console.info(`[byte-splits] ${kit.api}: ${JSON.stringify(counts)}`);
		});

		it.each(kit.streams)(
			"$label: every byte boundary gives identical events",
			async ({ label, frames }) => {
				const { bytes, ranges } = framedBytes(frames());
				const baseline = await kit.decode([bytes]);
				expect(baseline.at(-1)).toMatch(kit.terminal);
				const plans = everyBoundaryPlans(ranges, kit.period);
				for (const cuts of plans) expect(await kit.decode(splitBytes(bytes, cuts))).toEqual(baseline);
				// Every byte its own piece.
				expect(await kit.decode(splitBytes(bytes, everyByte(bytes)))).toEqual(baseline);
				counts[label] = `${bytes.length - 1} boundaries / ${plans.length + 1} runs`;
				expect(new Set(plans.flat()).size).toBe(bytes.length - 1);
			},
			kit.timeoutMs,
		);

		it(kit.fullAdapterTitle ?? "the full adapter agrees when every byte arrives alone", async () => {
			const memory = installMemoryFetch();
			try {
				for (const { frames } of kit.streams) {
					const { bytes } = framedBytes(frames());
					memory.respond([bytes]);
					const whole = projectEvents(await collect(stream(kit.env.model, kit.context, kit.key)));
					memory.respond(splitBytes(bytes, everyByte(bytes)));
					const bytewise = projectEvents(await collect(stream(kit.env.model, kit.context, kit.key)));
					expect(bytewise).toEqual(whole);
					expect(whole.at(-1)).toMatch(kit.terminal);
				}
			} finally {
				memory.restore();
			}
		});
	});
}
