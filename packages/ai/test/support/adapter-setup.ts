/** One fake provider per test file, with a model pointed at it: the setup every adapter test repeats. */
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { stream } from "../../src/stream.js";
import type { Context, Model } from "../../src/types.js";
import { type FakeProvider, type RecordedRequest, type Script, startFakeProvider } from "./fake-provider/server.js";
import { fakeModel } from "./stream-helpers.js";

export interface FakeTarget {
	fake: FakeProvider;
	model: Model;
}

/**
 * Registers the file's hooks: start the server before all tests, close it after, forget recorded
 * requests before each. Fields are filled in beforeAll, so read them inside tests only.
 */
export function useFakeTarget(modelAt: (url: string) => Partial<Model> & Pick<Model, "api" | "baseUrl">): FakeTarget {
	const env = {} as FakeTarget;
	beforeAll(async () => {
		env.fake = await startFakeProvider();
		env.model = fakeModel(modelAt(env.fake.url));
	});
	afterAll(() => env.fake.close());
	beforeEach(() => {
		env.fake.requests.length = 0;
	});
	return env;
}

/**
 * A `send(context, options?, model?)` for request tests: queue `reply` (a turn that finishes with
 * stop), stream, and return the request the provider saw.
 */
export function requestSender(env: FakeTarget, key: { apiKey: string }, reply: () => Script) {
	return async (
		context: Context,
		options: Parameters<typeof stream>[2] = {},
		target: Model = env.model,
	): Promise<RecordedRequest> => {
		env.fake.enqueue(reply());
		const message = await stream(target, context, { ...key, ...options }).result();
		expect(message.stopReason).toBe("stop");
		const request = env.fake.requests.at(-1);
		if (!request) throw new Error("no request");
		return request;
	};
}
