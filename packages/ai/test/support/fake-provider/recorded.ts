/**
 * Replays recorded provider streams (test/fixtures/recorded/<api>/<name>.chunks.txt:
 * one JSON payload per line) through the fake provider, re-adding SSE framing.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SseFrame } from "./server.js";

export const RECORDED_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../fixtures/recorded");

export interface RecordedOptions {
	/** Add `event: <payload.type>` lines (Anthropic, OpenAI Responses). */
	eventFromType?: boolean;
	/** Append `data: [DONE]` (OpenAI Chat Completions). */
	done?: boolean;
}

/** The payloads of a recorded stream, parsed. */
export function recordedPayloads(api: string, name: string): unknown[] {
	const text = readFileSync(join(RECORDED_DIR, api, `${name}.chunks.txt`), "utf8");
	return text
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line) as unknown);
}

export function recordedFrames(api: string, name: string, options: RecordedOptions = {}): SseFrame[] {
	const frames: SseFrame[] = recordedPayloads(api, name).map((payload) => {
		const type = (payload as { type?: unknown }).type;
		return options.eventFromType && typeof type === "string"
			? { event: type, data: payload as object }
			: { data: payload as object };
	});
	if (options.done) frames.push({ data: "[DONE]" });
	return frames;
}
