// Skill discovery and validation over real files in temp dirs.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatDiagnostic, type ResourceOrigin } from "../../src/resources/diagnostics.js";
import { formatSkillsSection, loadSkills, validateSkillName } from "../../src/resources/skills.js";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-skills-"));
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

const user: ResourceOrigin = { source: "user" };
const opts = { parseYaml: (t: string) => parse(t) };

function skill(dir: string, name: string, frontmatter: string, body = "Instructions.\n"): string {
	const d = join(dir, name);
	mkdirSync(d, { recursive: true });
	writeFileSync(join(d, "SKILL.md"), `---\n${frontmatter}\n---\n${body}`);
	return join(d, "SKILL.md");
}

const messages = (r: ReturnType<typeof loadSkills>) => r.diagnostics.map(formatDiagnostic);

describe("skill discovery", () => {
	it("finds SKILL.md directories recursively, stops inside a skill, loads root .md files with a description", () => {
		skill(root, "a", "description: A skill.");
		skill(join(root, "group", "deeper"), "b", "description: B skill.");
		skill(join(root, "a", "nested"), "hidden", "description: inside a skill, not searched."); // below a skill root
		skill(join(root, ".dot"), "c", "description: dot dirs skipped.");
		skill(join(root, "node_modules"), "d", "description: node_modules skipped.");
		writeFileSync(join(root, "standalone.md"), "---\ndescription: Root file skill.\n---\nx");
		writeFileSync(join(root, "notes.md"), "just notes, no frontmatter");
		writeFileSync(join(root, "group", "loose.md"), "---\ndescription: not at the root\n---\n");
		const r = loadSkills([{ path: root, origin: user }], opts);
		expect(r.items.map((s) => s.name).sort()).toEqual(["a", "b", "standalone"]);
		expect(r.diagnostics.filter((d) => d.type !== "info")).toEqual([]);
		const a = r.items.find((s) => s.name === "a");
		expect(a).toMatchObject({ baseDir: join(root, "a"), filePath: join(root, "a", "SKILL.md"), origin: user });
	});

	it("honours .gitignore / .ignore inside the skills tree", () => {
		skill(root, "kept", "description: yes");
		skill(root, "dropped", "description: no");
		writeFileSync(join(root, ".gitignore"), "dropped/\n");
		expect(loadSkills([{ path: root, origin: user }], opts).items.map((s) => s.name)).toEqual(["kept"]);
	});

	it("reads frontmatter fields: disable-model-invocation, license, compatibility, metadata, allowed-tools", () => {
		skill(
			root,
			"full",
			"name: full\ndescription: Full.\nlicense: MIT\ncompatibility: needs python3\nmetadata:\n  author: me\nallowed-tools: Bash(git:*) Read\ndisable-model-invocation: true",
		);
		const [s] = loadSkills([{ path: root, origin: user }], opts).items;
		expect(s).toMatchObject({
			name: "full",
			license: "MIT",
			compatibility: "needs python3",
			metadata: { author: "me" },
			allowedTools: ["Bash(git:*)", "Read"],
			disableModelInvocation: true,
		});
	});
});

describe("skill validation", () => {
	it("name rules", () => {
		expect(validateSkillName("pdf-tools-2")).toEqual([]);
		expect(validateSkillName("PDF")).toHaveLength(1);
		expect(validateSkillName("-a")).toEqual(["name must not start or end with a hyphen"]);
		expect(validateSkillName("a-")).toEqual(["name must not start or end with a hyphen"]);
		expect(validateSkillName("a--b")).toEqual(["name must not contain two hyphens in a row"]);
		expect(validateSkillName("a".repeat(65))).toEqual(["name is longer than 64 characters (65)"]);
		expect(validateSkillName("a".repeat(64))).toEqual([]);
		expect(validateSkillName("a_b")).toHaveLength(1);
	});

	it("a SKILL.md without a description is skipped with a warning naming file, line and field", () => {
		const file = skill(root, "nodesc", "name: nodesc\nlicense: MIT");
		const r = loadSkills([{ path: root, origin: user }], opts);
		expect(r.items).toEqual([]);
		expect(messages(r)).toEqual([`${file}:1: description: skipped: description is required`]);
	});

	it("malformed YAML is skipped with the line of the error", () => {
		const file = skill(root, "bad", "name: bad\ndescription: [unclosed");
		const r = loadSkills([{ path: root, origin: user }], opts);
		expect(r.items).toEqual([]);
		expect(r.diagnostics[0]).toMatchObject({ type: "warning", path: file });
		expect(r.diagnostics[0].message).toMatch(/^skipped: invalid YAML frontmatter/);
		expect(r.diagnostics[0].line).toBeGreaterThanOrEqual(2);
	});

	it("an unclosed frontmatter block is skipped", () => {
		mkdirSync(join(root, "open"));
		writeFileSync(join(root, "open", "SKILL.md"), "---\ndescription: x\n");
		const r = loadSkills([{ path: root, origin: user }], opts);
		expect(r.items).toEqual([]);
		expect(messages(r)[0]).toContain("frontmatter is not closed");
	});

	it("rule-breaking fields warn (with line and field) but the skill loads", () => {
		const long = "d".repeat(1025);
		const file = skill(
			root,
			"Bad--Name",
			`name: Bad--Name\ndescription: ${long}\ncompatibility: ${"c".repeat(501)}\nmetadata: [1, 2]\nallowed-tools: 5\ndisable-model-invocation: "yes"`,
		);
		const r = loadSkills([{ path: root, origin: user }], opts);
		expect(r.items.map((s) => s.name)).toEqual(["Bad--Name"]);
		const warnings = r.diagnostics.filter((d) => d.type === "warning").map(formatDiagnostic);
		expect(warnings).toEqual([
			`${file}:3: description: description is longer than 1024 characters (1025)`,
			`${file}:2: name: name may only contain lowercase letters a-z, digits and hyphens`,
			`${file}:2: name: name must not contain two hyphens in a row`,
			`${file}:7: disable-model-invocation: disable-model-invocation must be true or false`,
			`${file}:4: compatibility: compatibility is longer than 500 characters (501)`,
			`${file}:5: metadata: metadata must be a mapping of keys to values`,
			`${file}:6: allowed-tools: allowed-tools must be a space-separated string of tool names`,
		]);
		expect(r.items[0].disableModelInvocation).toBe(false);
	});

	it("the name defaults to the directory; a differing name is only an info note", () => {
		skill(root, "dir-name", "description: x");
		skill(root, "other-dir", "name: declared\ndescription: y\nextra-field: 1");
		const r = loadSkills([{ path: root, origin: user }], opts);
		expect(r.items.map((s) => s.name)).toEqual(["dir-name", "declared"]);
		expect(r.diagnostics.map((d) => [d.type, d.field])).toEqual([
			["info", "name"],
			["info", "extra-field"],
		]);
	});
});

