// Issue 21, hand-edited and damaged session files (real files): a message
// with wrong-typed content is skipped with a warning and never fatal; a
// parentId cycle is broken at load; unknown content blocks stay on disk but
// leave the projection; one torn line in the middle keeps the parent chain and
// every complete object around it, at every cut point, glued or not.
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, tempDir, texts, user } from "./helpers.js";

function open(file: string): SessionManager {
	return SessionManager.open(file, undefined, undefined, { durability: "write" });
}

/** A session of five messages; `big` makes the 4th long enough for the lazy (index-only) load path. */
function fiveMessages(big = false): { file: string; ids: string[]; lines: string[] } {
	const dir = tempDir();
	const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
	const ids = [
		sm.appendMessage(user("one")),
		sm.appendMessage(assistant("two")),
		sm.appendMessage(user("three")),
		sm.appendMessage(assistant(big ? `four ${"x".repeat(700)}` : "four")),
		sm.appendMessage(user("five")),
	];
	const file = sm.getSessionFile() as string;
	sm.close();
	return { file, ids, lines: readFileSync(file, "utf8").split("\n") };
}

describe("invalid entries", () => {
	it("a message whose content is a number is skipped with a warning; the rest projects and appends work", () => {
		const { file, ids, lines } = fiveMessages();
		const bad = JSON.parse(lines[3]) as { message: { content: unknown } };
		bad.message.content = 5;
		lines[3] = JSON.stringify(bad);
		writeFileSync(file, lines.join("\n"));
		const sm = open(file);
		expect(sm.getLoadWarnings()).toEqual([
			expect.objectContaining({ file, line: 4, message: expect.stringMatching(/content is number/) }),
		]);
		// The chain holds (five still descends from one), the bad entry contributes nothing.
		expect(sm.getBranch().map((e) => e.id)).toEqual(ids);
		expect(texts(sm.buildSessionContext().messages)).toEqual([
			"user:one",
			"assistant:two",
			"assistant:four",
			"user:five",
		]);
		sm.appendMessage(user("six"));
		sm.close();
		expect(readFileSync(file, "utf8").startsWith(lines.join("\n"))).toBe(true);
	});

	it("also for a large entry that was only indexed at load", () => {
		const { file, lines } = fiveMessages(true);
		const bad = JSON.parse(lines[4]) as { message: { content: unknown } };
		bad.message.content = { not: "a list" };
		lines[4] = JSON.stringify(bad).replace("}}", `,"pad":"${"y".repeat(600)}"}}`);
		writeFileSync(file, lines.join("\n"));
		const sm = open(file);
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:one", "assistant:two", "user:three", "user:five"]);
		expect(sm.getLoadWarnings()).toEqual([
			expect.objectContaining({ file, message: expect.stringMatching(/content is object/) }),
		]);
		sm.close();
	});

	it("unknown content blocks are dropped from the projection and kept on disk", () => {
		const { file, lines } = fiveMessages();
		const entry = JSON.parse(lines[4]) as { message: { content: unknown[] } };
		entry.message.content.push({ type: "hologram", payload: "from a newer pi" });
		lines[4] = JSON.stringify(entry);
		const text = lines.join("\n");
		writeFileSync(file, text);
		const sm = open(file);
		const four = sm.buildSessionContext().messages[3] as { content: { type: string }[] };
		expect(four.content.map((b) => b.type)).toEqual(["text"]);
		sm.appendMessage(user("six"));
		sm.close();
		expect(readFileSync(file, "utf8").startsWith(text)).toBe(true);
		expect(readFileSync(file, "utf8")).toContain('"hologram"');
	});
});

describe("parent cycles", () => {
	it("a parentId cycle is broken at load with a warning: each message is projected once", () => {
		const { file, ids, lines } = fiveMessages();
		// one's parent becomes four: one → four → three → two → one.
		const first = JSON.parse(lines[1]) as { parentId: string | null };
		first.parentId = ids[3];
		lines[1] = JSON.stringify(first);
		writeFileSync(file, lines.join("\n"));
		const sm = open(file);
		expect(sm.getLoadWarnings()).toEqual([
			expect.objectContaining({ file, line: 2, message: expect.stringMatching(/cycle/) }),
		]);
		expect(texts(sm.buildSessionContext().messages)).toEqual([
			"user:one",
			"assistant:two",
			"user:three",
			"assistant:four",
			"user:five",
		]);
		sm.close();
	});

	it("an entry that is its own parent is a root, not a loop", () => {
		const { file, ids, lines } = fiveMessages();
		const third = JSON.parse(lines[3]) as { parentId: string | null };
		third.parentId = ids[2];
		lines[3] = JSON.stringify(third);
		writeFileSync(file, lines.join("\n"));
		const sm = open(file);
		expect(texts(sm.buildSessionContext().messages)).toEqual(["user:three", "assistant:four", "user:five"]);
		expect(sm.getLoadWarnings()[0]?.message).toMatch(/cycle/);
		sm.close();
	});
});

describe("a torn line in the middle", () => {
	for (const big of [false, true]) {
		for (const glued of [false, true]) {
			it(`every cut point of entry 4 (${big ? "large" : "small"}, ${glued ? "glued to" : "on its own line before"} entry 5): all complete entries load, the chain holds`, () => {
				const { file, ids, lines } = fiveMessages(big);
				const torn = lines[4];
				const failures: string[] = [];
				// Every cut, except inside the long run of "x" padding of the large entry (stride 7 there).
				const pad = torn.indexOf("xxxxxxxx");
				for (let cut = 1; cut < torn.length; cut += big && cut > pad + 8 && cut < pad + 690 ? 7 : 1) {
					const damaged = [...lines.slice(0, 4), `${torn.slice(0, cut)}${glued ? "" : "\n"}${lines[5]}`, ""].join("\n");
					writeFileSync(file, damaged);
					const sm = open(file);
					try {
						const got = texts(sm.buildSessionContext().messages).join(",");
						const want = "user:one,assistant:two,user:three,user:five";
						if (got !== want) failures.push(`cut ${cut}: ${got}`);
						else if (sm.getLeafId() !== ids[4]) failures.push(`cut ${cut}: leaf ${sm.getLeafId()}`);
						else if (sm.getLoadWarnings().length === 0) failures.push(`cut ${cut}: no warning`);
					} finally {
						sm.close();
					}
				}
				expect(failures.slice(0, 5)).toEqual([]);
			});
		}
	}
});
