// RELIABILITY.md "untrusted project": nothing from a project's folder is
// loaded before trust is granted; the decision is stored per canonical path.
// Through the BUILT CLI in print mode (which cannot ask): without a decision
// the project's `.pi/` files, settings and AGENTS.md are skipped; --approve,
// a saved decision for the folder or a parent (trust.json), or the global
// `defaultProjectTrust: "always"` load them; --no-approve beats a saved yes.
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatError } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { readSavedProjectTrust, resolveProjectTrust, saveProjectTrust } from "../../src/config/project-trust.js";
import { textReply, useCliSandbox } from "../cli/support.js";

const MODEL = ["--model", "fake/fake-model"];
const sb = useCliSandbox({
	setup(sb) {
		mkdirSync(join(sb.cwd, ".pi"), { recursive: true });
		writeFileSync(join(sb.cwd, ".pi", "APPEND_SYSTEM.md"), "PROJECT-APPEND-MARKER\n");
		writeFileSync(join(sb.cwd, "AGENTS.md"), "PROJECT-AGENTS-MARKER\n");
		// Observable project setting: no retry. Globally retries are fast.
		writeFileSync(join(sb.cwd, ".pi", "settings.json"), JSON.stringify({ retry: { enabled: false } }));
		writeGlobal({});
	},
});

function writeGlobal(extra: Record<string, unknown>): void {
	writeFileSync(
		join(sb.agentDir, "settings.json"),
		JSON.stringify({ retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...extra }),
	);
}

/** One run that first gets a 500: retried (→ exit 0) unless the project's settings were loaded. */
async function runOnce(args: string[]) {
	sb.fake.enqueue(chatError(500, "Internal error", { type: "server_error" }), textReply("ok"));
	const r = await sb.run(["-p", ...MODEL, ...args, "hello"]);
	const body = sb.fake.requests[0]?.rawBody ?? "";
	return {
		r,
		projectLoaded: body.includes("PROJECT-APPEND-MARKER"),
		agentsLoaded: body.includes("PROJECT-AGENTS-MARKER"),
		retried: r.code === 0,
	};
}

describe("untrusted project", () => {
	it("without a decision nothing from the project loads (print mode cannot ask), and says so", async () => {
		const x = await runOnce([]);
		expect(x.projectLoaded).toBe(false);
		expect(x.agentsLoaded).toBe(false);
		expect(x.retried).toBe(true); // the project's retry.enabled=false was not applied
		expect(x.r.stderr).toContain("--approve");
	});

	it("--approve loads the project's files and settings for this run", async () => {
		const x = await runOnce(["--approve"]);
		expect(x.projectLoaded).toBe(true);
		expect(x.agentsLoaded).toBe(true);
		expect(x.retried).toBe(false);
	});

	it("a decision saved for a parent folder (by canonical path) applies; --no-approve beats it", async () => {
		writeFileSync(join(sb.agentDir, "trust.json"), JSON.stringify({ [realpathSync(dirname(sb.cwd))]: true }));
		const yes = await runOnce([]);
		expect(yes.projectLoaded).toBe(true);
		expect(yes.retried).toBe(false);
		sb.fake.requests.length = 0;
		const no = await runOnce(["--no-approve"]);
		expect(no.projectLoaded).toBe(false);
	});

	it("a saved 'no' is respected", async () => {
		writeFileSync(join(sb.agentDir, "trust.json"), JSON.stringify({ [realpathSync(sb.cwd)]: false }));
		const x = await runOnce([]);
		expect(x.projectLoaded).toBe(false);
		expect(x.r.stderr).not.toContain("--approve"); // a decision exists: no nagging
	});

	it("defaultProjectTrust 'always' in the global settings loads it", async () => {
		writeGlobal({ defaultProjectTrust: "always" });
		const x = await runOnce([]);
		expect(x.projectLoaded).toBe(true);
	});

	it("decisions are stored per canonical path: a symlinked path to the folder finds the saved decision", () => {
		const real = join(sb.root, "real-project");
		mkdirSync(join(real, ".pi"), { recursive: true });
		writeFileSync(join(real, ".pi", "settings.json"), "{}");
		const link = join(sb.root, "linked-project");
		symlinkSync(real, link);
		expect(resolveProjectTrust({ cwd: link, agentDir: sb.agentDir })).toEqual({
			trusted: false,
			required: true,
			source: "default",
		});
		saveProjectTrust(sb.agentDir, link, true);
		const stored = JSON.parse(readFileSync(join(sb.agentDir, "trust.json"), "utf8")) as Record<string, unknown>;
		expect(stored).toEqual({ [realpathSync(real)]: true });
		expect(resolveProjectTrust({ cwd: link, agentDir: sb.agentDir })).toMatchObject({ trusted: true, source: "saved" });
		expect(resolveProjectTrust({ cwd: real, agentDir: sb.agentDir, approve: false })).toMatchObject({
			trusted: false,
			source: "cli",
		});
		saveProjectTrust(sb.agentDir, real, null);
		expect(readSavedProjectTrust(sb.agentDir, link)).toBeUndefined();
	});
});
