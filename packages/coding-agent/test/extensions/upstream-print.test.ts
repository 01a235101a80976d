// Upstream 1.6.0's example extensions, unmodified (test/fixtures/extensions/
// upstream), loaded by the BUILT pi in print and json mode against the fake
// provider. Each test asserts what the example does on 1.6.0: the request it
// changes, the call it blocks, the entry it writes. Build first.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GoogleStream } from "../../../ai/test/support/fake-provider/google.js";
import { body, textReply, toolReply, useCliSandbox } from "../cli/support.js";
import { git, initRepo, stashCommits } from "./git-repo.js";

const UPSTREAM = resolve(__dirname, "../fixtures/extensions/upstream");
const ext = (name: string) => ["-e", join(UPSTREAM, name)];
const MODEL = ["--model", "fake/fake-model"];

const sb = useCliSandbox();

function sessionEntries(): Record<string, unknown>[] {
	const root = join(sb.agentDir, "sessions");
	const files = existsSync(root)
		? readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => join(root, d, f)))
		: [];
	expect(files).toHaveLength(1);
	return readFileSync(files[0], "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l));
}

const toolResultText = (i: number) =>
	JSON.stringify(
		body(sb.fake, i)
			.messages.filter((m) => m.role === "tool")
			.map((m) => m.content),
	);

