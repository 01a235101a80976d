// uuidv7 (src/uuid.ts): RFC 9562 layout, the timestamp kept, ids sorting by time.
import { describe, expect, it } from "vitest";
import { uuidv7 } from "../src/index.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The 48-bit timestamp at the front of a v7 id. */
const timeOf = (id: string) => Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);

describe("uuidv7", () => {
	it("has the version and variant bits and the given timestamp", () => {
		const at = Date.UTC(2026, 11, 3, 4, 5, 6, 789);
		const id = uuidv7(at);
		expect(id).toMatch(UUID_V7);
		expect(timeOf(id)).toBe(at);
		expect(timeOf(uuidv7(0))).toBe(0);
		expect(timeOf(uuidv7(0xffff_ffff_ffff))).toBe(0xffff_ffff_ffff);
	});

	it("defaults to now; ids of later milliseconds sort after earlier ones; random bits differ", () => {
		const before = Date.now();
		const id = uuidv7();
		expect(timeOf(id)).toBeGreaterThanOrEqual(before);
		expect(timeOf(id)).toBeLessThanOrEqual(Date.now());
		const ids = [5, 1, 3, 2, 4].map((ms) => uuidv7(1_800_000_000_000 + ms));
		expect([...ids].sort().map(timeOf)).toEqual([1, 2, 3, 4, 5].map((ms) => 1_800_000_000_000 + ms));
		expect(new Set(Array.from({ length: 100 }, () => uuidv7(42))).size).toBe(100);
	});

	it("refuses a timestamp that does not fit", () => {
		expect(() => uuidv7(-1)).toThrow(RangeError);
		expect(() => uuidv7(2 ** 48)).toThrow(RangeError);
		expect(() => uuidv7(1.5)).toThrow(RangeError);
	});
});
