// project_trust through the built CLI: the extensions that load before trust
// (global dir, -e) decide whether the project's own `.pi/extensions/` load.
// First yes/no wins, `remember` writes trust.json, a throwing handler is
// reported and passes, --approve/--no-approve are never overruled, and
// upstream's project-trust example (no UI → undecided) leaves the default.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";

const UPSTREAM = resolve(__dirname, "../fixtures/extensions/upstream");
const MODEL = ["--model", "fake/fake-model"];
const PROJECT_MARK = "project extension loaded";

const sb = useCliSandbox({
	setup(sb) {
		// A project whose own extension announces itself when it runs.
		mkdirSync(join(sb.cwd, ".pi", "extensions"), { recursive: true });
		writeFileSync(
			join(sb.cwd, ".pi", "extensions", "local.ts"),
			`export default function (pi) { pi.on("session_start", (_e, ctx) => ctx.ui.notify("${PROJECT_MARK}")); }`,
		);
	},
});

function decider(name: string, body: string): string {
	const file = join(sb.root, `${name}.ts`);
	writeFileSync(file, `export default function (pi) { ${body} }`);
	return file;
}

const trustFile = () => join(sb.agentDir, "trust.json");

describe("project_trust", () => {
	it("a -e extension answering yes + remember loads the project's extensions and saves the decision", async () => {
		const file = decider(
			"yes",
			`pi.on("project_trust", (e, ctx) => { ctx.ui.notify("asked " + e.cwd + " " + ctx.mode + " " + ctx.hasUI); return { trusted: "yes", remember: true }; });`,
		);
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", file, "hi"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain(`asked ${sb.cwd} print false`);
		expect(r.stderr).toContain(PROJECT_MARK);
		expect(r.stderr).not.toContain("untrusted folder");
		const saved = JSON.parse(readFileSync(trustFile(), "utf8")) as Record<string, boolean>;
		expect(Object.values(saved)).toEqual([true]);
	});

	it("the first yes/no wins over later handlers and over a saved decision; without remember nothing is saved", async () => {
		writeFileSync(trustFile(), JSON.stringify({ [sb.cwd]: true }));
		// Global-dir extension: loads before -e, so it is asked first.
		mkdirSync(join(sb.agentDir, "extensions"), { recursive: true });
		writeFileSync(
			join(sb.agentDir, "extensions", "a-undecided.ts"),
			`export default function (pi) { pi.on("project_trust", () => ({ trusted: "undecided" })); pi.on("project_trust", () => { throw new Error("trust handler broke"); }); }`,
		);
		const no = decider("no", `pi.on("project_trust", () => ({ trusted: "no" }));`);
		const yes = decider("yes-later", `pi.on("project_trust", () => ({ trusted: "yes", remember: true }));`);
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", no, "-e", yes, "hi"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain("trust handler broke");
		expect(r.stderr).not.toContain(PROJECT_MARK);
		expect(JSON.parse(readFileSync(trustFile(), "utf8"))).toEqual({ [sb.cwd]: true });
	});

	it("--approve / --no-approve decide without asking the extensions", async () => {
		const file = decider(
			"no",
			`pi.on("project_trust", (_e, ctx) => { ctx.ui.notify("asked"); return { trusted: "no" }; });`,
		);
		sb.fake.enqueue(textReply("ok"), textReply("ok"));
		const approved = await sb.run(["-p", ...MODEL, "--approve", "-e", file, "hi"]);
		expect(approved.code).toBe(0);
		expect(approved.stderr).not.toContain("asked");
		expect(approved.stderr).toContain(PROJECT_MARK);
		const declined = await sb.run(["-p", ...MODEL, "--no-approve", "-e", file, "hi"]);
		expect(declined.stderr).not.toContain("asked");
		expect(declined.stderr).not.toContain(PROJECT_MARK);
		expect(existsSync(trustFile())).toBe(false);
	});

	it("a folder that needs no decision never asks", async () => {
		rmSync(join(sb.cwd, ".pi"), { recursive: true });
		const file = decider(
			"ask",
			`pi.on("project_trust", (_e, ctx) => { ctx.ui.notify("asked"); return { trusted: "no" }; });`,
		);
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", file, "hi"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("ok\n");
		expect(r.stderr).not.toContain("asked");
	});

	it("upstream project-trust example: without a UI it stays undecided, so the default (ask → no) applies", async () => {
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", join(UPSTREAM, "project-trust.ts"), "hi"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain(`project_trust fired for ${sb.cwd} (mode: print, load: 1)`);
		expect(r.stderr).toContain("untrusted folder");
		expect(r.stderr).not.toContain(PROJECT_MARK);
		expect(r.stderr).toContain(`project-trust example loaded after trust resolution in ${sb.cwd}`);
		expect(r.stdout).toBe("ok\n");
	});
});
