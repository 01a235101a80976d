// Issue 21, "bad config files stop start-up with nameless errors": through the
// BUILT CLI, a settings.json / auth.json / models.json that is a directory,
// nested 200,000 levels, 1 GB large, or holds a wrong-typed value is a warning
// naming the file and what is wrong; the rest runs on defaults and the answer
// still comes back.
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";

const MODEL = ["--model", "fake/fake-model"];
const sb = useCliSandbox();

/** The run answered normally and stderr has a warning naming `file` and `reason`, with no stack trace. */
async function expectWarnedRun(file: string, reason: RegExp, env: NodeJS.ProcessEnv = {}) {
	sb.fake.enqueue(textReply("still works"));
	const r = await sb.run(["-p", ...MODEL, "hello"], { env });
	expect(r.stderr).toContain(file);
	expect(r.stderr).toMatch(reason);
	expect(r.stderr).not.toMatch(/\n\s+at |EISDIR: illegal|Maximum call stack|is not a function/);
	expect(r.stdout).toBe("still works\n");
	expect(r.code).toBe(0);
	return r;
}

describe("settings.json that cannot be used", () => {
	it("a directory: a warning naming it, defaults for the rest", async () => {
		const file = join(sb.agentDir, "settings.json");
		mkdirSync(file);
		await expectWarnedRun(file, /is a directory/);
	});

	it("200,000 nested '[': a warning with the position, no stack overflow", async () => {
		const file = join(sb.agentDir, "settings.json");
		writeFileSync(file, "[".repeat(200_000));
		await expectWarnedRun(file, /nested more than \d+ levels/);
		// Valid but absurdly deep JSON is refused the same way.
		writeFileSync(file, `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`);
		await expectWarnedRun(file, /nested more than \d+ levels/);
	});

	it("a 1 GB file is refused by its size, not read into memory", async () => {
		const file = join(sb.agentDir, "settings.json");
		const fd = openSync(file, "w");
		closeSync(fd);
		// Sparse: costs no disk, but is 1 GB to anyone who reads it.
		writeFileSync(file, "{", { flag: "r+" });
		const { truncateSync } = await import("node:fs");
		truncateSync(file, 1024 * 1024 * 1024);
		expect(statSync(file).size).toBe(1024 * 1024 * 1024);
		await expectWarnedRun(file, /1\.0 GB, more than the/);
	});

	it('a wrong-typed value ("sessionDir": {}) is named and ignored; the valid keys still apply', async () => {
		const file = join(sb.agentDir, "settings.json");
		const text = JSON.stringify({ sessionDir: {}, retry: { enabled: "yes", maxRetries: 0 }, quietStartup: true });
		writeFileSync(file, text);
		const r = await expectWarnedRun(file, /"sessionDir" must be a string, found an object/);
		expect(r.stderr).toMatch(/"retry\.enabled" must be a boolean, found the string "yes"/);
		expect(readFileSync(file, "utf8")).toBe(text); // never rewritten
		// The session went to the default place (not a dir named "[object Object]").
		expect(() => statSync(join(sb.cwd, "[object Object]"))).toThrow();
	});
});

describe("auth.json and models.json that cannot be used", () => {
	it("auth.json a directory: a warning naming it; the env key still works", async () => {
		const file = join(sb.agentDir, "auth.json");
		mkdirSync(file);
		sb.writeModels({ apiKey: "PI_REL_FAKE_KEY" });
		await expectWarnedRun(file, /is a directory/, { PI_REL_FAKE_KEY: "sk-from-env" });
	});

	it("models.json a directory: a warning naming it, built-in models only", async () => {
		const file = join(sb.agentDir, "models.json");
		writeFileSync(join(sb.root, "ignored"), "");
		const { rmSync } = await import("node:fs");
		rmSync(file);
		mkdirSync(file);
		const r = await sb.run(["-p", ...MODEL, "hello"]);
		expect(r.stderr).toContain(`${file} is a directory`);
		expect(r.stderr).not.toMatch(/EISDIR: illegal|\n\s+at /);
	});

	it("models.json nested 200,000 levels: a warning with the position", async () => {
		const file = join(sb.agentDir, "models.json");
		writeFileSync(file, `{"providers":${"[".repeat(200_000)}`);
		const r = await sb.run(["-p", ...MODEL, "hello"]);
		expect(r.stderr).toContain(file);
		expect(r.stderr).toMatch(/nest/i);
		expect(r.stderr).not.toMatch(/Maximum call stack|\n\s+at /);
	});
});
