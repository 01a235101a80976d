import { describe, expect, it } from "vitest";
import { satisfiesRange } from "../../src/extensions/api-version.js";

describe("satisfiesRange", () => {
	it.each([
		["1.6.0", "*", true],
		["1.6.0", "1.6.0", true],
		["1.6.0", "1.6", true],
		["1.6.0", "1.x", true],
		["1.6.0", "2", false],
		["1.6.0", ">=1.6 <2", true],
		["1.6.0", ">= 1.5.0", true],
		["1.6.0", "^1.7.0", false],
		["1.6.0", "^1.2.0", true],
		["1.6.0", "~1.6.0", true],
		["1.6.0", "~1.5.0", false],
		["1.6.0", "<1.0.0 || >=1.6.0", true],
		["1.6.0", ">1.6.0", false],
	])("%s in %s is %s", (version, range, expected) => {
		expect(satisfiesRange(version, range)).toBe(expected);
	});

	it("an unreadable range is undefined, not a guess", () => {
		expect(satisfiesRange("1.6.0", "latest")).toBeUndefined();
	});
});
