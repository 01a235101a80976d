// Pi package fixtures for the package-manager tests: a package directory
// with an extension (registering a tool), a skill, a prompt template and a
// theme; local bare git repositories (file:// URLs) with tags and branches.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface FixturePackage {
	name: string;
	version: string;
	/** Tool name the extension registers (default: none). */
	tool?: string;
	/** Skill name (default: none). */
	skill?: string;
	/** Prompt template file name without .md (default: none). */
	prompt?: string;
	/** Theme name (default: none). */
	theme?: string;
	/** Extra package.json keys (e.g. a `pi` manifest). */
	manifest?: Record<string, unknown>;
}

const THEME_SOURCE = fileURLToPath(new URL("../fixtures/themes-1.6.0/dark.json", import.meta.url));

/** Writes the package into `dir` (created) by the conventional layout. */
export function writePackage(dir: string, p: FixturePackage): string {
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		join(dir, "package.json"),
		`${JSON.stringify({ name: p.name, version: p.version, keywords: ["pi-package"], ...p.manifest }, null, 2)}\n`,
	);
	if (p.tool) {
		mkdirSync(join(dir, "extensions"), { recursive: true });
		writeFileSync(
			join(dir, "extensions", `${p.tool}.ts`),
			[
				"export default function (pi: any) {",
				"\tpi.registerTool({",
				`\t\tname: ${JSON.stringify(p.tool)},`,
				`\t\tlabel: ${JSON.stringify(p.tool)},`,
				`\t\tdescription: ${JSON.stringify(`Tool from ${p.name} ${p.version}`)},`,
				'\t\tparameters: { type: "object", properties: {} },',
				`\t\tasync execute() { return { content: [{ type: "text", text: ${JSON.stringify(`${p.tool} ran (${p.version})`)} }], details: {} }; },`,
				"\t});",
				"}",
				"",
			].join("\n"),
		);
	}
	if (p.skill) {
		mkdirSync(join(dir, "skills", p.skill), { recursive: true });
		writeFileSync(
			join(dir, "skills", p.skill, "SKILL.md"),
			`---\nname: ${p.skill}\ndescription: Skill ${p.skill} from ${p.name} ${p.version}\n---\nDo the ${p.skill} thing.\n`,
		);
	}
	if (p.prompt) {
		mkdirSync(join(dir, "prompts"), { recursive: true });
		writeFileSync(
			join(dir, "prompts", `${p.prompt}.md`),
			`---\ndescription: Template ${p.prompt}\n---\nTEMPLATE-${p.prompt.toUpperCase()} for $1\n`,
		);
	}
	if (p.theme) {
		mkdirSync(join(dir, "themes"), { recursive: true });
		const theme = JSON.parse(readFileSync(THEME_SOURCE, "utf8")) as Record<string, unknown>;
		writeFileSync(join(dir, "themes", `${p.theme}.json`), JSON.stringify({ ...theme, name: p.theme }, null, 2));
	}
	return dir;
}

const GIT_ENV = {
	...process.env,
	GIT_AUTHOR_NAME: "pi test",
	GIT_AUTHOR_EMAIL: "test@example.invalid",
	GIT_COMMITTER_NAME: "pi test",
	GIT_COMMITTER_EMAIL: "test@example.invalid",
	GIT_CONFIG_NOSYSTEM: "1",
};

export function git(cwd: string, ...args: string[]): string {
	return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** A bare repository at `<root>/<name>.git` and a work clone to commit from; the url is file://. */
export interface FixtureRepo {
	url: string;
	bare: string;
	work: string;
	/** Replaces the work tree's files with the package and commits + pushes to `branch`. */
	commitPackage(p: FixturePackage, branch?: string): string;
	tag(name: string): void;
}

export function createRepo(root: string, name: string): FixtureRepo {
	const bare = join(root, `${name}.git`);
	const work = join(root, `${name}-work`);
	mkdirSync(bare, { recursive: true });
	git(bare, "init", "--quiet", "--bare", "--initial-branch=main");
	mkdirSync(work, { recursive: true });
	git(work, "init", "--quiet", "--initial-branch=main");
	git(work, "remote", "add", "origin", bare);
	return {
		url: `file://${bare}`,
		bare,
		work,
		commitPackage(p, branch = "main") {
			const current = git(work, "symbolic-ref", "--short", "HEAD");
			if (current !== branch) {
				try {
					git(work, "checkout", "--quiet", branch);
				} catch {
					git(work, "checkout", "--quiet", "-b", branch);
				}
			}
			for (const d of ["extensions", "skills", "prompts", "themes"])
				rmSync(join(work, d), { recursive: true, force: true });
			writePackage(work, p);
			git(work, "add", "-A");
			git(work, "commit", "--quiet", "-m", `${p.name} ${p.version}`);
			git(work, "push", "--quiet", "origin", branch);
			return git(work, "rev-parse", "HEAD");
		},
		tag(tagName) {
			git(work, "tag", tagName);
			git(work, "push", "--quiet", "origin", tagName);
		},
	};
}

/** Copies a directory (for one-off variants). */
export function copyDir(from: string, to: string): void {
	cpSync(from, to, { recursive: true });
}
