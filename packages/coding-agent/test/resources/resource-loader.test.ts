// The resource loader over real temp trees: the four sources, trust as an
// input, documented precedence with collision warnings, settings entries,
// packages, extension paths, prompt-template rules and bad files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Settings } from "../../src/config/settings-schema.js";
import { loadContextFiles } from "../../src/resources/context-files.js";
import {
	ancestorAgentsSkillDirs,
	DefaultResourceLoader,
	type DefaultResourceLoaderOptions,
} from "../../src/resources/resource-loader.js";

let root: string;
let home: string;
let agentDir: string;
let cwd: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-resources-"));
	home = join(root, "home");
	agentDir = join(home, ".pi", "agent");
	cwd = join(root, "repo", "pkg");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	mkdirSync(join(root, "repo", ".git"));
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

function skill(dir: string, name: string, description = `${name} skill`): string {
	mkdirSync(join(dir, name), { recursive: true });
	const file = join(dir, name, "SKILL.md");
	writeFileSync(file, `---\ndescription: ${description}\n---\nbody of ${name}\n`);
	return file;
}

function template(dir: string, name: string, text: string): string {
	mkdirSync(dir, { recursive: true });
	const file = join(dir, `${name}.md`);
	writeFileSync(file, text);
	return file;
}

function settings(global: Settings = {}, project: Settings = {}) {
	return { getScopeSettings: (scope: "global" | "project") => (scope === "global" ? global : project) };
}

async function load(options: Partial<DefaultResourceLoaderOptions> = {}) {
	const loader = new DefaultResourceLoader({ cwd, agentDir, homeDir: home, ...options });
	await loader.reload();
	return loader;
}

describe("trust boundary", () => {
	it("nothing from the project loads when untrusted: .pi/skills, .pi/prompts, .pi/themes, .agents/skills, project settings, SYSTEM.md", async () => {
		skill(join(cwd, ".pi", "skills"), "proj");
		skill(join(cwd, ".agents", "skills"), "agents-proj");
		template(join(cwd, ".pi", "prompts"), "ptpl", "project template");
		mkdirSync(join(cwd, ".pi", "themes"));
		writeFileSync(join(cwd, ".pi", "themes", "t.json"), "{}");
		writeFileSync(join(cwd, ".pi", "SYSTEM.md"), "project system");
		writeFileSync(join(cwd, "AGENTS.md"), "project context");
		skill(join(root, "from-settings"), "via-settings");
		const s = settings({}, { skills: [join(root, "from-settings")] });
		const untrusted = await load({ loadProjectResources: false, settings: s });
		expect(untrusted.getSkills()).toEqual([]);
		expect(untrusted.getPromptTemplates()).toEqual([]);
		expect(untrusted.getThemeFiles()).toEqual([]);
		expect(untrusted.getSystemPrompt()).toBeUndefined();
		expect(untrusted.getContextFiles()).toEqual([]);
		expect(untrusted.describe()).toContain("Project resources not loaded (untrusted project).");
		const trusted = await load({ loadProjectResources: true, settings: s });
		expect(trusted.getSkills().map((x) => x.name)).toEqual(["via-settings", "proj", "agents-proj"]);
		expect(trusted.getPromptTemplates().map((t) => t.name)).toEqual(["ptpl"]);
		expect(trusted.getThemeFiles().map((t) => t.path)).toEqual([join(cwd, ".pi", "themes", "t.json")]);
		expect(trusted.getSystemPrompt()).toBe("project system");
	});
});