describe("upstream examples in print mode (built CLI)", () => {
	it("hello: the tool is declared and its result reaches the model", async () => {
		sb.fake.enqueue(toolReply("hello", { name: "Ada" }), textReply("done"));
		const r = await sb.run(["-p", ...MODEL, ...ext("hello.ts"), "greet Ada"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("done\n");
		expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toContain("hello");
		expect(toolResultText(1)).toContain("Hello, Ada!");
	});

	it("permission-gate: a dangerous bash command is blocked without UI; a safe one runs", async () => {
		sb.fake.enqueue(
			toolReply("bash", { command: "sudo rm -rf /tmp/x" }),
			toolReply("bash", { command: "echo safe-ok" }),
			textReply("ok"),
		);
		const r = await sb.run(["-p", ...MODEL, ...ext("permission-gate.ts"), "go"]);
		expect(r.code).toBe(0);
		expect(toolResultText(1)).toContain("Dangerous command blocked (no UI for confirmation)");
		expect(toolResultText(2)).toContain("safe-ok");
	});

	it("protected-paths: writes to .env are blocked, other writes pass", async () => {
		sb.fake.enqueue(
			toolReply("write", { path: ".env", content: "SECRET=1" }),
			toolReply("write", { path: "notes.txt", content: "fine" }),
			textReply("ok"),
		);
		const r = await sb.run(["-p", ...MODEL, ...ext("protected-paths.ts"), "go"]);
		expect(r.code).toBe(0);
		expect(existsSync(join(sb.cwd, ".env"))).toBe(false);
		expect(readFileSync(join(sb.cwd, "notes.txt"), "utf8")).toBe("fine");
		expect(toolResultText(1)).toContain('Path \\".env\\" is protected');
	});

	it("input-transform: 'ping' is handled without a request; '?quick' is rewritten", async () => {
		sb.fake.enqueue(textReply("brief"));
		const r = await sb.run(["-p", ...MODEL, ...ext("input-transform.ts"), "ping", "?quick What is TS?"]);
		expect(r.code).toBe(0);
		expect(sb.fake.requests).toHaveLength(1);
		expect(JSON.stringify(body(sb.fake, 0).messages.at(-1)?.content)).toContain(
			"Respond briefly in 1-2 sentences: What is TS?",
		);
		expect(r.stdout).toBe("brief\n");
	});

	it("inline-bash: !{command} is replaced by its output before the request", async () => {
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, ...ext("inline-bash.ts"), "value is !{echo 42}"]);
		expect(r.code).toBe(0);
		expect(JSON.stringify(body(sb.fake, 0).messages.at(-1)?.content)).toContain("value is 42");
	});

	it("pirate: /pirate runs in print mode, then before_agent_start forces the pirate prompt", async () => {
		sb.fake.enqueue(textReply("Arr"));
		const r = await sb.run(["-p", ...MODEL, ...ext("pirate.ts"), "/pirate", "hello"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain("Arrr! Pirate mode enabled!");
		const first = body(sb.fake, 0).messages[0];
		expect(first.role).toBe("system");
		expect(String(first.content)).toContain("PIRATE MODE");
		// The forced prompt changes the request, not the recorded system entry.
		expect(JSON.stringify(sessionEntries().filter((e) => e.type === "message"))).not.toContain("PIRATE MODE");
	});

	it("tool-override: the extension's read replaces the built-in and blocks .env", async () => {
		writeFileSync(join(sb.cwd, ".env"), "SECRET=1\n");
		writeFileSync(join(sb.cwd, "a.txt"), "plain text\n");
		sb.fake.enqueue(toolReply("read", { path: ".env" }), toolReply("read", { path: "a.txt" }), textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, ...ext("tool-override.ts"), "go"]);
		expect(r.code).toBe(0);
		expect(toolResultText(1)).toContain("Access denied");
		expect(toolResultText(1)).not.toContain("SECRET");
		expect(toolResultText(2)).toContain("plain text");
		expect(readFileSync(join(sb.agentDir, "read-access.log"), "utf8")).toMatch(
			/BLOCKED: .*\.env[\s\S]*ALLOWED: .*a\.txt/,
		);
	});

	it("dynamic-tools: a tool registered in session_start and one from a command are declared", async () => {
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, ...ext("dynamic-tools.ts"), "/add-echo-tool shout", "hi"]);
		expect(r.code).toBe(0);
		expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toEqual(
			expect.arrayContaining(["echo_session", "shout"]),
		);
	});

	it("provider-payload: the request payload and response status are logged", async () => {
		mkdirSync(join(sb.cwd, ".pi"), { recursive: true });
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, ...ext("provider-payload.ts"), "hi"]);
		expect(r.code).toBe(0);
		const log = readFileSync(join(sb.cwd, ".pi", "provider-payload.log"), "utf8");
		expect(log).toContain('"model": "fake-model"');
		expect(log).toContain("[200]");
	});

	it("send-user-message: /ask sends a user message and print mode waits for its run", async () => {
		sb.fake.enqueue(textReply("four"));
		const r = await sb.run(["-p", ...MODEL, ...ext("send-user-message.ts"), "/ask what is 2+2?"]);
		expect(r.code).toBe(0);
		expect(sb.fake.requests).toHaveLength(1);
		expect(JSON.stringify(body(sb.fake, 0).messages.at(-1)?.content)).toContain("what is 2+2?");
		expect(r.stdout).toBe("four\n");
	});

	it("session-name and bookmark: the name and the label are session entries", async () => {
		sb.fake.enqueue(textReply("answer"));
		const r = await sb.run([
			"-p",
			...MODEL,
			...ext("session-name.ts"),
			...ext("bookmark.ts"),
			"/session-name Refactor",
			"hi",
			"/bookmark keep",
		]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain("Session named: Refactor");
		expect(r.stderr).toContain("Bookmarked as: keep");
		const entries = sessionEntries();
		expect(entries).toContainEqual(expect.objectContaining({ type: "session_info", name: "Refactor" }));
		const assistant = entries.find((e) => e.type === "message" && (e.message as { role: string }).role === "assistant");
		expect(entries).toContainEqual(expect.objectContaining({ type: "label", targetId: assistant?.id, label: "keep" }));
	});

	it("event-bus: an event emitted on session_start and by /emit reaches the listener", async () => {
		const r = await sb.run(["-p", ...MODEL, ...ext("event-bus.ts"), "/emit hi there"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain("Event from event-bus-example: Session started");
		expect(r.stderr).toContain("Event from /emit command: hi there");
		expect(sb.fake.requests).toHaveLength(0);
	});

	it("git-checkpoint: each turn after the model changed tracked files starts with a git stash commit; the work tree is untouched", async () => {
		initRepo(sb.cwd, { "a.txt": "v1\n" });
		const head = git(sb.cwd, ["rev-parse", "HEAD"]);
		sb.fake.enqueue(
			toolReply("bash", { command: "printf 'v2\\n' > a.txt" }),
			toolReply("bash", { command: "printf 'v3\\n' > a.txt" }),
			textReply("done"),
		);
		const r = await sb.run(["-p", ...MODEL, ...ext("git-checkpoint.ts"), "change a.txt twice"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("done\n");
		// Turn 1 starts clean (nothing to stash); turns 2 and 3 start after a change: `git stash create` each.
		const stashes = stashCommits(sb.cwd, "a.txt");
		expect(stashes.map((c) => c.content)).toEqual(["v2\n", "v3\n"]);
		expect(stashes.every((c) => c.subject.startsWith("WIP on main:"))).toBe(true);
		// Only objects: no stash entry, HEAD and the file as the model left them.
		expect(git(sb.cwd, ["stash", "list"])).toBe("");
		expect(git(sb.cwd, ["rev-parse", "HEAD"])).toBe(head);
		expect(readFileSync(join(sb.cwd, "a.txt"), "utf8")).toBe("v3\n");
	});

	it("custom-compaction: threshold compactions after each run store the summary gemini-2.5-flash wrote for the extension", async () => {
		// A tiny window: each answer's reported 55 tokens pass the threshold (1000 - 960), so pi compacts after every run.
		sb.writeModels({ models: [{ id: "fake-model", contextWindow: 1000 }] });
		const models = JSON.parse(readFileSync(join(sb.agentDir, "models.json"), "utf8"));
		models.providers.google = { baseUrl: sb.fake.url };
		writeFileSync(join(sb.agentDir, "models.json"), JSON.stringify(models));
		writeFileSync(
			join(sb.agentDir, "settings.json"),
			JSON.stringify({ compaction: { reserveTokens: 960, keepRecentTokens: 1 } }),
		);
		const gemini = (text: string) => new GoogleStream().text(text).chunk([], "STOP").script();
		sb.fake.enqueue(
			textReply("first answer"),
			gemini("SUMMARY ONE"),
			textReply("second answer"),
			gemini("SUMMARY TWO"),
		);
		const r = await sb.run(["-p", ...MODEL, ...ext("custom-compaction.ts"), "first question", "second question"], {
			env: { GEMINI_API_KEY: "fake-google-key" },
		});
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("second answer\n");
		expect(r.stderr).not.toMatch(/Compaction failed|using default compaction/);
		expect(sb.fake.requests.map((q) => q.path)).toEqual([
			"/v1/chat/completions",
			"/models/gemini-2.5-flash:streamGenerateContent",
			"/v1/chat/completions",
			"/models/gemini-2.5-flash:streamGenerateContent",
		]);
		expect(JSON.stringify(sb.fake.requests[1].body)).toContain("first question");
		expect(JSON.stringify(sb.fake.requests[2].body)).toContain("SUMMARY ONE");
		expect(
			sessionEntries()
				.filter((e) => e.type === "compaction")
				.map((e) => e.summary),
		).toEqual(["SUMMARY ONE", "SUMMARY TWO"]);
	});

	it("with-deps: the extension's own node_modules resolve and its tool runs", async () => {
		const dir = join(sb.root, "with-deps");
		cpSync(join(UPSTREAM, "with-deps"), dir, { recursive: true });
		cpSync(resolve(__dirname, "../../../../node_modules/ms"), join(dir, "node_modules", "ms"), { recursive: true });
		sb.fake.enqueue(toolReply("parse_duration", { duration: "2 days" }), textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", dir, "how long"]);
		expect(r.stderr).toBe("");
		expect(toolResultText(1)).toContain("2 days = 172800000 milliseconds");
	});
});

describe("bad extensions stop print/json/rpc before any request (built CLI)", () => {
	it("a missing -e file: exit 1, the file named, no request", async () => {
		const r = await sb.run(["-p", ...MODEL, "-e", "./nope.ts", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`Extension file not found: ${join(sb.cwd, "nope.ts")}`);
		expect(sb.fake.requests).toHaveLength(0);
	});

	it("a syntax error: exit 1 naming file and line", async () => {
		writeFileSync(join(sb.cwd, "broken.ts"), "export default function (pi) {\n  const = 1;\n}\n");
		const r = await sb.run(["--mode", "json", ...MODEL, "-e", "broken.ts", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`${join(sb.cwd, "broken.ts")}:2`);
		expect(sb.fake.requests).toHaveLength(0);
	});

	it("--no-extensions skips discovery but -e still loads; an unknown flag is an error unless registered", async () => {
		mkdirSync(join(sb.agentDir, "extensions"), { recursive: true });
		writeFileSync(
			join(sb.agentDir, "extensions", "broken.ts"),
			"export default function () { throw new Error('x'); }\n",
		);
		writeFileSync(
			join(sb.cwd, "flag.ts"),
			`export default function (pi) {\n  pi.registerFlag("shout", { type: "boolean", description: "Shout" });\n  pi.on("input", (e) => ({ action: "transform", text: pi.getFlag("shout") ? e.text.toUpperCase() : e.text }));\n}\n`,
		);
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-ne", "-e", "flag.ts", "--shout", "hello"]);
		expect(r.stderr).toBe("");
		expect(JSON.stringify(body(sb.fake, 0).messages.at(-1)?.content)).toContain("HELLO");
		const unknown = await sb.run(["-p", ...MODEL, "-ne", "-e", "flag.ts", "--whisper", "hello"]);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toContain("Unknown option: --whisper");
		const help = await sb.run(["-ne", "-e", "flag.ts", "--help"]);
		expect(help.stdout).toMatch(/--shout\s+Shout/);
	});

	it("print mode: a throwing handler (not tool_call) goes to stderr naming the extension and event; the run goes on", async () => {
		const thrower = join(sb.cwd, "thrower.ts");
		writeFileSync(
			thrower,
			`export default function (pi) {\n  pi.on("agent_start", () => { throw new Error("handler broke"); });\n  pi.on("turn_end", async () => { throw new Error("turn broke"); });\n}\n`,
		);
		sb.fake.enqueue(textReply("still answered"));
		const r = await sb.run(["-p", ...MODEL, "-e", "thrower.ts", "hi"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("still answered\n");
		const reported = r.stderr.split("\n").filter((l) => l.startsWith("Extension error"));
		expect(reported).toEqual([
			`Extension error (${thrower}, agent_start): handler broke`,
			`Extension error (${thrower}, turn_end): turn broke`,
		]);
		expect(sb.fake.requests).toHaveLength(1);
	});

	it("json mode: a throwing handler is an extension_error event and the run goes on", async () => {
		writeFileSync(
			join(sb.cwd, "thrower.ts"),
			`export default function (pi) { pi.on("agent_start", () => { throw new Error("handler broke"); }); }\n`,
		);
		sb.fake.enqueue(textReply("still answered"));
		const r = await sb.run(["--mode", "json", ...MODEL, "-e", "thrower.ts", "hi"]);
		expect(r.code).toBe(0);
		const lines = r.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(lines).toContainEqual(
			expect.objectContaining({
				type: "extension_error",
				event: "agent_start",
				error: "handler broke",
				extensionPath: join(sb.cwd, "thrower.ts"),
			}),
		);
		expect(JSON.stringify(lines)).toContain("still answered");
	});
});
