import { beforeEach, describe, expect, it, vi } from "vitest";

// file-tracker.ts imports createHash from node:crypto: counted here, to see when content is hashed.
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:crypto", async (importOriginal) => {
	const actual = await importOriginal<typeof import("node:crypto")>();
	return {
		...actual,
		createHash: (...args: Parameters<typeof actual.createHash>) => {
			hashes.count++;
			return actual.createHash(...args);
		},
	};
});

const { FileTracker } = await import("../../src/tools/shared/file-tracker.js");
const { createHash: realCreateHash } = await vi.importActual<typeof import("node:crypto")>("node:crypto");

const sha256 = (text: string) => realCreateHash("sha256").update(text).digest("hex");
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("FileTracker", () => {
	beforeEach(() => {
		hashes.count = 0;
	});

	it("keeps small content as bytes and compares it byte for byte: no hash unless get asks", async () => {
		const tracker = new FileTracker();
		tracker.record("/a", Buffer.from("one"), 1);
		tracker.record("/b", Buffer.from("two"), 2);
		await nextTurn();
		expect(hashes.count).toBe(0);
		expect(tracker.changedSince("/a", Buffer.from("one"))).toBe(false);
		expect(tracker.changedSince("/a", Buffer.from("ONE"))).toBe(true);
		expect(tracker.changedSince("/a", Buffer.from("one!"))).toBe(true);
		// A view into a larger buffer compares its own bytes only.
		const backing = Buffer.from("xxtwoxx");
		const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, 3);
		tracker.record("/c", view, 3);
		expect(tracker.changedSince("/c", Buffer.from("two"))).toBe(false);
		expect(hashes.count).toBe(0);
		expect(tracker.get("/a")).toEqual({ size: 3, mtimeMs: 1, hash: sha256("one") });
		expect(tracker.changedSince("/a", Buffer.from("one"))).toBe(false);
		expect(hashes.count).toBe(1);
	});

	it("hashes large content after the tool's result, on the next turn of the event loop, once", async () => {
		const tracker = new FileTracker();
		const big = (c: string) => Buffer.alloc(20 * 1024, c);
		tracker.record("/a", big("a"), 1);
		tracker.record("/b", big("b"), 2);
		// Nothing hashed on the way to the tool's result.
		expect(hashes.count).toBe(0);
		await nextTurn();
		expect(hashes.count).toBe(2);
		expect(tracker.get("/a")).toEqual({
			size: 20 * 1024,
			mtimeMs: 1,
			hash: realCreateHash("sha256").update(big("a")).digest("hex"),
		});
		expect(tracker.changedSince("/b", big("b"))).toBe(false);
		expect(tracker.changedSince("/b", big("c"))).toBe(true);
	});

	it("keeps bytes only within a budget; what is replaced or forgotten gives its share back", async () => {
		const tracker = new FileTracker();
		const file = (i: number) => Buffer.alloc(16 * 1024, i % 256);
		// 4 MiB of 16 KiB files fit; the next is hashed instead.
		for (let i = 0; i < 256; i++) tracker.record(`/f${i}`, file(i), i);
		await nextTurn();
		expect(hashes.count).toBe(0);
		tracker.record("/over", file(1), 1);
		await nextTurn();
		expect(hashes.count).toBe(1);
		// Forgetting one makes room again.
		tracker.forget("/f0");
		tracker.record("/fits", file(2), 2);
		await nextTurn();
		expect(hashes.count).toBe(1);
		expect(tracker.changedSince("/fits", file(2))).toBe(false);
		expect(tracker.changedSince("/f255", file(255))).toBe(false);
		expect(hashes.count).toBe(1);
	});

	it("answers before the deferred hash has run, and skips content replaced or forgotten meanwhile", async () => {
		const tracker = new FileTracker();
		tracker.record("/a", Buffer.from("old"), 1);
		tracker.record("/a", Buffer.from("new"), 2);
		tracker.record("/gone", Buffer.from("x"), 3);
		tracker.forget("/gone");
		expect(tracker.changedSince("/a", Buffer.from("new"))).toBe(false);
		expect(tracker.changedSince("/a", Buffer.from("NEW"))).toBe(true);
		expect(tracker.changedSince("/a", Buffer.from("newer"))).toBe(true);
		expect(tracker.changedSince("/never-seen", Buffer.from("new"))).toBe(false);
		const counted = hashes.count;
		await nextTurn();
		// "/a" was hashed on demand already; the replaced "old" and the forgotten "/gone" are never hashed.
		expect(hashes.count).toBe(counted);
		expect(tracker.get("/gone")).toBeUndefined();
		expect(tracker.get("/a")).toEqual({ size: 3, mtimeMs: 2, hash: sha256("new") });
	});
});
