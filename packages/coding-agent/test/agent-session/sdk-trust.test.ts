// createAgentSession (SDK) decides project trust before loading anything from
// the project: an untrusted folder's .pi/settings.json and .pi/SYSTEM.md are
// not applied, and its .pi/extensions not loaded, unless the caller says so (projectTrust).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CreateAgentSessionOptions } from "../../src/agent-session/create-agent-session.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "./support.js";

let root: string;
let cwd: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-sdk-trust-"));
	cwd = join(root, "project");
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify({ compaction: { enabled: false } }));
	writeFileSync(join(cwd, ".pi", "SYSTEM.md"), "PROJECT-SYSTEM-PROMPT");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

type ProjectTrust = CreateAgentSessionOptions["projectTrust"];

/**
 * An in-memory session in the project folder whose settings, resources and
 * trust are the SDK's own (makeSession's in-memory stand-ins are switched
 * off); `projectTrust` and `extensions` are passed only when given.
 */
function projectSession(projectTrust?: ProjectTrust, extensions?: CreateAgentSessionOptions["extensions"]) {
	return makeSession({
		cwd,
		agentDir: join(root, "agent"),
		settingsManager: undefined,
		resourceLoader: undefined,
		sessionManager: SessionManager.inMemory(cwd),
		...(projectTrust ? { projectTrust } : {}),
		...(extensions ? { extensions } : {}),
	});
}

/** Whether the project's settings (compaction off) and SYSTEM.md reached a prompt's session. */
async function open(projectTrust?: ProjectTrust) {
	const s = await projectSession(projectTrust);
	s.fake.enqueue({ text: "ok" });
	await s.session.prompt("hi");
	const system = JSON.stringify(s.fake.calls[0].messages.filter((m) => m.role === "system"));
	return { compaction: s.session.autoCompactionEnabled, projectPrompt: system.includes("PROJECT-SYSTEM-PROMPT") };
}

describe("createAgentSession project trust", () => {
	it("an untrusted project's settings and SYSTEM.md are not applied by default", async () => {
		expect(await open()).toEqual({ compaction: true, projectPrompt: false });
		expect(await open("untrusted")).toEqual({ compaction: true, projectPrompt: false });
	});

	it("projectTrust 'trusted' or a deciding function loads them", async () => {
		expect(await open("trusted")).toEqual({ compaction: false, projectPrompt: true });
		const asked: string[] = [];
		const decide = (dir: string) => {
			asked.push(dir);
			return true;
		};
		expect(await open(decide)).toEqual({ compaction: false, projectPrompt: true });
		expect(asked).toEqual([cwd]);
	});

	it("with extensions, a deciding function is asked once for the folder", async () => {
		const asked: string[] = [];
		const s = await projectSession((dir: string) => {
			asked.push(dir);
			return true;
		}, {});
		expect(asked).toEqual([cwd]);
		expect(s.session.autoCompactionEnabled).toBe(false);
		await s.runtime?.dispose();
	});

	it("an untrusted project's .pi/extensions are not loaded (not even imported); trusted ones are", async () => {
		// The factory's module body writes a marker: loading the file at all, not only running the factory, is visible.
		const marker = join(root, "project-extension-loaded");
		mkdirSync(join(cwd, ".pi", "extensions"), { recursive: true });
		writeFileSync(
			join(cwd, ".pi", "extensions", "marker.ts"),
			`import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "yes");\nexport default function () {}\n`,
		);
		const load = async (projectTrust?: "trusted" | "untrusted") => {
			const s = await projectSession(projectTrust, {});
			await s.runtime?.dispose();
			return existsSync(marker);
		};
		expect(await load()).toBe(false);
		expect(await load("untrusted")).toBe(false);
		expect(await load("trusted")).toBe(true);
	});

	it("a saved decision (trust.json, as pi keeps it) is honoured", async () => {
		mkdirSync(join(root, "agent"), { recursive: true });
		writeFileSync(join(root, "agent", "trust.json"), JSON.stringify({ [cwd]: true }));
		expect(await open()).toEqual({ compaction: false, projectPrompt: true });
	});
});