describe("sources and precedence", () => {
	it("CLI > project settings > project dirs > user settings > user dirs > packages > extensions; collisions warn", async () => {
		const cli = skill(join(root, "cli"), "same", "from cli");
		const projSettings = skill(join(cwd, ".pi", "extra"), "same", "from project settings");
		skill(join(cwd, ".pi", "skills"), "same", "from project dir");
		skill(join(root, "user-extra"), "same", "from user settings");
		skill(join(agentDir, "skills"), "same", "from user dir");
		skill(join(home, ".agents", "skills"), "same", "from ~/.agents");
		skill(join(root, "pkg", "skills"), "same", "from package");
		skill(join(root, "ext"), "same", "from extension");
		const loader = await load({
			skillPaths: [join(root, "cli")],
			settings: settings({ skills: ["../../../user-extra"] }, { skills: ["extra"] }),
			packageRoots: [{ root: join(root, "pkg"), scope: "user", name: "my-pkg" }],
		});
		await loader.addExtraPaths({ skillPaths: [join(root, "ext")] }, "ext.ts");
		expect(loader.getSkills().map((s) => s.description)).toEqual(["from cli"]);
		const collisions = loader.getResourceDiagnostics().filter((d) => d.type === "collision");
		expect(collisions).toHaveLength(7);
		expect(collisions[0]).toMatchObject({ collision: { winnerPath: cli, loserPath: projSettings } });
		expect(collisions.map((c) => c.path)).toEqual([
			projSettings,
			join(cwd, ".pi", "skills", "same", "SKILL.md"),
			join(root, "user-extra", "same", "SKILL.md"),
			join(agentDir, "skills", "same", "SKILL.md"),
			join(home, ".agents", "skills", "same", "SKILL.md"),
			join(root, "pkg", "skills", "same", "SKILL.md"),
			join(root, "ext", "same", "SKILL.md"),
		]);
		expect(loader.getDiagnostics()[0]).toMatch(/^Warning \(skill\): .*skipped: the name is taken by .* \(cli\)$/);
	});

	it("-ns keeps only --skill paths; extension paths join later and rank last", async () => {
		skill(join(agentDir, "skills"), "discovered");
		skill(join(root, "cli"), "explicit");
		const loader = await load({ noSkills: true, skillPaths: [join(root, "cli")] });
		expect(loader.getSkills().map((s) => s.name)).toEqual(["explicit"]);
		skill(join(root, "ext"), "from-ext");
		template(join(root, "ext-prompts"), "ext-tpl", "hi");
		await loader.addExtraPaths({ skillPaths: [join(root, "ext")], promptPaths: [join(root, "ext-prompts")] }, "my-ext");
		expect(loader.getSkills().map((s) => [s.name, s.origin])).toEqual([
			["explicit", { source: "cli" }],
			["from-ext", { source: "extension", owner: "my-ext" }],
		]);
		expect(loader.getPromptTemplates().map((t) => t.name)).toEqual(["ext-tpl"]);
	});

	it(".agents/skills from cwd up to the repository root, not above it", async () => {
		expect(ancestorAgentsSkillDirs(cwd)).toEqual([
			join(cwd, ".agents", "skills"),
			join(root, "repo", ".agents", "skills"),
		]);
		skill(join(root, "repo", ".agents", "skills"), "repo-level");
		skill(join(root, ".agents", "skills"), "above-repo");
		expect((await load()).getSkills().map((s) => s.name)).toEqual(["repo-level"]);
	});

	it("packages: the package.json `pi` manifest, else conventional dirs; project packages need trust", async () => {
		const withManifest = join(root, "p1");
		skill(join(withManifest, "custom"), "manifest-skill");
		skill(join(withManifest, "skills"), "ignored-by-manifest");
		writeFileSync(join(withManifest, "package.json"), JSON.stringify({ name: "p1", pi: { skills: ["custom"] } }));
		const plain = join(root, "p2");
		skill(join(plain, "skills"), "plain-skill");
		template(join(plain, "prompts", "sub"), "nested", "nested template");
		const projectPkg = join(root, "p3");
		skill(join(projectPkg, "skills"), "project-pkg-skill");
		const roots = [
			{ root: withManifest, scope: "user" as const },
			{ root: plain, scope: "user" as const },
			{ root: projectPkg, scope: "project" as const },
		];
		const untrusted = await load({ packageRoots: roots, loadProjectResources: false });
		expect(untrusted.getSkills().map((s) => s.name)).toEqual(["manifest-skill", "plain-skill"]);
		expect(untrusted.getPromptTemplates().map((t) => t.name)).toEqual(["nested"]);
		const trusted = await load({ packageRoots: roots });
		expect(trusted.getSkills().map((s) => s.name)).toContain("project-pkg-skill");
	});

	it("settings entries: `!glob` and `-path` exclude discovered items, `+path` forces one back", async () => {
		skill(join(agentDir, "skills"), "keep");
		skill(join(agentDir, "skills"), "pdf-one");
		skill(join(agentDir, "skills"), "pdf-two");
		skill(join(agentDir, "skills"), "gone");
		template(join(agentDir, "prompts"), "draft-x", "x");
		template(join(agentDir, "prompts"), "final", "y");
		const loader = await load({
			settings: settings({
				skills: ["!pdf-*", "+skills/pdf-two", "-skills/gone"],
				prompts: ["!draft-*"],
			}),
		});
		expect(loader.getSkills().map((s) => s.name)).toEqual(["pdf-two", "keep"]);
		expect(loader.getPromptTemplates().map((t) => t.name)).toEqual(["final"]);
	});
});

