// /reload in the BUILT app (tmux): after an extension is edited, /reload
// gives fresh instances (session_shutdown, then session_start with reason
// "reload"), takes back what the old instance drew (its status), keeps the
// conversation and model; a broken edit is reported with the file and line
// and the previous extension keeps working; a skill added meanwhile is found.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, createSandbox, type Sandbox, textReply } from "../cli/support.js";
import { hasTmux, startPi, type TmuxPi } from "./tmux.js";

const READY = /fake-model\s*$/m;

let sb: Sandbox;
let pi: TmuxPi | undefined;
let extFile: string;
let log: string;

/** A global extension at `version`: a footer status, a /whoami command, its lifecycle in a log. */
function extension(version: string, broken = false): string {
	return [
		'import { appendFileSync } from "node:fs";',
		"export default function (pi) {",
		broken ? "  const oops = ;" : "  const ok = 1;",
		`  const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");`,
		`  pi.on("session_start", (e, ctx) => { log("start " + e.reason + " ${version}"); ctx.ui.setStatus("ver", "ext ${version}"); });`,
		`  pi.on("session_shutdown", (e) => log("shutdown " + e.reason + " ${version}"));`,
		`  pi.registerCommand("whoami", { description: "which version", handler: async (_a, ctx) => ctx.ui.notify("I am ${version}") });`,
		"}",
	].join("\n");
}

beforeAll(() => {
	if (!hasTmux) console.warn("tmux not found: skipping the /reload tests (CI installs it)");
	else assertBuilt();
});
beforeEach(async () => {
	sb = await createSandbox();
	mkdirSync(join(sb.agentDir, "extensions"), { recursive: true });
	extFile = join(sb.agentDir, "extensions", "version.ts");
	log = join(sb.root, "lifecycle.log");
	writeFileSync(log, "");
	writeFileSync(extFile, extension("v1"));
});
afterEach(async () => {
	pi?.kill();
	pi = undefined;
	await sb.close();
});

const lifecycle = () => readFileSync(log, "utf8").trim().split("\n");

async function command(p: TmuxPi, text: string, until: string | RegExp): Promise<string> {
	p.type(text);
	p.keys("Enter");
	return p.waitFor(until, 20_000);
}

describe.skipIf(!hasTmux)("/reload (tmux)", () => {
	it("an edited extension is replaced; the conversation stays", async () => {
		sb.fake.enqueue(textReply("The first answer."));
		const p = startPi({ cwd: sb.cwd, env: sb.env });
		pi = p;
		await p.waitFor(READY, 20_000);
		await p.waitFor("ext v1", 20_000);
		await command(p, "hello", "The first answer.");

		writeFileSync(extFile, extension("v2"));
		const screen = await command(p, "/reload", /Reloaded: 1 extension/);
		await p.waitFor("ext v2");
		expect(p.screen()).not.toContain("ext v1");
		expect(screen).toContain("The first answer.");
		expect(screen).toMatch(READY);
		expect(lifecycle()).toEqual(["start startup v1", "shutdown reload v1", "start reload v2"]);
		await command(p, "/whoami", "I am v2");
	}, 90_000);

	it("a broken edit is reported with file and line; the previous extension keeps working", async () => {
		const p = startPi({ cwd: sb.cwd, env: sb.env, columns: 160 });
		pi = p;
		await p.waitFor("ext v1", 20_000);
		writeFileSync(extFile, extension("v2", true));
		const screen = await command(p, "/reload", "Reload failed");
		expect(screen).toContain(`${extFile}:3`);
		expect(screen).toContain("ext v1");
		expect(lifecycle()).toEqual(["start startup v1"]);
		await command(p, "/whoami", "I am v1");
	}, 90_000);

	it("a skill added while pi runs is found", async () => {
		const p = startPi({ cwd: sb.cwd, env: sb.env });
		pi = p;
		await p.waitFor("ext v1", 20_000);
		mkdirSync(join(sb.agentDir, "skills", "late"), { recursive: true });
		writeFileSync(
			join(sb.agentDir, "skills", "late", "SKILL.md"),
			"---\nname: late\ndescription: Added while pi ran\n---\nDo the late thing.\n",
		);
		await command(p, "/reload", /Reloaded: 1 extension, 1 skill/);
		p.type("/skill:la");
		await p.waitFor("skill:late");
	}, 90_000);
});
