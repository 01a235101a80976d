// The session store contract over JSONL files: byte-exact import/export, one
// writer (lock), a fenced-out writer's append refused, appends durable as lines.
import { appendFileSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { JsonlSessionStore } from "../../src/session/jsonl-store.js";
import { SessionLockedError } from "../../src/session/lock.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { StaleWriterError, splitStoredLines } from "../../src/session/store.js";
import { assistant, tempDir, user } from "./helpers.js";

function sessionBytes(dir: string): Buffer {
	const sm = SessionManager.create(dir, dir);
	sm.appendMessage(user("hello ünïcödé"));
	sm.appendMessage(assistant("hi"));
	const file = sm.getSessionFile() as string;
	sm.close();
	return readFileSync(file);
}

describe("JsonlSessionStore", () => {
	it("imports and exports a SessionManager file byte for byte, torn last line included", async () => {
		const dir = tempDir();
		const bytes = Buffer.concat([sessionBytes(dir), Buffer.from('{"type":"message","id":"tor')]);
		const store = new JsonlSessionStore(`${dir}/store`);
		await store.importJsonl("s1", bytes);
		expect((await store.exportJsonl("s1")).equals(bytes)).toBe(true);
		const lines = await store.readLines("s1");
		expect(lines.map((l) => l.seq)).toEqual([0, 1, 2, 3]);
		expect(Buffer.concat(lines.map((l) => l.bytes)).equals(bytes)).toBe(true);
		expect((await store.readLines("s1", 2)).map((l) => l.seq)).toEqual([3]);
		await expect(store.importJsonl("s1", bytes)).rejects.toThrow(/already holds lines/);
	});

	it("splits lines so that joining them gives the input back", () => {
		const input = Buffer.from("a\n\nb\nc");
		const parts = splitStoredLines(input, 5);
		expect(parts.map((p) => p.bytes.toString())).toEqual(["a\n", "\n", "b\n", "c"]);
		expect(parts[0].seq).toBe(5);
	});

	it("has one writer: a second claim is refused, a writer whose file grew under it is fenced out", async () => {
		const dir = tempDir();
		const store = new JsonlSessionStore(dir);
		const writer = await store.claim("s2");
		await writer.append(Buffer.from('{"type":"session","id":"s2"}\n'));
		await expect(store.claim("s2")).rejects.toBeInstanceOf(SessionLockedError);
		appendFileSync(store.fileOf("s2"), '{"type":"custom","id":"x"}\n');
		await expect(writer.append(Buffer.from('{"type":"custom","id":"y"}\n'))).rejects.toBeInstanceOf(StaleWriterError);
		expect(readFileSync(store.fileOf("s2"), "utf8")).toBe('{"type":"session","id":"s2"}\n{"type":"custom","id":"x"}\n');
		await writer.close();
		const next = await store.claim("s2");
		await next.append(Buffer.from('{"type":"custom","id":"z"}\n'));
		await next.close();
		expect((await store.readLines("s2")).length).toBe(3);
	});

	it("refuses bytes that do not end a line", async () => {
		const store = new JsonlSessionStore(tempDir());
		const writer = await store.claim("s3");
		await expect(writer.append(Buffer.from("no newline"))).rejects.toThrow(/must end with/);
		await writer.close();
	});
});
