// /reload in the BUILT app (tmux): after an extension is edited, /reload
// gives fresh instances (session_shutdown, then session_start with reason
// "reload"), takes back what the old instance drew (its status), keeps the
// conversation and model; a broken edit is reported with the file and line
// and the previous extension keeps working; a skill added meanwhile is found.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_EXTENSION_NAMES } from "../../src/cli/builtin-extensions.js";
import { textReply } from "../cli/support.js";
import { hasTmux, READY, submit, useTmuxApp } from "../support/tmux-app.js";

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

const app = useTmuxApp("the /reload tests", {
	setup() {
		mkdirSync(join(app.sb.agentDir, "extensions"), { recursive: true });
		extFile = join(app.sb.agentDir, "extensions", "version.ts");
		log = join(app.sb.root, "lifecycle.log");
		writeFileSync(log, "");
		writeFileSync(extFile, extension("v1"));
	},
});

const lifecycle = () => readFileSync(log, "utf8").trim().split("\n");

describe.skipIf(!hasTmux)("/reload (tmux)", () => {
	it("an edited extension is replaced; the conversation stays", async () => {
		app.sb.fake.enqueue(textReply("The first answer."));
		const p = app.start();
		await p.waitFor(READY, 20_000);
		await p.waitFor("ext v1", 20_000);
		await submit(p, "hello", "The first answer.");

		writeFileSync(extFile, extension("v2"));
		const screen = await submit(p, "/reload", /Reloaded: 1 extension/);
		await p.waitFor("ext v2");
		expect(p.screen()).not.toContain("ext v1");
		expect(screen).toContain("The first answer.");
		expect(screen).toMatch(READY);
		expect(lifecycle()).toEqual(["start startup v1", "shutdown reload v1", "start reload v2"]);
		await submit(p, "/whoami", "I am v2");
	}, 90_000);

	it("a broken edit is reported with file and line; the previous extension keeps working", async () => {
		const p = app.start({ columns: 160 });
		await p.waitFor("ext v1", 20_000);
		writeFileSync(extFile, extension("v2", true));
		const screen = await submit(p, "/reload", "Reload failed");
		expect(screen).toContain(`${extFile}:3`);
		expect(screen).toContain("ext v1");
		expect(lifecycle()).toEqual(["start startup v1"]);
		await submit(p, "/whoami", "I am v1");
	}, 90_000);

	it("a skill added while pi runs is found", async () => {
		const p = app.start();
		await p.waitFor("ext v1", 20_000);
		mkdirSync(join(app.sb.agentDir, "skills", "late"), { recursive: true });
		writeFileSync(
			join(app.sb.agentDir, "skills", "late", "SKILL.md"),
			"---\nname: late\ndescription: Added while pi ran\n---\nDo the late thing.\n",
		);
		await submit(p, "/reload", /Reloaded: 1 extension, 1 skill/);
		p.type("/skill:la");
		await p.waitFor("skill:late");
	}, 90_000);
	it("an app that started without any extension loads one added meanwhile: its status and command", async () => {
		// No extension at all at start-up: the bundled ones are switched off and the file is not there yet.
		rmSync(extFile);
		writeFileSync(
			join(app.sb.agentDir, "settings.json"),
			JSON.stringify({ extensions: BUILTIN_EXTENSION_NAMES.map((n) => `-builtin:${n}`) }),
		);
		app.sb.fake.enqueue(textReply("Before any extension."));
		const p = app.start({ columns: 160 });
		await p.waitFor(READY, 20_000);
		await submit(p, "hello", "Before any extension.");
		writeFileSync(extFile, extension("v1"));
		const screen = await submit(p, "/reload", /Reloaded: 1 extension[\s\S]*ext v1/);
		expect(screen).toContain("Before any extension.");
		expect(lifecycle()).toEqual(["start reload v1"]);
		// The command runs through the new extensions (not sent to the model as text).
		await submit(p, "/whoami", "I am v1");
		expect(app.sb.fake.requests).toHaveLength(1);
	}, 90_000);
});
