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

	it("hashes recorded content after the tool's result, on the next turn of the event loop, once", async () => {
		const tracker = new FileTracker();
		tracker.record("/a", Buffer.from("one"), 1);
		tracker.record("/b", Buffer.from("two"), 2);
		// Nothing hashed on the way to the tool's result.
		expect(hashes.count).toBe(0);
		await nextTurn();
		expect(hashes.count).toBe(2);
		expect(tracker.get("/a")).toEqual({ size: 3, mtimeMs: 1, hash: sha256("one") });
		expect(tracker.get("/b")?.hash).toBe(sha256("two"));
		expect(hashes.count).toBe(2);
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
