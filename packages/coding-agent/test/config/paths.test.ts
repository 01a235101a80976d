import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentPaths, expandHome, getAgentDir, resolveSessionDir } from "../../src/config/paths.js";

describe("paths", () => {
	it("agent dir comes from PI_CODING_AGENT_DIR, else ~/.pi/agent", () => {
		expect(getAgentDir({ PI_CODING_AGENT_DIR: "/x/agent" })).toBe("/x/agent");
		expect(getAgentDir({ PI_CODING_AGENT_DIR: "~/cfg" })).toBe(join(homedir(), "cfg"));
		expect(getAgentDir({})).toBe(join(homedir(), ".pi", "agent"));
	});

	it("expands ~ only at the start", () => {
		expect(expandHome("~/a", "/h")).toBe("/h/a");
		expect(expandHome("~", "/h")).toBe("/h");
		expect(expandHome("a/~/b", "/h")).toBe("a/~/b");
	});

	it("session dir precedence: --session-dir > env > settings; relative to cwd", () => {
		const env = { PI_CODING_AGENT_SESSION_DIR: "/env/s" };
		expect(resolveSessionDir({ cli: "cli-s", settings: "/set/s", cwd: "/w", env })).toBe("/w/cli-s");
		expect(resolveSessionDir({ settings: "/set/s", cwd: "/w", env })).toBe("/env/s");
		expect(resolveSessionDir({ settings: ".pi/sessions", cwd: "/w", env: {} })).toBe("/w/.pi/sessions");
		expect(resolveSessionDir({ cwd: "/w", env: {} })).toBeUndefined();
	});

	it("file locations", () => {
		expect(agentPaths("/a")).toEqual({
			agentDir: "/a",
			settings: "/a/settings.json",
			auth: "/a/auth.json",
			models: "/a/models.json",
			sessions: "/a/sessions",
			systemPrompt: "/a/SYSTEM.md",
			appendSystemPrompt: "/a/APPEND_SYSTEM.md",
		});
	});
});