describe("prompt templates", () => {
	it("conventional dirs load direct .md children only; description from frontmatter or the first line; argument-hint", async () => {
		const dir = join(agentDir, "prompts");
		template(
			dir,
			"review",
			'---\ndescription: Review staged changes\nargument-hint: "[focus]"\n---\nReview ${1:-all}.\n',
		);
		template(dir, "plain", `\n\n${"A long first line ".repeat(5)}\nsecond line`);
		template(join(dir, "nested"), "deep", "not loaded from a conventional dir");
		writeFileSync(join(dir, "notes.txt"), "not markdown");
		const loader = await load();
		const [plain, review] = loader.getPromptTemplates();
		expect(review).toMatchObject({
			name: "review",
			description: "Review staged changes",
			argumentHint: "[focus]",
			content: "Review ${1:-all}.\n",
		});
		expect(plain.description).toBe(`${"A long first line ".repeat(5).trim().slice(0, 60)}...`);
		expect(loader.getPromptTemplates()).toHaveLength(2);
	});

	it("binary, huge and malformed files in a prompts dir are skipped with a warning; the rest load", async () => {
		const dir = join(agentDir, "prompts");
		template(dir, "ok", "fine");
		writeFileSync(join(dir, "bin.md"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
		writeFileSync(join(dir, "huge.md"), "y".repeat(2 * 1024 * 1024));
		template(dir, "broken", "---\ndescription: [x\n---\nbody");
		template(dir, "has space", "x");
		const loader = await load();
		expect(loader.getPromptTemplates().map((t) => t.name)).toEqual(["ok"]);
		const lines = loader.getDiagnostics().join("\n");
		expect(lines).toContain(`${join(dir, "bin.md")}: skipped: binary file`);
		expect(lines).toContain(`${join(dir, "huge.md")}: skipped: file too large`);
		expect(lines).toContain(`${join(dir, "broken.md")}:3: skipped: invalid YAML frontmatter: Flow sequence`);
		expect(lines).toContain("must not contain spaces");
	});

	it("project templates beat user templates of the same name, with a collision warning", async () => {
		template(join(cwd, ".pi", "prompts"), "review", "project");
		const user = template(join(agentDir, "prompts"), "review", "user");
		const loader = await load();
		expect(loader.getPromptTemplates().map((t) => t.content)).toEqual(["project"]);
		expect(loader.getDiagnostics()).toEqual([
			expect.stringContaining(`Warning (prompt): ${user}: template "/review" skipped: the name is taken by`),
		]);
	});
});

describe("context files", () => {
	it("AGENTS.override.md replaces AGENTS.md/CLAUDE.md in its own directory only", () => {
		writeFileSync(join(agentDir, "AGENTS.md"), "global");
		writeFileSync(join(root, "repo", "AGENTS.md"), "repo");
		writeFileSync(join(cwd, "AGENTS.md"), "pkg plain");
		writeFileSync(join(cwd, "AGENTS.override.md"), "pkg override");
		const files = loadContextFiles({ cwd, agentDir }).filter((f) => f.path.startsWith(root));
		expect(files.map((f) => f.content)).toEqual(["global", "repo", "pkg override"]);
	});

	it("a binary context file is skipped with a diagnostic", () => {
		writeFileSync(join(cwd, "AGENTS.md"), Buffer.from([0, 1, 2]));
		writeFileSync(join(cwd, "CLAUDE.md"), "fallback");
		const diagnostics: import("../../src/resources/diagnostics.js").ResourceDiagnostic[] = [];
		const files = loadContextFiles({ cwd, agentDir }, diagnostics).filter((f) => f.path.startsWith(root));
		expect(files.map((f) => f.content)).toEqual(["fallback"]);
		expect(diagnostics[0]).toMatchObject({ kind: "context", path: join(cwd, "AGENTS.md") });
	});
});
