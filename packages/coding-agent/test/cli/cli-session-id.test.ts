// --session-id <id> creates or reopens exactly that session; an ambiguous
// --session prefix lists the sessions it matches.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, useCliSandbox } from "./support.js";

const sb = useCliSandbox();

const MODEL = ["--model", "fake/fake-model"];

describe("--session-id and ambiguous prefixes", () => {
	it("--session-id creates the session with that id, and a second run continues it", async () => {
		const dir = join(sb.root, "sessions");
		sb.fake.enqueue(textReply("first"), textReply("second"));
		const one = await sb.run(["--session-dir", dir, "--session-id", "my-task-1", "-p", ...MODEL, "one"]);
		expect(one.code).toBe(0);
		const files = readdirSync(dir);
		expect(files).toHaveLength(1);
		expect(files[0].endsWith("_my-task-1.jsonl")).toBe(true);
		expect(JSON.parse(readFileSync(join(dir, files[0]), "utf8").split("\n")[0]).id).toBe("my-task-1");
		const two = await sb.run(["--session-dir", dir, "--session-id", "my-task-1", "-p", ...MODEL, "two"]);
		expect(two.code).toBe(0);
		expect(readdirSync(dir)).toEqual(files);
		expect(body(sb.fake, 1).messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
	});

	it("an invalid --session-id is a usage error", async () => {
		const r = await sb.run(["--session-id", "../evil", "-p", ...MODEL, "x"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/Invalid session id/);
		expect(sb.fake.requests).toHaveLength(0);
	});

	it("an ambiguous --session prefix lists the matching sessions", async () => {
		const dir = join(sb.root, "sessions");
		sb.fake.enqueue(textReply("a"), textReply("b"));
		await sb.run(["--session-dir", dir, "--session-id", "abc-one", "-p", ...MODEL, "one"]);
		await sb.run(["--session-dir", dir, "--session-id", "abc-two", "-p", ...MODEL, "two"]);
		const r = await sb.run(["--session-dir", dir, "--session", "abc", "-p", "three"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/ambiguous \(2 sessions match\)/);
		expect(r.stderr).toContain("abc-one");
		expect(r.stderr).toContain("abc-two");
		for (const f of readdirSync(dir)) expect(r.stderr).toContain(join(dir, f));
	});
});
