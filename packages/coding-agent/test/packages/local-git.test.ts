// Pi packages from local paths and git repositories (bare repos made here,
// file:// URLs), through the built CLI: install/list/remove/update, pins,
// a moved branch, a missing ref, settings narrowing, project scope and trust,
// `-e` for one run, and that what a package brings really loads (the fake
// provider sees the skill in the system prompt and the extension's tool).
// Each test has its own sandbox and repositories; the tests run concurrently.
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, body, createSandbox, type Sandbox, textReply } from "../cli/support.js";
import { createRepo, writePackage } from "../support/packages.js";

beforeAll(assertBuilt);

/** A sandbox of its own for each test (they run concurrently), closed when the test ends. */
async function sandbox(onTestFinished: (fn: () => Promise<void>) => void): Promise<Sandbox> {
	const sb = await createSandbox();
	onTestFinished(() => sb.close());
	return sb;
}

const settingsOf = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
const userSettings = (sb: Sandbox) => settingsOf(join(sb.agentDir, "settings.json"));

function systemPrompt(sb: Sandbox, i: number): string {
	const m = body(sb.fake, i).messages[0];
	return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
}
const toolNames = (sb: Sandbox, i: number) => (body(sb.fake, i).tools ?? []).map((t) => t.function.name);

/** One print-mode run (online: configured packages that are missing get installed). */
async function ask(sb: Sandbox, extra: string[] = [], prompt = "hi") {
	sb.fake.enqueue(textReply("ok"));
	const before = sb.fake.requests.length;
	const r = await sb.run(["-p", "--model", "fake/fake-model", ...extra, prompt], { env: { PI_OFFLINE: "0" } });
	return { r, index: before };
}

