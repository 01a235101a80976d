// Session selection from the command line: --session <path|id>, --session-dir, --fork.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, useCliSandbox } from "./support.js";

const sb = useCliSandbox();

const MODEL = ["--model", "fake/fake-model"];

describe("choosing the session", () => {
	it("--session <path> creates the file there and continues it on the next run", async () => {
		sb.fake.enqueue(textReply("first answer"), textReply("second answer"));
		const file = join(sb.root, "mine.jsonl");
		await sb.run(["--session", file, "-p", ...MODEL, "one"]);
		expect(existsSync(file)).toBe(true);
		const r = await sb.run(["--session", file, "-p", "two"]);
		expect(r.stdout).toBe("second answer\n");
		expect(body(sb.fake, 1).messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
		expect(existsSync(join(sb.agentDir, "sessions"))).toBe(false);
	});

	it("continues a session written by the reference 0.73.1 with the system prompt leading", async () => {
		const fixture = join(__dirname, "..", "session", "fixtures", "reference-0.73.1-print.jsonl");
		const file = join(sb.root, "ref.jsonl");
		const original = readFileSync(fixture, "utf8");
		writeFileSync(file, original);
		sb.fake.enqueue(textReply("third answer"));
		const r = await sb.run(["--session", file, "-p", ...MODEL, "three"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("third answer\n");
		const sent = body(sb.fake, 0).messages;
		expect(sent.map((m) => m.role)).toEqual([
			"system",
			"user",
			"assistant",
			"tool",
			"assistant",
			"user",
			"assistant",
			"user",
		]);
		expect(sent[0].content).toContain("You are an expert coding assistant");
		expect(sent.at(-1)?.content).toBe("three");
		// Appended, never rewritten: the reference's lines stay byte for byte.
		expect(readFileSync(file, "utf8").startsWith(original)).toBe(true);
	});

	it("--session <id prefix> finds the project's session; --session-dir stores elsewhere", async () => {
		sb.fake.enqueue(textReply("a"), textReply("b"), textReply("c"));
		const dir = join(sb.root, "custom-sessions");
		await sb.run(["--session-dir", dir, "-p", ...MODEL, "in custom dir"]);
		const [name] = readdirSync(dir);
		const id = name.slice(name.indexOf("_") + 1, -".jsonl".length);
		const r = await sb.run(["--session-dir", dir, "--session", id.slice(0, 8), "-p", "again"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("b\n");
		expect(readdirSync(dir)).toEqual([name]);
		// Default location: the id prefix is found under the agent dir.
		await sb.run(["-p", ...MODEL, "default dir"]);
		const root = join(sb.agentDir, "sessions");
		const [project] = readdirSync(root);
		const [file] = readdirSync(join(root, project));
		const defaultId = file.slice(file.indexOf("_") + 1, -".jsonl".length);
		sb.fake.enqueue(textReply("d"));
		const again = await sb.run(["--session", defaultId, "-p", "more"]);
		expect(again.stdout).toBe("d\n");
		expect(readFileSync(join(root, project, file), "utf8")).toContain('"more"');
	});

	it("--fork copies a session into a new file; it cannot be combined with --continue", async () => {
		sb.fake.enqueue(textReply("orig"), textReply("forked"));
		const source = join(sb.root, "src.jsonl");
		await sb.run(["--session", source, "-p", ...MODEL, "original"]);
		const bad = await sb.run(["--fork", source, "-c", "-p", "x"]);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toBe("Error: --fork cannot be combined with --continue\n");
		const r = await sb.run(["--fork", source, "-p", "continue the fork"]);
		expect(r.stdout).toBe("forked\n");
		const root = join(sb.agentDir, "sessions");
		const [project] = readdirSync(root);
		const [forked] = readdirSync(join(root, project));
		const header = JSON.parse(readFileSync(join(root, project, forked), "utf8").split("\n")[0]);
		expect(header.parentSession).toBe(source);
		expect(body(sb.fake, 1).messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
	});
});

describe("secrets", () => {
	it("a rejected key never appears in the output or the session file", async () => {
		sb.fake.enqueue({
			kind: "json",
			status: 401,
			body: { error: { message: "Incorrect API key provided", type: "invalid_request_error" } },
		});
		const r = await sb.run(["-p", ...MODEL, "--api-key", "sk-very-secret-123", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("Incorrect API key provided");
		expect(r.stdout + r.stderr).not.toContain("sk-very-secret-123");
		const root = join(sb.agentDir, "sessions");
		for (const project of readdirSync(root)) {
			for (const f of readdirSync(join(root, project))) {
				expect(readFileSync(join(root, project, f), "utf8")).not.toContain("sk-very-secret-123");
			}
		}
	});
});
