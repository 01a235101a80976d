// The permission policy as a pure function: every mode against write, edit,
// bash and other tools; path and command rules (parsed shell, not a regex);
// writes outside the project always ask; the shell reader itself.
import { describe, expect, it } from "vitest";
import {
	commandMatches,
	decide,
	type PolicyInput,
	readPermissionSettings,
} from "../../../src/builtins/permissions/policy.js";
import { parseShellCommand } from "../../../src/builtins/permissions/shell.js";

const base = (mode: PolicyInput["mode"], rules: Partial<PolicyInput["rules"]> = {}): PolicyInput => ({
	mode,
	cwd: "/proj",
	rules: { paths: { allow: [], deny: [] }, commands: { allow: [], deny: [] }, ...rules },
	sessionAllowed: { commands: [], paths: [], tools: [] },
});
const act = (toolName: string, input: Record<string, unknown>, p: PolicyInput) => decide({ toolName, input }, p).action;

describe("permission modes", () => {
	const write = { path: "src/a.ts", content: "x" };
	const bash = { command: "npm test" };
	it.each([
		["off", "allow", "allow", "allow", "allow"],
		["read-only", "deny", "deny", "allow", "deny"],
		["ask", "ask", "ask", "ask", "ask"],
		["auto-edit", "allow", "ask", "ask", "ask"],
		["full", "allow", "allow", "allow", "allow"],
	] as const)("%s: write %s, bash %s, ls %s (read-only list), mcp tool %s", (mode, w, b, ls, other) => {
		const p = base(mode);
		expect(act("write", write, p)).toBe(w);
		expect(act("edit", { path: "src/a.ts", edits: [] }, p)).toBe(w);
		expect(act("bash", bash, p)).toBe(b);
		expect(act("bash", { command: "ls -la | wc -l" }, p)).toBe(mode === "read-only" ? "allow" : ls);
		expect(act("mcp__srv__do", {}, p)).toBe(other);
		expect(act("read", { path: "src/a.ts" }, p)).toBe("allow");
	});

	it("read-only lets read-only commands run, not writers or redirections", () => {
		const p = base("read-only");
		expect(act("bash", { command: "git status && git diff HEAD" }, p)).toBe("allow");
		expect(act("bash", { command: "cat a > b" }, p)).toBe("deny");
		expect(act("bash", { command: "find . -name x -delete" }, p)).toBe("deny");
		expect(act("bash", { command: "sed -i s/a/b/ f" }, p)).toBe("deny");
		expect(act("bash", { command: "echo $(rm -rf x)" }, p)).toBe("deny");
		expect(act("bash", { command: "git push" }, p)).toBe("deny");
	});

	it("a tool annotated read-only and the orchestrators pass; their inner calls meet the policy", () => {
		expect(decide({ toolName: "mcp__x__get", input: {}, readOnlyHint: true }, base("ask")).action).toBe("allow");
		expect(act("codemode", { code: "..." }, base("read-only"))).toBe("allow");
	});
});

describe("rules", () => {
	it("path deny beats every mode, reads included; allow skips the question in ask mode", () => {
		const p = base("full", { paths: { allow: [], deny: [".env", "secrets/**"] } });
		expect(decide({ toolName: "write", input: { path: ".env", content: "" } }, p)).toMatchObject({
			action: "deny",
			reason: expect.stringContaining('".env"'),
		});
		expect(act("read", { path: "secrets/key.pem" }, p)).toBe("deny");
		expect(act("bash", { command: "echo x > secrets/k" }, p)).toBe("deny");
		const ask = base("ask", { paths: { allow: ["docs/**"], deny: [] } });
		expect(act("write", { path: "docs/a.md", content: "" }, ask)).toBe("allow");
		expect(act("write", { path: "src/a.md", content: "" }, ask)).toBe("ask");
	});

	it("writes outside the project always ask, even in full mode", () => {
		for (const mode of ["ask", "auto-edit", "full"] as const) {
			const d = decide({ toolName: "write", input: { path: "../elsewhere.txt", content: "" } }, base(mode));
			expect(d).toMatchObject({ action: "ask", why: "it writes outside the project folder" });
		}
	});

	it("command rules match parsed simple commands, every one of them", () => {
		const p = base("ask", {
			commands: { allow: ["npm test", "npm run *", "git status"], deny: ["git push *", "rm -rf *"] },
		});
		expect(act("bash", { command: "npm test" }, p)).toBe("allow");
		expect(act("bash", { command: "npm test -- --watch" }, p)).toBe("ask"); // no trailing * in the rule
		expect(act("bash", { command: "npm run build && git status" }, p)).toBe("allow");
		expect(act("bash", { command: "npm run build && curl x" }, p)).toBe("ask");
		// Not a regex over the string: quoting and separators are understood.
		expect(act("bash", { command: "echo 'git push origin'" }, p)).toBe("ask");
		expect(act("bash", { command: "npm test; git push origin main" }, p)).toBe("deny");
		expect(act("bash", { command: "FOO=1 rm -rf /" }, p)).toBe("deny");
		expect(act("bash", { command: "echo $(rm -rf build)" }, p)).toBe("deny");
		expect(decide({ toolName: "bash", input: { command: "make && make install" } }, p)).toMatchObject({
			action: "ask",
			remember: ["make *", "make install *"],
		});
	});

	it("patterns: words with globs, a final * for any rest", () => {
		const cmd = (s: string) => parseShellCommand(s).commands[0] ?? { argv: [], writes: [], dynamic: false };
		expect(commandMatches("git log *", cmd("git log --oneline -3"))).toBe(true);
		expect(commandMatches("git log", cmd("git log --oneline"))).toBe(false);
		expect(commandMatches("npx vitest run *", cmd("npx vitest run packages/x"))).toBe(true);
		expect(commandMatches("python3 scripts/*.py", cmd("python3 scripts/gen.py"))).toBe(true);
	});

	it("settings: unknown modes and malformed lists are ignored", () => {
		expect(readPermissionSettings({ permissions: { mode: "yolo", paths: { deny: [".env", 3] } } })).toEqual({
			mode: "off",
			rules: { paths: { allow: [], deny: [".env"] }, commands: { allow: [], deny: [] } },
		});
	});
});

describe("shell reader", () => {
	it("splits simple commands, strips quotes and assignments, notes writes", () => {
		expect(parseShellCommand("FOO=1 cat 'a b' | grep \"x\" > out.txt 2>&1; ls >/dev/null").commands).toEqual([
			{ argv: ["cat", "a b"], writes: [], dynamic: false },
			{ argv: ["grep", "x"], writes: ["out.txt"], dynamic: false },
			{ argv: ["ls"], writes: [], dynamic: false },
		]);
		expect(parseShellCommand("(cd x && make) || echo `id`").commands.map((c) => c.argv[0])).toEqual([
			"cd",
			"make",
			"echo",
			"id",
		]);
		expect(parseShellCommand("echo 'open").error).toBe("unclosed single quote");
	});
});