describe("collisions and precedence", () => {
	it("the first root wins; the later skill is a collision naming both files", () => {
		const first = skill(join(root, "one"), "same", "description: first");
		const second = skill(join(root, "two"), "same", "description: second");
		const r = loadSkills(
			[
				{ path: join(root, "one"), origin: { source: "project" } },
				{ path: join(root, "two"), origin: user },
			],
			opts,
		);
		expect(r.items.map((s) => s.description)).toEqual(["first"]);
		expect(r.diagnostics).toEqual([
			expect.objectContaining({
				type: "collision",
				path: second,
				collision: { name: "same", winnerPath: first, loserPath: second },
			}),
		]);
		expect(r.diagnostics[0].message).toContain("(project)");
	});

	it("the same file reached twice (symlink, overlapping roots) loads once without a collision", () => {
		skill(join(root, "real"), "s", "description: x");
		symlinkSync(join(root, "real"), join(root, "link"));
		const r = loadSkills(
			[
				{ path: join(root, "real"), origin: user },
				{ path: join(root, "link"), origin: user },
				{ path: join(root, "real", "s", "SKILL.md"), origin: user },
			],
			opts,
		);
		expect(r.items).toHaveLength(1);
		expect(r.diagnostics).toEqual([]);
	});

	it("explicit paths that do not exist warn; optional roots do not", () => {
		const r = loadSkills(
			[
				{ path: join(root, "missing"), origin: { source: "cli" } },
				{ path: join(root, "also-missing"), origin: user, optional: true },
			],
			opts,
		);
		expect(messages(r)).toEqual([`${join(root, "missing")}: skill path does not exist`]);
	});
});

describe("bad input never crashes or hangs", () => {
	it("skips a 5 MB SKILL.md, a binary SKILL.md, an unreadable one and a FIFO; follows symlink loops once", () => {
		const big = skill(root, "big", "description: big");
		writeFileSync(big, `---\ndescription: big\n---\n${"x".repeat(5 * 1024 * 1024)}`);
		mkdirSync(join(root, "bin"));
		writeFileSync(join(root, "bin", "SKILL.md"), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0x00]));
		const locked = skill(root, "locked", "description: locked");
		chmodSync(locked, 0o000);
		mkdirSync(join(root, "fifo"));
		execFileSync("mkfifo", [join(root, "fifo", "SKILL.md")]);
		mkdirSync(join(root, "loop"));
		symlinkSync(join(root, "loop"), join(root, "loop", "again"));
		symlinkSync(join(root, "self-link"), join(root, "self-link")); // ELOOP link
		skill(root, "good", "description: fine");
		const started = Date.now();
		const r = loadSkills([{ path: root, origin: user }], opts);
		expect(Date.now() - started).toBeLessThan(5000);
		// root reads mode-000 files anyway
		const isRoot = process.getuid?.() === 0;
		expect(r.items.map((s) => s.name)).toEqual(isRoot ? ["good", "locked"] : ["good"]);
		const text = messages(r).join("\n");
		expect(text).toContain(`${big}: skipped: file too large`);
		expect(text).toContain(`${join(root, "bin", "SKILL.md")}: skipped: binary file`);
		if (!isRoot) expect(text).toContain(`${locked}: skipped: cannot read (EACCES)`);
		chmodSync(locked, 0o644);
	});

	it("a deep directory tree stops at the depth limit with a warning", () => {
		let d = root;
		for (let i = 0; i < 15; i++) d = join(d, `l${i}`);
		skill(d, "deep", "description: too deep");
		const r = loadSkills([{ path: root, origin: user }], opts);
		expect(r.items).toEqual([]);
		expect(messages(r).join("\n")).toContain("search incomplete");
	});
});

describe("system prompt section", () => {
	it("lists name, description and location (escaped); command-only skills are left out", () => {
		skill(root, "a", "description: Use <when> & 'why'");
		skill(root, "b", "description: hidden\ndisable-model-invocation: true");
		const { items } = loadSkills([{ path: root, origin: user }], opts);
		const text = formatSkillsSection(items, "read");
		expect(text).toContain("<name>a</name>");
		expect(text).toContain("<description>Use &lt;when&gt; &amp; &apos;why&apos;</description>");
		expect(text).toContain(`<location>${join(root, "a", "SKILL.md")}</location>`);
		expect(text).toContain("read tool");
		expect(text).not.toContain("hidden");
		expect(text).not.toContain("Instructions.");
		expect(formatSkillsSection(items.filter((s) => s.name === "b"))).toBe("");
		expect(formatSkillsSection(items, "bash")).toContain("with bash");
	});
});
