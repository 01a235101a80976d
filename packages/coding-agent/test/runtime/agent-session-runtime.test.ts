// AgentSessionRuntime (src/runtime/): the session's folder services follow
// it. /reload gives fresh extension instances (session_shutdown, then
// session_start with reason "reload") and keeps the running ones when an
// edited file is broken; a switch into a session of another folder decides
// trust for that folder again (project_trust), and moves settings,
// resources, tools, the system prompt and the extensions there.
import {
	appendFileSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "../agent-session/support.js";

let root: string;
let agentDir: string;
let a: string;
let b: string;
let log: string;

/** A global extension that logs its lifecycle and registers `tool` and /reload-now (ctx.reload). */
function globalExtension(tool: string, extra = ""): string {
	return `import { appendFileSync } from "node:fs";
const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
${extra}
export default function (pi) {
	pi.on("session_start", (e, ctx) => log("start " + e.reason + " ${tool} " + ctx.cwd));
	pi.on("session_shutdown", (e) => log("shutdown " + e.reason + " ${tool}"));
	pi.on("project_trust", (e) => { log("trust? " + e.cwd); return { trusted: "undecided" }; });
	pi.registerCommand("reload-now", { description: "reload", handler: async (_args, ctx) => { await ctx.reload(); } });
	pi.registerTool({
		name: "${tool}",
		label: "${tool}",
		description: "test tool",
		parameters: { type: "object", properties: {} },
		execute: async () => ({ content: [{ type: "text", text: "${tool}" }], details: {} }),
	});
}
`;
}

const lines = () => readFileSync(log, "utf8").trim().split("\n");

beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "pi-runtime-")));
	agentDir = join(root, "agent");
	a = join(root, "a");
	b = join(root, "b");
	log = join(root, "log.txt");
	writeFileSync(log, "");
	mkdirSync(join(agentDir, "extensions"), { recursive: true });
	mkdirSync(a, { recursive: true });
	writeFileSync(join(agentDir, "extensions", "life.ts"), globalExtension("v1tool"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function open(cwd: string, sessionManager = SessionManager.inMemory(cwd), trustB = true) {
	const s = await makeSession({
		cwd,
		agentDir,
		settingsManager: undefined,
		resourceLoader: undefined,
		sessionManager,
		tools: undefined,
		customTools: [],
		projectTrust: (dir: string) => dir !== b || trustB,
		extensions: { onError: (e) => appendFileSync(log, `error ${e.event}: ${e.error}\n`) },
	});
	if (!s.runtime) throw new Error("no runtime");
	return { ...s, runtime: s.runtime };
}

describe("AgentSessionRuntime reload", () => {
	it("fresh extension instances: session_shutdown then session_start (reload); their tools replace the old ones", async () => {
		const { session, runtime } = await open(a);
		expect(lines()).toEqual([`start startup v1tool ${a}`]);
		expect(session.getAllTools().map((t) => t.name)).toContain("v1tool");

		writeFileSync(join(agentDir, "extensions", "life.ts"), globalExtension("v2tool"));
		const result = await runtime.reload();
		expect(result).toMatchObject({ ok: true, errors: [] });
		expect(lines()).toEqual([`start startup v1tool ${a}`, "shutdown reload v1tool", `start reload v2tool ${a}`]);
		const names = session.getAllTools().map((t) => t.name);
		expect(names).toContain("v2tool");
		expect(names).not.toContain("v1tool");
		expect(session.getActiveToolNames()).toContain("v2tool");
		await runtime.dispose();
		expect(lines().at(-1)).toBe("shutdown quit v2tool");
	});

	it("a broken file keeps the running extensions and names the file and line", async () => {
		const { session, runtime } = await open(a);
		const file = join(agentDir, "extensions", "life.ts");
		writeFileSync(file, `${globalExtension("v1tool")}\nexport const broken = ;\n`);
		const result = await runtime.reload();
		expect(result.ok).toBe(false);
		expect(result.errors).toHaveLength(1);
		expect(result.errors[0]).toContain(file);
		expect(result.errors[0]).toMatch(/life\.ts:\d+/);
		// Nothing was shut down: the old instance still answers.
		expect(lines()).toEqual([`start startup v1tool ${a}`]);
		expect(session.getAllTools().map((t) => t.name)).toContain("v1tool");
		expect(runtime.bridge?.listCommands().map((c) => c.name)).toContain("reload-now");
		// A factory that throws is a load error too.
		writeFileSync(file, globalExtension("v1tool", 'throw new Error("factory exploded");'));
		const thrown = await runtime.reload();
		expect(thrown.ok).toBe(false);
		expect(thrown.errors[0]).toContain("factory exploded");
		// Fixed again: the reload goes through.
		writeFileSync(file, globalExtension("v3tool"));
		expect((await runtime.reload()).ok).toBe(true);
		expect(lines().slice(-2)).toEqual(["shutdown reload v1tool", `start reload v3tool ${a}`]);
		await runtime.dispose();
	});

	it("ctx.reload() from an extension command runs the same reload", async () => {
		const { runtime } = await open(a);
		writeFileSync(join(agentDir, "extensions", "life.ts"), globalExtension("v2tool"));
		await runtime.bridge?.submit("/reload-now");
		expect(lines()).toEqual([`start startup v1tool ${a}`, "shutdown reload v1tool", `start reload v2tool ${a}`]);
		await runtime.dispose();
	});

	it("skills and context files are read again", async () => {
		const { session, runtime, fake } = await open(a);
		writeFileSync(join(a, "AGENTS.md"), "RULE-AFTER-RELOAD");
		mkdirSync(join(agentDir, "skills", "late"), { recursive: true });
		writeFileSync(
			join(agentDir, "skills", "late", "SKILL.md"),
			"---\nname: late\ndescription: A skill added while pi ran\n---\nbody\n",
		);
		expect((await runtime.reload()).ok).toBe(true);
		expect(runtime.services.resources.getSkills().map((s) => s.name)).toEqual(["late"]);
		fake.enqueue({ text: "ok" });
		await session.prompt("hi");
		const system = JSON.stringify(fake.calls[0].messages.filter((m) => m.role === "system"));
		expect(system).toContain("RULE-AFTER-RELOAD");
		expect(system).toContain("A skill added while pi ran");
		await runtime.dispose();
	});
});

describe("AgentSessionRuntime and another folder", () => {
	function sessionIn(cwd: string): string {
		const sm = SessionManager.create(cwd, join(root, "sessions", cwd.replaceAll("/", "-")));
		sm.appendMessage({ role: "user", content: [{ type: "text", text: `hello from ${cwd}` }], timestamp: 1 });
		const file = sm.getSessionFile();
		sm.close();
		if (!file) throw new Error("no file");
		return file;
	}

	function projectB(): void {
		mkdirSync(join(b, ".pi", "extensions"), { recursive: true });
		writeFileSync(join(b, ".pi", "settings.json"), JSON.stringify({ compaction: { enabled: false } }));
		writeFileSync(join(b, "AGENTS.md"), "RULES-OF-B");
		writeFileSync(
			join(b, ".pi", "extensions", "b.ts"),
			`import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("session_start", (e, ctx) => appendFileSync(${JSON.stringify(log)}, "b-start " + e.reason + " " + ctx.cwd + "\\n"));
}
`,
		);
	}

	it("a resumed session of another folder moves the session there; trust is asked for that folder", async () => {
		projectB();
		const fileB = sessionIn(b);
		const { session, runtime, fake } = await open(a, SessionManager.create(a, join(root, "sessions", "a")));
		expect(runtime.cwd).toBe(a);
		expect(session.settings.get("compaction")).toBeUndefined();

		expect((await session.switchSession(fileB)).cancelled).toBe(false);
		expect(session.cwd).toBe(b);
		expect(runtime.cwd).toBe(b);
		expect(runtime.services.trust.trusted).toBe(true);
		expect(lines()).toEqual([
			`start startup v1tool ${a}`,
			"shutdown resume v1tool",
			`trust? ${b}`,
			`start resume v1tool ${b}`,
			`b-start resume ${b}`,
		]);
		// B's project settings and AGENTS.md apply; the tools and the prompt work in B.
		expect(session.settings.get("compaction")).toEqual({ enabled: false });
		fake.enqueue({ toolCalls: [{ name: "bash", args: { command: "pwd" } }] }, { text: "done" });
		await session.prompt("where?");
		const system = JSON.stringify(fake.calls[0].messages.filter((m) => m.role === "system"));
		expect(system).toContain("RULES-OF-B");
		expect(system).toContain(b);
		const toolResult = fake.calls[1].messages.find((m) => m.role === "toolResult");
		expect(JSON.stringify(toolResult)).toContain(b);
		await runtime.dispose();
	});

	it("an untrusted folder: its project extension and settings stay out", async () => {
		projectB();
		const fileB = sessionIn(b);
		const { session, runtime } = await open(a, SessionManager.create(a, join(root, "sessions", "a")), false);
		await session.switchSession(fileB);
		expect(session.cwd).toBe(b);
		expect(runtime.services.trust.trusted).toBe(false);
		expect(lines()).not.toContain(`b-start resume ${b}`);
		expect(session.settings.get("compaction")).toBeUndefined();
		await runtime.dispose();
	});

	it("a switch within the same folder starts the extensions over (1.6.0): shutdown, then a fresh instance gets session_start with the reason and previous file", async () => {
		const fileA = sessionIn(a);
		writeFileSync(
			join(agentDir, "extensions", "life.ts"),
			`import { appendFileSync } from "node:fs";
import { basename } from "node:path";
const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
export default function (pi) {
	const me = (globalThis.__piRuntimeInstances = (globalThis.__piRuntimeInstances ?? 0) + 1);
	pi.on("session_start", (e) => log("start " + e.reason + " #" + me + " from " + (e.previousSessionFile ? basename(e.previousSessionFile) : "-")));
	pi.on("session_shutdown", (e) => log("shutdown " + e.reason + " #" + me));
	pi.on("project_trust", (e) => { log("trust? " + e.cwd); return { trusted: "undecided" }; });
}
`,
		);
		(globalThis as { __piRuntimeInstances?: number }).__piRuntimeInstances = 0;
		const { session, runtime } = await open(a, SessionManager.create(a, join(root, "sessions", "a")));
		const first = basename(session.sessionManager.getSessionFile() ?? "");
		await session.switchSession(fileA);
		await session.newSession();
		expect(lines()).toEqual([
			"start startup #1 from -",
			"shutdown resume #1",
			`start resume #2 from ${first}`,
			"shutdown new #2",
			`start new #3 from ${basename(fileA)}`,
		]);
		// The folder is the same: no trust question, nothing moves.
		expect(runtime.cwd).toBe(a);
		await runtime.dispose();
	});

	it("a session recorded through a symlink to this folder is the same folder: no trust question, no move", async () => {
		const link = join(root, "a-link");
		symlinkSync(a, link);
		const viaLink = sessionIn(link);
		const { session, runtime } = await open(a, SessionManager.create(a, join(root, "sessions", "a")));
		expect((await session.switchSession(viaLink)).cancelled).toBe(false);
		expect(lines()).toEqual([`start startup v1tool ${a}`, "shutdown resume v1tool", `start resume v1tool ${a}`]);
		expect(runtime.cwd).toBe(a);
		await runtime.dispose();
	});
});
