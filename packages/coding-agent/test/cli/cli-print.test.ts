// The built CLI end to end against the fake provider: print mode tool loops,
// --continue, --no-session and the error paths.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { body, textReply, toolReply, useCliSandbox } from "./support.js";

/** Not on this machine, so a provider there counts as configured only with a key. */
const REMOTE_URL = "https://llm.example.invalid/v1";

const sb = useCliSandbox();

const MODEL = ["--model", "fake/fake-model"];

function sessionFiles(): string[] {
	const root = join(sb.agentDir, "sessions");
	if (!existsSync(root)) return [];
	return readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => join(root, d, f)));
}

describe("pi -p (print mode)", () => {
	it("runs a write → read → answer tool loop and prints only the final text", async () => {
		sb.fake.enqueue(
			toolReply("write", { path: "notes.txt", content: "hello from the model\n" }),
			toolReply("read", { path: "notes.txt" }),
			textReply("The file says hello."),
		);
		const r = await sb.run(["-p", ...MODEL, "write and read notes.txt"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("The file says hello.\n");
		expect(r.code).toBe(0);
		expect(readFileSync(join(sb.cwd, "notes.txt"), "utf8")).toBe("hello from the model\n");
		expect(sb.fake.requests).toHaveLength(3);
		const third = body(sb.fake, 2);
		expect(third.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
		expect(JSON.stringify(third.messages[5].content)).toContain("hello from the model");
		expect(sb.fake.requests[0].headers.authorization).toBe("Bearer fake-key");
		// Default tools are declared; the system prompt names the cwd.
		expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toEqual(["read", "bash", "edit", "write"]);
		expect(String(body(sb.fake, 0).messages[0].content)).toContain(`Current working directory: ${sb.cwd}`);
		// The session file holds the whole exchange.
		const files = sessionFiles();
		expect(files).toHaveLength(1);
		const lines = readFileSync(files[0], "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(lines[0]).toMatchObject({ type: "session", version: 3, cwd: sb.cwd });
		// builtin:checkpoints' custom entries are its own tests' business.
		const recorded = lines.slice(1).filter((e) => !(e.type === "custom" && e.customType === "checkpoint"));
		expect(recorded.map((e) => (e.type === "message" ? e.message.role : e.type))).toEqual([
			"model_change",
			"thinking_level_change",
			"system",
			"user",
			"assistant",
			"toolResult",
			"assistant",
			"toolResult",
			"assistant",
		]);
	});

	it("applies an edit", async () => {
		writeFileSync(join(sb.cwd, "app.js"), "const x = 1;\nconsole.log(x);\n");
		sb.fake.enqueue(
			toolReply("edit", { path: "app.js", edits: [{ oldText: "const x = 1;", newText: "const x = 2;" }] }),
			textReply("Changed x to 2."),
		);
		const r = await sb.run(["-p", ...MODEL, "set x to 2"]);
		expect(r.stdout).toBe("Changed x to 2.\n");
		expect(r.code).toBe(0);
		expect(readFileSync(join(sb.cwd, "app.js"), "utf8")).toBe("const x = 2;\nconsole.log(x);\n");
		const toolMessage = body(sb.fake, 1).messages[3];
		expect(toolMessage.role).toBe("tool");
	});

	it("--continue sends the previous exchange", async () => {
		sb.fake.enqueue(textReply("Noted: 42."), textReply("It was 42."));
		const first = await sb.run(["-p", ...MODEL, "remember the number 42"]);
		expect(first.stdout).toBe("Noted: 42.\n");
		const second = await sb.run(["-c", "-p", "which number?"]);
		expect(second.stderr).toBe("");
		expect(second.stdout).toBe("It was 42.\n");
		const sent = body(sb.fake, 1).messages;
		expect(sent.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
		expect(JSON.stringify(sent[1].content)).toContain("remember the number 42");
		expect(sent[2].content).toBe("Noted: 42.");
		expect(JSON.stringify(sent[3].content)).toContain("which number?");
		expect(sessionFiles()).toHaveLength(1);
	});

	it("--no-session writes no session file", async () => {
		sb.fake.enqueue(textReply("ephemeral"));
		const r = await sb.run(["--no-session", "-p", ...MODEL, "hi"]);
		expect(r.stdout).toBe("ephemeral\n");
		expect(existsSync(join(sb.agentDir, "sessions"))).toBe(false);
		expect(readdirSync(sb.agentDir).sort()).toEqual(["models.json"]);
	});

	it("joins piped stdin, @file text and the message into the first prompt", async () => {
		writeFileSync(join(sb.cwd, "ctx.md"), "file body");
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "@ctx.md", "question"], { stdin: "piped " });
		expect(r.code).toBe(0);
		const user = body(sb.fake, 0).messages[1];
		expect(JSON.stringify(user.content)).toContain(
			JSON.stringify(`piped <file name="${join(sb.cwd, "ctx.md")}">\nfile body\n</file>\nquestion`).slice(1, -1),
		);
	});

	it("stdin redirected from a file is read like piped stdin; from /dev/null adds nothing", async () => {
		// (run.ts reads a file or character device from the descriptor, not through process.stdin.)
		const input = join(sb.root, "input.txt");
		writeFileSync(input, "from a file ");
		sb.fake.enqueue(textReply("ok"));
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "question"], { stdin: { file: input } });
		expect(r.code, r.stderr).toBe(0);
		expect(JSON.stringify(body(sb.fake, 0).messages[1].content)).toContain("from a file question");
		const empty = await sb.run(["-p", ...MODEL, "question"], { stdin: { file: "/dev/null" } });
		expect(empty.code, empty.stderr).toBe(0);
		expect(JSON.stringify(body(sb.fake, 1).messages[1].content)).toContain('"question"');
	});

	it("--system-prompt replaces the base and --append-system-prompt appends", async () => {
		sb.fake.enqueue(textReply("arr"));
		await sb.run(["-p", ...MODEL, "--system-prompt", "You are a pirate.", "--append-system-prompt", "Say arr.", "hi"]);
		const system = String(body(sb.fake, 0).messages[0].content);
		expect(system.startsWith("You are a pirate.\n\nSay arr.\n\n")).toBe(true);
		expect(system).not.toContain("Available tools:");
	});

	it("--tools and --no-tools choose the declared tools", async () => {
		sb.fake.enqueue(textReply("a"), textReply("b"));
		await sb.run(["-p", ...MODEL, "--tools", "read,ls", "x"]);
		await sb.run(["-p", ...MODEL, "--no-tools", "--no-session", "y"]);
		expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toEqual(["read", "ls"]);
		expect(body(sb.fake, 1).tools).toBeUndefined();
	});

	it("--provider alone, --models patterns and --thinking choose the request's model and effort", async () => {
		sb.writeModels({
			compat: { supportsDeveloperRole: false, supportsReasoningEffort: true },
			models: [
				{ id: "fake-model", contextWindow: 100000 },
				{ id: "fake-thinker", reasoning: true, contextWindow: 100000 },
			],
		});
		sb.fake.enqueue(textReply("a"), textReply("b"), textReply("c"));
		await sb.run(["-p", "--no-session", "--provider", "fake", "x"]);
		await sb.run(["-p", "--no-session", "--models", "*thinker", "--thinking", "high", "x"]);
		await sb.run(["-p", "--no-session", "--model", "fake/fake-thinker:low", "x"]);
		const sent = [0, 1, 2].map((i) => sb.fake.requests[i].body as { model: string; reasoning_effort?: string });
		expect(sent.map((b) => [b.model, b.reasoning_effort])).toEqual([
			["fake-model", undefined],
			["fake-thinker", "high"],
			["fake-thinker", "low"],
		]);
	});

	it("the max thinking level: --thinking max, the :max suffix and defaultThinkingLevel, clamped where a model lacks it", async () => {
		sb.writeModels({
			compat: { supportsDeveloperRole: false, supportsReasoningEffort: true },
			models: [
				{ id: "fake-max", reasoning: true, contextWindow: 100000, thinkingLevelMap: { xhigh: "xhigh", max: "max" } },
				{ id: "fake-xhigh", reasoning: true, contextWindow: 100000, thinkingLevelMap: { xhigh: "xhigh" } },
				{ id: "fake-thinker", reasoning: true, contextWindow: 100000 },
			],
		});
		sb.fake.enqueue(textReply("a"), textReply("b"), textReply("c"), textReply("d"), textReply("e"));
		await sb.run(["-p", "--no-session", "--model", "fake/fake-max", "--thinking", "max", "x"]);
		await sb.run(["-p", "--no-session", "--model", "fake/fake-max:max", "x"]);
		await sb.run(["-p", "--no-session", "--model", "fake/fake-xhigh:max", "x"]);
		await sb.run(["-p", "--no-session", "--model", "fake/fake-thinker", "--thinking", "max", "x"]);
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ defaultThinkingLevel: "max" }));
		const r = await sb.run(["-p", "--no-session", "--model", "fake/fake-max", "x"]);
		expect(r.stderr).not.toContain("defaultThinkingLevel");
		const sent = [0, 1, 2, 3, 4].map((i) => sb.fake.requests[i].body as { model: string; reasoning_effort?: string });
		expect(sent.map((b) => [b.model, b.reasoning_effort])).toEqual([
			["fake-max", "max"],
			["fake-max", "max"],
			["fake-xhigh", "xhigh"],
			["fake-thinker", "high"],
			["fake-max", "max"],
		]);
	});

	it("the defaultTools setting adds, removes or replaces the default tools; --tools still wins", async () => {
		const names = (i: number) => body(sb.fake, i).tools?.map((t) => t.function.name);
		const settings = join(sb.agentDir, "settings.json");
		sb.fake.enqueue(textReply("a"), textReply("b"), textReply("c"), textReply("d"));
		writeFileSync(settings, JSON.stringify({ defaultTools: ["+grep", "-bash"] }));
		await sb.run(["-p", ...MODEL, "--no-session", "x"]);
		writeFileSync(settings, JSON.stringify({ defaultTools: ["ls", "read", "+find"] }));
		await sb.run(["-p", ...MODEL, "--no-session", "x"]);
		await sb.run(["-p", ...MODEL, "--no-session", "--tools", "edit", "x"]);
		writeFileSync(settings, JSON.stringify({ defaultTools: [] }));
		await sb.run(["-p", ...MODEL, "--no-session", "x"]);
		expect(names(0)).toEqual(["read", "edit", "write", "grep"]);
		expect(names(1)).toEqual(["ls", "read", "find"]);
		expect(names(2)).toEqual(["edit"]);
		expect(body(sb.fake, 3).tools).toBeUndefined();
	});
});

