// `pi install` asks before it adds a package (in a terminal). Input that ends at the question
// (Ctrl+D) is a "no": nothing is added, it says so and exits 1. Before, the question never
// resolved: pi exited 0 silently with the package fetched and the settings untouched.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { packageCommand } from "../../src/cli/commands/packages.js";
import { writePackage } from "../support/packages.js";

const dirs: string[] = [];
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A terminal whose input ends at once, and what pi wrote to it. */
function endedTerminal() {
	const stdin = Object.assign(new PassThrough(), { isTTY: true }) as unknown as NodeJS.ReadStream;
	const stdout = new PassThrough();
	let out = "";
	stdout.on("data", (d: Buffer) => {
		out += d.toString();
		// The question is out: the user presses Ctrl+D.
		if (out.includes("[Y/n]") || out.includes("[y/N]")) (stdin as unknown as PassThrough).end();
	});
	return { stdin, stdout, text: () => out };
}

/**
 * `pi install <args>` in a fresh agent dir and project (with `.pi/settings.json` when given), a local
 * package beside them; input ends at the first question.
 */
async function installAtEof(args: string[], projectSettings?: object) {
	const root = mkdtempSync(join(tmpdir(), "pi-install-eof-"));
	dirs.push(root);
	const agentDir = join(root, "agent");
	const cwd = join(root, "work");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	if (projectSettings) {
		mkdirSync(join(cwd, ".pi"));
		writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify(projectSettings));
	}
	writePackage(join(root, "tools"), { name: "local-tools", version: "1.0.0", tool: "local_tool" });
	const term = endedTerminal();
	const code = await packageCommand("install")(args, {
		stdin: term.stdin,
		stdout: term.stdout,
		stderr: new PassThrough(),
		env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" },
		cwd,
	});
	return { code, text: term.text(), agentDir, cwd };
}

describe("pi install at a question whose input ends (Ctrl+D)", () => {
	it("the trust question (-l in a project with settings of its own): not trusted, nothing installed, exit 1", async () => {
		const r = await installAtEof(["-l", "../tools"], { defaultThinkingLevel: "low" });
		expect(r.text).toContain("Trust this project?");
		expect(r.text).toContain("Not trusted; nothing was installed.");
		expect(r.code).toBe(1);
		expect(JSON.parse(readFileSync(join(r.cwd, ".pi", "settings.json"), "utf8"))).toEqual({
			defaultThinkingLevel: "low",
		});
	});

	it("adds nothing, says so and exits 1", async () => {
		const { code, text, agentDir } = await installAtEof(["../tools"]);
		const term = { text: () => text };
		expect(term.text()).toContain("Add it to");
		expect(term.text()).toContain("Not added.");
		expect(code).toBe(1);
		const settings = join(agentDir, "settings.json");
		if (existsSync(settings)) expect(JSON.parse(readFileSync(settings, "utf8")).packages ?? []).toEqual([]);
	});
});
