/**
 * Fault scenarios every streaming adapter must survive the same way (RELIABILITY: abort, idle
 * timeout, auth). Each adapter supplies only its wire scripts and its provider's error details.
 */
import { describe, expect, it } from "vitest";
import { stream } from "../../src/stream.js";
import type { AssistantMessageEvent, Context, ProviderErrorInfo } from "../../src/types.js";
import type { FakeTarget } from "./adapter-setup.js";
import type { Script, SseScript } from "./fake-provider/server.js";
import { collect, deltas } from "./stream-helpers.js";

export interface StreamFaultKit {
	/** From useFakeTarget; read inside tests only (filled in beforeAll). */
	env: FakeTarget;
	context: Context;
	key: { apiKey: string };
	/** A stream that opened one text block holding `text`, then says nothing more. */
	openText(text: string): SseScript;
	/** A complete text turn with these deltas, written in small delayed pieces. */
	slowText(parts: string[]): SseScript;
	/** The provider's auth failure and what it must become. */
	authFailure: { script: Script; errorInfo: ProviderErrorInfo; errorMessage: string };
	/** Compare the partial content exactly (false: blocks may carry extra adapter fields). */
	exactContent: boolean;
}

export function describeCommonStreamFaults(name: string, kit: StreamFaultKit): void {
	const { context, key } = kit;
	const expectPartial = (content: unknown, text: string) => {
		const expected = [{ type: "text", text }];
		if (kit.exactContent) expect(content).toEqual(expected);
		else expect(content).toMatchObject(expected);
	};
	/** The open text stream, kept open after its last byte until the client goes away. */
	const enqueueHanging = (text: string) => {
		const script = kit.openText(text);
		kit.env.fake.enqueue({ ...script, hangAfterBytes: script.bytes.length });
	};

	describe(`${name} common stream faults`, () => {
		it("slow chunks still arrive in order", async () => {
			const { fake, model } = kit.env;
			fake.enqueue(kit.slowText(["a", "b", "c"]));
			const events = await collect(stream(model, context, key));
			expect(deltas(events, "text_delta")).toEqual(["a", "b", "c"]);
			expect(events.at(-1)?.type).toBe("done");
		});

		it("client abort ends with aborted and the partial", async () => {
			const { model } = kit.env;
			enqueueHanging("Partial answer");
			const controller = new AbortController();
			const events: AssistantMessageEvent[] = [];
			for await (const event of stream(model, context, { ...key, signal: controller.signal })) {
				events.push(event);
				if (event.type === "text_delta") controller.abort();
			}
			const last = events.at(-1);
			if (last?.type !== "error") throw new Error("expected error");
			expect(last.reason).toBe("aborted");
			expect(last.error.stopReason).toBe("aborted");
			expectPartial(last.error.content, "Partial answer");
			expect(last.error.errorInfo).toEqual({ kind: "aborted", retryable: false });
		});

		it("no byte for timeoutMs ends with a retryable network timeout, keeping the partial", async () => {
			const { model } = kit.env;
			enqueueHanging("Slow");
			const message = await stream(model, context, { ...key, timeoutMs: 500 }).result();
			expect(message.stopReason).toBe("error");
			expect(message.errorInfo).toEqual({ kind: "network", code: "timeout", retryable: true });
			expect(message.content).toMatchObject([{ type: "text", text: "Slow" }]);
		});

		it("an already aborted signal ends with aborted before any content", async () => {
			const { model } = kit.env;
			const controller = new AbortController();
			controller.abort();
			const message = await stream(model, context, { ...key, signal: controller.signal }).result();
			expect(message.stopReason).toBe("aborted");
			expect(message.content).toEqual([]);
			expect(message.errorInfo).toEqual({ kind: "aborted", retryable: false });
		});

		it("an auth failure is a non-retryable auth error", async () => {
			const { fake, model } = kit.env;
			fake.enqueue(kit.authFailure.script);
			const message = await stream(model, context, key).result();
			expect(message.stopReason).toBe("error");
			expect(message.errorInfo).toEqual(kit.authFailure.errorInfo);
			expect(message.errorMessage).toBe(kit.authFailure.errorMessage);
		});
	});
}
