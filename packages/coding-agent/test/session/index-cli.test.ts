// The session index (session/index-cache.ts) through the built CLI: a resume
// writes the index under the agent dir's cache, and a byte changed in the
// indexed part of the file afterwards is still found and warned about.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, useCliSandbox } from "../cli/support.js";

const sb = useCliSandbox();
const MODEL = ["--model", "fake/fake-model"];

describe("session index (CLI)", () => {
	it("a resume writes the index; a byte flipped in the indexed prefix afterwards is warned about", async () => {
		sb.fake.enqueue(textReply("first"), textReply("second"), textReply("third"), textReply("fourth"));
		const file = join(sb.root, "s.jsonl");
		await sb.run(["--session", file, "-p", ...MODEL, "one"]);
		const second = await sb.run(["--session", file, "-p", "two"]);
		expect(second.stdout).toBe("second\n");
		expect(second.stderr).toBe("");
		const cache = join(sb.agentDir, "cache", "session-index");
		expect(readdirSync(cache).filter((n) => n.endsWith(".idx"))).toHaveLength(1);
		// Resumed from the index: the same conversation reaches the model.
		const third = await sb.run(["--session", file, "-p", "three"]);
		expect(third.stderr).toBe("");
		expect(body(sb.fake, 2).messages.map((m) => m.content)).toEqual([
			...body(sb.fake, 1).messages.map((m) => m.content),
			"second",
			"three",
		]);
		// Break the user line "one" in place: same size.
		const text = readFileSync(file, "utf8");
		const lineStart = text.lastIndexOf("\n", text.indexOf('"one"')) + 1;
		const size = statSync(file).size;
		const fd = openSync(file, "r+");
		writeSync(fd, Buffer.from("#"), 0, 1, Buffer.byteLength(text.slice(0, lineStart)));
		closeSync(fd);
		expect(statSync(file).size).toBe(size);
		const fourth = await sb.run(["--session", file, "-p", "four"]);
		expect(fourth.code).toBe(0);
		expect(fourth.stdout).toBe("fourth\n");
		expect(fourth.stderr).toMatch(/Warning: session .*s\.jsonl, line \d+ \(byte \d+\): unparsable line/);
		expect(body(sb.fake, 3).messages.map((m) => m.content)).not.toContain("one");
		expect(existsSync(cache)).toBe(true);
	});
});