describe("errors and exit codes", () => {
	it("no credentials at all: guidance and exit 1", async () => {
		sb.writeModels({ apiKey: undefined, baseUrl: REMOTE_URL }); // a server elsewhere needs a key
		const r = await sb.run(["-p", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stdout).toBe("");
		expect(r.stderr).toMatch(/^No models available: no provider has credentials\.\n/);
		expect(r.stderr).toContain(`${sb.agentDir}/models.json`);
	});

	it("a chosen model without a key: exit 1 naming the provider", async () => {
		sb.writeModels({ apiKey: undefined, baseUrl: REMOTE_URL }); // a server elsewhere needs a key
		const r = await sb.run(["-p", ...MODEL, "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/^No API key found for fake\. Set FAKE_API_KEY/);
		expect(sb.fake.requests).toHaveLength(0);
	});

	it("--api-key supplies the key for the chosen model's provider", async () => {
		sb.writeModels({ apiKey: undefined });
		sb.fake.enqueue(textReply("keyed"));
		const r = await sb.run(["-p", ...MODEL, "--api-key", "runtime-key", "hi"]);
		expect(r.stdout).toBe("keyed\n");
		expect(sb.fake.requests[0].headers.authorization).toBe("Bearer runtime-key");
	});

	it("an unknown model: exit 1 with a pointer to --list-models", async () => {
		const r = await sb.run(["-p", "--model", "nope-model", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe('Error: Model "nope-model" not found. Use --list-models to see available models.\n');
	});

	it("malformed settings: a warning with file, line and column; defaults used; the file is untouched", async () => {
		const bad = '{\n  "defaultModel": "x",,\n}';
		writeFileSync(join(sb.agentDir, "settings.json"), bad);
		sb.fake.enqueue(textReply("still works"));
		const r = await sb.run(["-p", ...MODEL, "hi"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("still works\n");
		expect(r.stderr).toContain(`Warning: could not parse ${join(sb.agentDir, "settings.json")} at line 2, column 23:`);
		expect(readFileSync(join(sb.agentDir, "settings.json"), "utf8")).toBe(bad);
	});

	it("a provider error ends with exit 1 and the error on stderr", async () => {
		sb.fake.enqueue({
			kind: "json",
			status: 400,
			body: { error: { message: "bad things", type: "invalid_request_error" } },
		});
		const r = await sb.run(["-p", ...MODEL, "hi"]);
		expect(r.code).toBe(1);
		expect(r.stdout).toBe("");
		expect(r.stderr).toContain("bad things");
	});

	it("an answer cut off at the output limit is printed, then exit 1 with a note on stderr", async () => {
		sb.fake.enqueue(
			new ChatStream({ model: "fake-model" }).role().text("half an ans").finish("length").done().script(),
		);
		const r = await sb.run(["-p", ...MODEL, "hi"]);
		expect(r.code).toBe(1);
		expect(r.stdout).toBe("half an ans\n");
		expect(r.stderr).toBe("Response was truncated: the model reached its output token limit.\n");
	});

	it("-r without a terminal explains the alternatives; unknown short flags are errors", async () => {
		const r = await sb.run(["-r", "-p", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe(
			"Error: --resume opens an interactive session picker, which print, json and rpc modes cannot show. " +
				"Use --continue for the most recent session, or --session <path|id> for a specific one.\n",
		);
		const x = await sb.run(["-x"]);
		expect(x.code).toBe(1);
		expect(x.stderr).toBe("Error: Unknown option: -x\n");
	});

	it("--session with an unknown id: exit 1", async () => {
		const r = await sb.run(["--session", "abc123", "-p", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe("Error: No session found matching 'abc123'\n");
	});
});

describe("--version, --help, --list-models", () => {
	it("prints the version and help without touching the config dir", async () => {
		const v = await sb.run(["--version"]);
		expect(v.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
		const h = await sb.run(["--help"]);
		expect(h.stdout).toContain("Usage:\n  pi [options] [@files...] [messages...]");
		expect(h.stdout).toContain("--list-models [search]");
		expect(readdirSync(sb.agentDir)).toEqual(["models.json"]);
	});

	it("lists models that have credentials", async () => {
		const r = await sb.run(["--list-models"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe(
			"provider  model       context  max-out  thinking  images\nfake      fake-model  100K     16.4K    no        no\n",
		);
		const none = await sb.run(["--list-models", "zzzz"]);
		expect(none.code).toBe(0);
		expect(none.stdout).toBe('No models matching "zzzz"\n');
	});
});
