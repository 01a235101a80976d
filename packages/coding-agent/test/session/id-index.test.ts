// The id table of the session tree (id-index.ts): ids found from strings and
// from bytes alike, through growth, removal of the last row, non-ASCII ids and
// a re-used id; checked against a Map doing the same operations.
import { describe, expect, it } from "vitest";
import { IdIndex } from "../../src/session/id-index.js";

function bytesOf(s: string): Buffer {
	// Padding around the id: lookups read only [start, end).
	return Buffer.from(`xx${s}yy`, "utf8");
}

describe("IdIndex", () => {
	it("agrees with a Map over 50k ids added from bytes and strings, with removals of the last row", () => {
		const index = new IdIndex();
		const map = new Map<string, number>();
		const ids: string[] = [];
		let seed = 7;
		const rand = () => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed;
		};
		for (let n = 0; n < 50_000; n++) {
			const id = rand() % 10 === 0 ? `é-${n}-ü` : (rand() % 0xffffffff).toString(16).padStart(8, "0");
			if (map.has(id)) continue;
			let row: number;
			if (n % 2 === 0) {
				const b = bytesOf(id);
				expect(index.pushBytesIfNew(b, 2, b.length - 2)).toBe(true);
				row = index.size - 1;
			} else row = index.push(id);
			map.set(id, row);
			ids.push(id);
			if (n % 997 === 0) {
				// The last row goes away (a failed append): its id is no longer found.
				index.pop();
				map.delete(ids.pop() as string);
			}
		}
		expect(index.size).toBe(ids.length);
		for (const [id, row] of map) {
			expect(index.find(id)).toBe(row);
			const b = bytesOf(id);
			expect(index.findBytes(b, 2, b.length - 2)).toBe(row);
			expect(index.idAt(row)).toBe(id);
		}
		expect(index.find("not-there")).toBe(-1);
		// A known id from bytes is refused, and nothing is added.
		const first = bytesOf(ids[0]);
		expect(index.pushBytesIfNew(first, 2, first.length - 2)).toBe(false);
		expect(index.size).toBe(ids.length);
	});

	it("a reused id given as a string points at the newer row", () => {
		const index = new IdIndex();
		expect(index.push("a")).toBe(0);
		expect(index.push("b")).toBe(1);
		expect(index.push("a")).toBe(2);
		expect(index.find("a")).toBe(2);
		expect(index.find("b")).toBe(1);
		expect(index.rowIs(0, Buffer.from("a"), 0, 1)).toBe(true);
	});
});