describe.concurrent("local and git packages", () => {
	describe("local path packages", { timeout: 120_000 }, () => {
		it("install adds the path, pi loads its extension, skill and template; remove drops the entry only", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			const pkg = writePackage(join(sb.root, "tools"), {
				name: "local-tools",
				version: "1.0.0",
				tool: "local_tool",
				skill: "local-skill",
				prompt: "review-it",
			});
			writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ defaultThinkingLevel: "low" }));
			const install = await sb.run(["install", "../tools"]);
			expect(install.code, install.stderr).toBe(0);
			expect(install.stdout).toContain("1 extension, 1 skill, 1 prompt template");
			expect(install.stdout).toContain("extension: extensions/local_tool.ts");
			expect(install.stdout).toMatch(/Extensions run code/);
			expect(userSettings(sb)).toEqual({ defaultThinkingLevel: "low", packages: [pkg] });

			const list = await sb.run(["list"]);
			expect(list.code).toBe(0);
			expect(list.stdout).toContain(pkg);
			expect(list.stdout).toContain(`${pkg} (1.0.0)`);
			expect(list.stdout).toContain("1 extension, 1 skill, 1 prompt template");

			const { r, index } = await ask(sb);
			expect(r.code, r.stderr).toBe(0);
			expect(systemPrompt(sb, index)).toContain("Skill local-skill from local-tools 1.0.0");
			expect(toolNames(sb, index)).toContain("local_tool");

			const t = await ask(sb, [], "/review-it main.ts");
			expect(t.r.code, t.r.stderr).toBe(0);
			expect(JSON.stringify(body(sb.fake, t.index).messages)).toContain("TEMPLATE-REVIEW-IT for main.ts");

			const removed = await sb.run(["uninstall", pkg]);
			expect(removed.code, removed.stderr).toBe(0);
			expect(userSettings(sb)).toEqual({ defaultThinkingLevel: "low", packages: [] });
			expect(existsSync(join(pkg, "package.json"))).toBe(true);
			const after = await ask(sb);
			expect(toolNames(sb, after.index)).not.toContain("local_tool");
		});

		it("a settings entry narrows each kind; a relative path resolves from the settings file", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			writePackage(join(sb.agentDir, "pkgs", "narrow"), {
				name: "narrow",
				version: "1.0.0",
				tool: "narrow_tool",
				skill: "narrow-skill",
			});
			writeFileSync(
				join(sb.agentDir, "settings.json"),
				JSON.stringify({ packages: [{ source: "./pkgs/narrow", skills: [], extensions: ["extensions/*.ts"] }] }),
			);
			const { r, index } = await ask(sb);
			expect(r.code, r.stderr).toBe(0);
			expect(toolNames(sb, index)).toContain("narrow_tool");
			expect(systemPrompt(sb, index)).not.toContain("narrow-skill");
		});

		it("a bad manifest is refused at install and settings are not touched", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			writePackage(join(sb.root, "bad"), { name: "bad", version: "1.0.0", manifest: { pi: { skills: "skills" } } });
			const r = await sb.run(["install", "../bad"]);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain('"pi.skills" must be an array');
			expect(existsSync(join(sb.agentDir, "settings.json"))).toBe(false);
		});

		it("a malformed settings file is never overwritten", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			writePackage(join(sb.root, "ok"), { name: "ok", version: "1.0.0", skill: "ok-skill" });
			const broken = '{ "packages": [ oops ';
			writeFileSync(join(sb.agentDir, "settings.json"), broken);
			const r = await sb.run(["install", "../ok"]);
			expect(r.code).toBe(1);
			expect(r.stderr).toMatch(/malformed \(line 1, column \d+\)/);
			expect(readFileSync(join(sb.agentDir, "settings.json"), "utf8")).toBe(broken);
		});

		it("unknown options and missing sources are usage errors; --help works for each command", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			for (const cmd of ["install", "remove", "uninstall", "update", "list"]) {
				const h = await sb.run([cmd, "--help"]);
				expect(h.code, cmd).toBe(0);
				expect(h.stdout).toMatch(/^Usage: pi /);
			}
			const bad = await sb.run(["install", "--frob", "npm:x"]);
			expect(bad.code).toBe(1);
			expect(bad.stderr).toContain("unknown option --frob");
			const none = await sb.run(["remove", "npm:not-there"]);
			expect(none.code).toBe(1);
			expect(none.stderr).toContain("npm:not-there is not installed");
			expect(sb.fake.requests.length).toBe(0);
		});
	});

	describe("project scope and trust", { timeout: 120_000 }, () => {
		it("-l writes .pi/settings.json; its packages load only once the project is trusted", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			writePackage(join(sb.cwd, "vendor", "proj"), {
				name: "proj",
				version: "1.0.0",
				tool: "proj_tool",
				skill: "proj-skill",
			});
			const install = await sb.run(["install", "-l", "./vendor/proj"]);
			expect(install.code, install.stderr).toBe(0);
			expect(install.stdout).toContain("only once it is trusted");
			expect(settingsOf(join(sb.cwd, ".pi", "settings.json"))).toEqual({ packages: ["../vendor/proj"] });
			expect(existsSync(join(sb.agentDir, "settings.json"))).toBe(false);

			const untrusted = await ask(sb);
			expect(untrusted.r.code, untrusted.r.stderr).toBe(0);
			expect(toolNames(sb, untrusted.index)).not.toContain("proj_tool");
			expect(systemPrompt(sb, untrusted.index)).not.toContain("proj-skill");
			const listed = await sb.run(["list"]);
			expect(listed.stdout).toContain("not loaded: the project is not trusted");

			const trusted = await ask(sb, ["--approve"]);
			expect(trusted.r.code, trusted.r.stderr).toBe(0);
			expect(toolNames(sb, trusted.index)).toContain("proj_tool");
			expect(systemPrompt(sb, trusted.index)).toContain("proj-skill");

			// Now that .pi/settings.json exists the project needs trust: -l changes it only with --approve.
			const refused = await sb.run(["remove", "-l", "./vendor/proj"]);
			expect(refused.code).toBe(1);
			expect(refused.stderr).toContain("nothing was removed");
			const removed = await sb.run(["remove", "-l", "--approve", "./vendor/proj"]);
			expect(removed.code, removed.stderr).toBe(0);
			expect(settingsOf(join(sb.cwd, ".pi", "settings.json"))).toEqual({ packages: [] });
		});
	});

	describe("-l in a project that is not trusted", { timeout: 120_000 }, () => {
		// A cloned repository can carry .pi/npm/package.json with an install script: `pi install -l`
		// in it must not run npm there (nor write anything) before the user trusted the project.
		function hostileProject(sb: Sandbox): { marker: string; settings: string } {
			const marker = join(sb.root, "hostile-ran");
			const settings = '{ "packages": [] }\n';
			writeFileSync(join(sb.cwd, "payload.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`);
			mkdirSync(join(sb.cwd, ".pi", "npm"), { recursive: true });
			writeFileSync(join(sb.cwd, ".pi", "settings.json"), settings);
			writeFileSync(
				join(sb.cwd, ".pi", "npm", "package.json"),
				JSON.stringify({ name: "p", private: true, scripts: { preinstall: "node ../../payload.cjs" } }),
			);
			return { marker, settings };
		}

		it("refuses without a terminal to ask in, names --approve; nothing is written or run", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			const { marker, settings } = hostileProject(sb);
			const repo = createRepo(sb.root, "lp");
			repo.commitPackage({ name: "lp", version: "1.0.0", skill: "lp-skill" });
			for (const args of [
				["install", "-l", repo.url],
				["install", "-l", "npm:anything"],
				["remove", "-l", repo.url],
			]) {
				const r = await sb.run(args);
				expect(r.code, args.join(" ")).toBe(1);
				expect(r.stderr).toContain(`${sb.cwd} is not a trusted project and there is no terminal to ask in`);
				expect(r.stderr).toContain("--approve");
			}
			expect(readFileSync(join(sb.cwd, ".pi", "settings.json"), "utf8")).toBe(settings);
			expect(existsSync(join(sb.cwd, ".pi", "git"))).toBe(false);
			expect(existsSync(marker)).toBe(false);

			// A saved "no" and --no-approve refuse too.
			writeFileSync(join(sb.agentDir, "trust.json"), JSON.stringify({ [realpathSync(sb.cwd)]: false }));
			const saved = await sb.run(["install", "-l", repo.url]);
			expect(saved.code).toBe(1);
			expect(saved.stderr).toContain(`you chose not to trust ${sb.cwd}`);
			const no = await sb.run(["install", "-l", "-na", repo.url]);
			expect(no.code).toBe(1);
			expect(no.stderr).toContain("--no-approve was given");

			// --approve trusts it for this command: the package is installed and added.
			const yes = await sb.run(["install", "-l", "--approve", repo.url]);
			expect(yes.code, yes.stderr).toBe(0);
			expect(settingsOf(join(sb.cwd, ".pi", "settings.json"))).toEqual({ packages: [repo.url] });
			// The user-scope install is not affected by the project's trust.
			const user = await sb.run(["install", repo.url]);
			expect(user.code, user.stderr).toBe(0);
		});
	});

	describe("git packages", { timeout: 180_000 }, () => {
		it("a tag pins, a branch follows, no ref follows the default branch; update reports each", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			const repo = createRepo(sb.root, "tools");
			repo.commitPackage({ name: "git-tools", version: "1.0.0", tool: "git_tool", skill: "git-skill" });
			repo.tag("v1");
			repo.commitPackage({ name: "git-tools", version: "1.1.0", tool: "git_tool", skill: "git-skill" }, "next");

			const tagged = await sb.run(["install", `${repo.url}@v1`]);
			expect(tagged.code, tagged.stderr).toBe(0);
			const clone = join(sb.agentDir, "git", "local", repo.bare.slice(1).replace(/\.git$/, ""));
			expect(JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version).toBe("1.0.0");
			expect(userSettings(sb)).toEqual({ packages: [`${repo.url}@v1`] });
			const first = await ask(sb);
			expect(first.r.code, first.r.stderr).toBe(0);
			expect(systemPrompt(sb, first.index)).toContain("Skill git-skill from git-tools 1.0.0");
			expect(toolNames(sb, first.index)).toContain("git_tool");

			// main moves on: the tag stays where it is.
			repo.commitPackage({ name: "git-tools", version: "2.0.0", tool: "git_tool", skill: "git-skill" }, "main");
			const pinned = await sb.run(["update", "--extensions"]);
			expect(pinned.code, pinned.stderr).toBe(0);
			expect(pinned.stdout).toContain(`${repo.url}@v1: pinned, skipped`);
			expect(JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version).toBe("1.0.0");

			// The same repository on a branch replaces the entry (same identity) and follows the branch.
			const branch = await sb.run(["install", `${repo.url}@next`]);
			expect(branch.code, branch.stderr).toBe(0);
			expect(userSettings(sb)).toEqual({ packages: [`${repo.url}@next`] });
			expect(JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version).toBe("1.1.0");
			repo.commitPackage({ name: "git-tools", version: "1.2.0", tool: "git_tool", skill: "git-skill" }, "next");
			const moved = await sb.run(["update", `${repo.url}@next`]);
			expect(moved.code, moved.stderr).toBe(0);
			expect(moved.stdout).toMatch(/updated [0-9a-f]{7} → [0-9a-f]{7}/);
			expect(JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version).toBe("1.2.0");
			const second = await ask(sb);
			expect(systemPrompt(sb, second.index)).toContain("Skill git-skill from git-tools 1.2.0");

			// No ref: the default branch.
			const plain = await sb.run(["install", repo.url]);
			expect(plain.code, plain.stderr).toBe(0);
			expect(JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version).toBe("2.0.0");
			repo.commitPackage({ name: "git-tools", version: "2.1.0", tool: "git_tool", skill: "git-skill" }, "main");
			const upd = await sb.run(["update", "--extensions"]);
			expect(upd.code, upd.stderr).toBe(0);
			expect(JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version).toBe("2.1.0");

			const removed = await sb.run(["remove", repo.url]);
			expect(removed.code, removed.stderr).toBe(0);
			expect(existsSync(clone)).toBe(false);
			expect(userSettings(sb)).toEqual({ packages: [] });
		});

		it("an update whose manifest turns bad is not kept: the previous checkout stays and loads", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			const repo = createRepo(sb.root, "turns-bad");
			repo.commitPackage({ name: "turns-bad", version: "1.0.0", tool: "tb_tool", skill: "tb-skill" });
			expect((await sb.run(["install", repo.url])).code).toBe(0);
			const clone = join(sb.agentDir, "git", "local", repo.bare.slice(1).replace(/\.git$/, ""));
			const before = readFileSync(join(clone, "package.json"), "utf8");
			repo.commitPackage({
				name: "turns-bad",
				version: "2.0.0",
				tool: "tb_tool",
				skill: "tb-skill",
				manifest: { pi: { skills: "skills" } },
			});
			const r = await sb.run(["update", "--extensions"]);
			expect(r.code).toBe(1);
			expect(r.stderr).toMatch(
				new RegExp(
					`could not update ${repo.url}: [0-9a-f]{7} is not usable \\(bad manifest .*"pi.skills" must be an array of paths\\); kept [0-9a-f]{7}`,
				),
			);
			expect(readFileSync(join(clone, "package.json"), "utf8")).toBe(before);
			expect(readdirSync(dirname(clone)).filter((n) => n.includes(".updating-") || n.includes(".old-"))).toEqual([]);
			const { r: run, index } = await ask(sb);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).not.toContain("skipped");
			expect(systemPrompt(sb, index)).toContain("Skill tb-skill from turns-bad 1.0.0");
			expect(toolNames(sb, index)).toContain("tb_tool");
			// Fixed upstream: the next update takes it.
			repo.commitPackage({ name: "turns-bad", version: "2.0.1", tool: "tb_tool", skill: "tb-skill" });
			const fixed = await sb.run(["update", repo.url]);
			expect(fixed.code, fixed.stderr).toBe(0);
			expect(JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version).toBe("2.0.1");
		});

		it("a missing ref fails the install with the reason; settings and the existing checkout stay", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			const repo = createRepo(sb.root, "refs");
			repo.commitPackage({ name: "refs", version: "1.0.0", skill: "refs-skill" });
			repo.tag("v1");
			expect((await sb.run(["install", `${repo.url}@v1`])).code).toBe(0);
			const r = await sb.run(["install", `${repo.url}@v9`]);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain(`could not install ${repo.url}@v9: git ref "v9" not found in ${repo.url}`);
			expect(userSettings(sb)).toEqual({ packages: [`${repo.url}@v1`] });
			const { index } = await ask(sb);
			expect(systemPrompt(sb, index)).toContain("refs-skill");
		});

		it("a configured package that cannot be installed at start-up is a warning and pi runs on", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			const repo = createRepo(sb.root, "ok");
			repo.commitPackage({ name: "ok", version: "1.0.0", skill: "ok-skill" });
			const other = createRepo(sb.root, "other");
			other.commitPackage({ name: "other", version: "1.0.0", skill: "other-skill" });
			const missing = `file://${join(sb.root, "gone.git")}`;
			writeFileSync(
				join(sb.agentDir, "settings.json"),
				JSON.stringify({ packages: [missing, `${other.url}@nope`, repo.url] }),
			);
			const { r, index } = await ask(sb, [], "hi");
			expect(r.code, r.stderr).toBe(0);
			expect(r.stderr).toContain(`package ${missing} skipped: git clone ${missing} failed`);
			expect(r.stderr).toContain(`package ${other.url}@nope skipped: git ref "nope" not found`);
			expect(systemPrompt(sb, index)).toContain("ok-skill");
			// Offline: a package that is not installed is named, not fetched. (A scripted answer: without one the
			// fake's 500 is retried 2+4+8 s.)
			sb.fake.enqueue(textReply("ok"));
			const off = await sb.run(["-p", "--model", "fake/fake-model", "hi"], { env: { PI_OFFLINE: "1" } });
			expect(off.code, off.stderr).toBe(0);
			expect(off.stderr).toContain(`package ${missing} skipped: not installed, and offline mode is on`);
		});

		it("-e loads a git package for one run from a cache, without touching settings", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			const repo = createRepo(sb.root, "once");
			repo.commitPackage({ name: "once", version: "1.0.0", tool: "once_tool" });
			const { r, index } = await ask(sb, ["-e", repo.url], "hi");
			expect(r.code, r.stderr).toBe(0);
			expect(toolNames(sb, index)).toContain("once_tool");
			expect(existsSync(join(sb.agentDir, "settings.json"))).toBe(false);
			expect(existsSync(join(sb.agentDir, "tmp", "extensions", "git"))).toBe(true);
			// The cache follows the branch on the next run.
			repo.commitPackage({ name: "once", version: "1.1.0", tool: "once_tool" });
			const again = await ask(sb, ["-e", repo.url], "hi");
			expect(again.r.code, again.r.stderr).toBe(0);
			const tools = body(sb.fake, again.index).tools ?? [];
			expect(JSON.stringify(tools)).toContain("Tool from once 1.1.0");
			const without = await ask(sb);
			expect(toolNames(sb, without.index)).not.toContain("once_tool");
		});
	});
});
