// Issue 21 through the BUILT CLI: a stored message with wrong-typed content
// no longer fails every run (nor adds lines each time), and session load
// warnings (torn, glued, invalid lines) are shown in print, json and rpc
// modes, naming the file, line and byte offset.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, useCliSandbox } from "../cli/support.js";
import { killRaw, type RawPi, spawnRaw } from "../rpc/support.js";

const MODEL = ["--model", "fake/fake-model"];
let pi: RawPi | undefined;

const sb = useCliSandbox({
	beforeClose: async () => {
		await killRaw(pi);
		pi = undefined;
	},
});

/** A session of three exchanges made by the CLI itself. */
async function threeExchanges(file: string): Promise<string[]> {
	for (const q of ["one", "two", "three"]) {
		sb.fake.enqueue(textReply(`answer ${q}`));
		const r = await sb.run(["--session", file, "-p", ...MODEL, q]);
		expect(r.code).toBe(0);
	}
	return readFileSync(file, "utf8").split("\n");
}

function lineIndex(lines: string[], text: string): number {
	return lines.findIndex((l) => l.includes(`"${text}"`));
}

describe("damaged sessions through the CLI", () => {
	it("a message whose content is 5: every run still answers, a warning names file and line, no extra lines per run", async () => {
		const file = join(sb.root, "s.jsonl");
		const lines = await threeExchanges(file);
		const at = lineIndex(lines, "answer two");
		const entry = JSON.parse(lines[at]) as { message: { content: unknown } };
		entry.message.content = 5;
		lines[at] = JSON.stringify(entry);
		writeFileSync(file, lines.join("\n"));
		const growth: number[] = [];
		// builtin:checkpoints' own entries are its tests' business.
		const countLines = () =>
			readFileSync(file, "utf8")
				.split("\n")
				.filter((l) => !l.includes('"customType":"checkpoint"')).length;
		for (const q of ["four", "five"]) {
			const before = countLines();
			sb.fake.enqueue(textReply(`answer ${q}`));
			const r = await sb.run(["--session", file, "-p", ...MODEL, q]);
			expect(r.stderr).toContain(`session ${file}, line ${at + 1}`);
			expect(r.stderr).toMatch(/content is number/);
			expect(r.stderr).not.toMatch(/not iterable/);
			expect(r.stdout).toBe(`answer ${q}\n`);
			expect(r.code).toBe(0);
			growth.push(countLines() - before);
		}
		expect(growth).toEqual([2, 2]); // the prompt and the answer, nothing else
		// The request had every other message, and not the invalid one.
		const sent = body(sb.fake, sb.fake.requests.length - 1).messages.map((m) => JSON.stringify(m.content));
		expect(sent.join(" ")).toContain("answer one");
		expect(sent.join(" ")).toContain("answer three");
		expect(sent.join(" ")).not.toContain("answer two");
	});

	it("a torn line in the middle is reported in print, json and rpc modes with file, line and offset; the context before it is kept", async () => {
		const file = join(sb.root, "s.jsonl");
		const lines = await threeExchanges(file);
		const at = lineIndex(lines, "two");
		const offset = Buffer.byteLength(lines.slice(0, at).join("\n")) + 1;
		lines[at] = lines[at].slice(0, 70); // a crash inside write(2), long ago
		writeFileSync(file, lines.join("\n"));
		const expectWarning = (stderr: string) => {
			expect(stderr).toContain(`session ${file}, line ${at + 1} (byte ${offset})`);
		};

		sb.fake.enqueue(textReply("printed"));
		const print = await sb.run(["--session", file, "-p", ...MODEL, "four"]);
		expectWarning(print.stderr);
		expect(print.code).toBe(0);
		const sent = JSON.stringify(body(sb.fake, sb.fake.requests.length - 1).messages);
		expect(sent).toContain("answer one"); // earlier context survives the torn line
		expect(sent).toContain("answer three");

		sb.fake.enqueue(textReply("as json"));
		const json = await sb.run(["--session", file, "--mode", "json", ...MODEL, "five"]);
		expectWarning(json.stderr);
		expect(json.code).toBe(0);
		// Also as an event on stdout, right after the session header, for readers of stdout only.
		const jsonLines = json.stdout
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l) as Record<string, unknown>);
		expect(jsonLines[0]?.type).toBe("session");
		const event = { type: "session_load_warning", file, line: at + 1, byteOffset: offset };
		expect(jsonLines[1]).toMatchObject(event);
		expect(String(jsonLines[1]?.message)).not.toBe("");

		pi = spawnRaw(sb, ["--session", file]);
		pi.send(`${JSON.stringify({ id: "s", type: "get_state" })}\n`);
		await pi.waitFor((r) => r.id === "s");
		expectWarning(pi.stderr());
		// rpc: a record before any response.
		expect(pi.records[0]).toMatchObject(event);
	});
});
