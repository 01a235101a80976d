// Session ids (src/session/ids.ts): UUIDv7 as RFC 9562 lays it out, made from randomUUID()'s random
// bits (issue 25: the uuid package's v7 drew them through the Web Crypto global, whose first use
// loads Node's webcrypto modules in every run).
import { describe, expect, it } from "vitest";
import { createSessionId } from "../../src/session/ids.js";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("createSessionId", () => {
	it("is a UUIDv7 whose first 48 bits are the creation time in Unix milliseconds", () => {
		const before = Date.now();
		const id = createSessionId();
		const after = Date.now();
		expect(id).toMatch(V7);
		const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
		expect(ms).toBeGreaterThanOrEqual(before);
		expect(ms).toBeLessThanOrEqual(after);
		expect(createSessionId(0x0123_4567_89ab).slice(0, 13)).toBe("01234567-89ab");
		expect(createSessionId(0)).toMatch(/^00000000-0000-7/);
	});

	it("ids made in the same millisecond differ, and sort by time across milliseconds", () => {
		const ids = Array.from({ length: 2000 }, () => createSessionId(1_700_000_000_000));
		expect(new Set(ids).size).toBe(ids.length);
		for (const id of ids) expect(id).toMatch(V7);
		expect(createSessionId(1_700_000_000_001) > createSessionId(1_700_000_000_000)).toBe(true);
	});
});
