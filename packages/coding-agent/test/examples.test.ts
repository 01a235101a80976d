// Runs every SDK example (examples/*.ts, importing the BUILT package) against
// the fake provider, so the examples cannot rot. The examples are turned into
// JavaScript once, as tsx would on each run (esbuild strips the types; the
// packages they import stay imports, resolved by node to the built package),
// and each runs under plain node: tsx's loader hooks cost a second of CPU per
// run on every module the built package loads.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	assertBuilt,
	body,
	createSandbox,
	type PiResult,
	runProcess,
	type Sandbox,
	textReply,
	toolReply,
} from "./cli/support.js";

const EXAMPLES = resolve(__dirname, "../examples");
// Under the repository's node_modules, so that node finds @pi/coding-agent and the other packages from there.
const CACHE = resolve(__dirname, "../../../node_modules/.cache");
let built = "";

let sb: Sandbox;
beforeAll(() => {
	assertBuilt();
	mkdirSync(CACHE, { recursive: true });
	built = mkdtempSync(join(CACHE, "pi-examples-"));
	buildSync({
		entryPoints: readdirSync(EXAMPLES)
			.filter((f) => /^\d\d-.*\.ts$/.test(f))
			.map((f) => join(EXAMPLES, f)),
		bundle: true,
		packages: "external",
		platform: "node",
		format: "esm",
		target: "node20",
		outdir: built,
		outExtension: { ".js": ".mjs" },
		logLevel: "silent",
	});
});
afterAll(() => {
	if (built) rmSync(built, { recursive: true, force: true });
});
beforeEach(async () => {
	sb = await createSandbox();
});
afterEach(async () => {
	await sb.close();
});

function runExample(name: string): Promise<PiResult> {
	return runProcess(process.execPath, [join(built, name.replace(/\.ts$/, ".mjs"))], {
		cwd: sb.cwd,
		env: { ...sb.env, PI_EXAMPLE_MODEL: "fake/fake-model" },
	});
}

function systemText(index: number): string {
	const messages = body(sb.fake, index).messages;
	return messages
		.filter((m) => m.role === "system" || m.role === "developer")
		.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
		.join("\n");
}

describe("SDK examples", () => {
	it("every example file has a test here", () => {
		const files = readdirSync(EXAMPLES).filter((f) => /^\d\d-.*\.ts$/.test(f));
		expect(files).toEqual([
			"01-minimal.ts",
			"02-custom-tool.ts",
			"03-in-memory-session.ts",
			"04-custom-system-prompt.ts",
			"05-events.ts",
			"06-steering.ts",
			"07-rpc-client.ts",
			"08-extensions.ts",
		]);
	});

	it("01-minimal streams the answer", async () => {
		sb.fake.enqueue(textReply("Hello from the fake model."));
		const r = await runExample("01-minimal.ts");
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("Hello from the fake model.\n");
	});

	it("02-custom-tool runs the custom tool", async () => {
		sb.fake.enqueue(toolReply("roll_dice", { sides: 6 }), textReply("You rolled a 1."));
		const r = await runExample("02-custom-tool.ts");
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("[tool roll_dice] Rolled a d6: 1\nYou rolled a 1.\n");
		expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toEqual(["read", "roll_dice"]);
	});

	it("03-in-memory-session keeps context in memory and writes no file", async () => {
		sb.fake.enqueue(textReply("OK"), textReply("Teal."));
		const r = await runExample("03-in-memory-session.ts");
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("1: OK\n2: Teal.\nmessages: 2 user, 2 assistant; file: none\n");
		expect(JSON.stringify(body(sb.fake, 1).messages)).toContain("favourite colour is teal");
		expect(existsSync(join(sb.agentDir, "sessions"))).toBe(false);
	});

	it("04-custom-system-prompt sends the custom prompt", async () => {
		sb.fake.enqueue(textReply("Arr, a compiler turns code into machine speak."));
		const r = await runExample("04-custom-system-prompt.ts");
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("Arr, a compiler turns code into machine speak.\n");
		const system = systemText(0);
		expect(system).toContain("You are a pirate.");
		expect(system).toContain("Keep answers to one sentence.");
	});

	it("05-events traces every event", async () => {
		sb.fake.enqueue(toolReply("ls", {}), textReply("Nothing much."));
		const r = await runExample("05-events.ts");
		expect(r.code).toBe(0);
		const lines = r.stdout.trimEnd().split("\n");
		expect(lines[0]).toBe("agent_start");
		expect(lines).toContain("tool_execution_start ls {}");
		expect(lines).toContain("tool_execution_end ls isError=false");
		expect(lines).toContain('message_update text_delta "Nothing much."');
		expect(lines.slice(-2)).toEqual(["agent_end (4 new messages)", "agent_settled"]);
	});

	it("06-steering steers and follows up while the tool runs", async () => {
		sb.fake.enqueue(
			toolReply("bash", { command: "sleep 0.2; echo 2026" }),
			textReply("It is 2026; today is Sunday."),
			textReply("Goodbye!"),
		);
		const r = await runExample("06-steering.ts");
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(r.stdout.trimEnd().split("\n")).toEqual([
			"user: Run `sleep 1; date +%Y` and tell me the year.",
			'queue: steering=["Actually, also tell me today\'s weekday."] followUp=[]',
			'queue: steering=["Actually, also tell me today\'s weekday."] followUp=["When you are done, say goodbye."]',
			'queue: steering=[] followUp=["When you are done, say goodbye."]',
			"user: Actually, also tell me today's weekday.",
			"assistant: It is 2026; today is Sunday.",
			"queue: steering=[] followUp=[]",
			"user: When you are done, say goodbye.",
			"assistant: Goodbye!",
		]);
		expect(sb.fake.requests).toHaveLength(3);
	});

	it("08-extensions loads an inline extension, uses its tool, reloads it", async () => {
		sb.fake.enqueue(toolReply("shout", { text: "hello" }), textReply("HELLO it is."));
		const r = await runExample("08-extensions.ts");
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(r.stdout.trimEnd().split("\n")).toEqual([
			"session_start startup (instance 1)",
			"HELLO it is.",
			"session_shutdown reload (instance 1)",
			"session_start reload (instance 2)",
			"reload ok: true",
			"session_shutdown quit (instance 2)",
		]);
		expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toContain("shout");
		expect(JSON.stringify(body(sb.fake, 1).messages)).toContain("HELLO");
	});

	it("docs/sdk.md shows 08-extensions as it is", () => {
		const example = readFileSync(join(EXAMPLES, "08-extensions.ts"), "utf8");
		const docs = readFileSync(resolve(__dirname, "../../../docs/sdk.md"), "utf8");
		expect(docs).toContain(`\`\`\`ts\n${example.slice(example.indexOf("import {"))}\`\`\``);
	});

	it("07-rpc-client drives pi --mode rpc", async () => {
		sb.fake.enqueue(textReply("Hello there, nice to meet."));
		const r = await runExample("07-rpc-client.ts");
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("model: fake/fake-model\nHello there, nice to meet.\nlast: Hello there, nice to meet.\n");
	});
});
