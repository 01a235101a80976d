// npm packages against a real registry (verdaccio on loopback, started once
// for this file): publish, install, use the extension's tool, the skill, the
// template and the theme, update to a new version, pins, `-e`, project scope,
// remove; and the failures: an unknown package, the registry down, a bad
// manifest, a corrupt tarball while pi still starts, an update that turns
// bad, and `pi update` for pi itself. Each test has its own sandbox and the
// tests run concurrently (npm spends much of its time waiting on the
// registry), sharing the one registry: each uses packages of its own, or
// only adds versions the others do not depend on.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, body, createSandbox, type Sandbox, textReply, toolReply } from "../cli/support.js";
import { type NpmRegistry, startNpmRegistry } from "../support/npm-registry/index.js";
import { type FixturePackage, writePackage } from "../support/packages.js";

let registry: NpmRegistry;
let fixtures: string;

const demo = (version: string): FixturePackage => ({
	name: "pi-demo-tools",
	version,
	tool: "demo_tool",
	skill: "demo-skill",
	prompt: "demo-review",
	theme: "demo-theme",
});

async function publish(p: FixturePackage, edit?: (dir: string) => void): Promise<void> {
	const dir = writePackage(join(fixtures, `${p.name.replace("/", "_")}-${p.version}`), p);
	edit?.(dir);
	await registry.publish(dir);
}

beforeAll(async () => {
	assertBuilt();
	registry = await startNpmRegistry();
	fixtures = mkdtempSync(join(tmpdir(), "pi-npm-fixtures-"));
	await Promise.all([
		publish(demo("1.0.0")),
		publish({ name: "@pi-test/scoped", version: "1.0.0", skill: "scoped-skill" }),
		publish({ name: "pi-bad-manifest", version: "1.0.0", manifest: { pi: { extensions: "nope" } } }),
		publish({ name: "pi-corrupt", version: "1.0.0", skill: "corrupt-skill" }),
		publish({ name: "pi-turns-bad", version: "1.0.0", tool: "tb_tool", skill: "tb-skill" }),
	]);
}, 120_000);
afterAll(async () => {
	await registry?.close();
	if (fixtures) rmSync(fixtures, { recursive: true, force: true });
});
/** A sandbox of its own for each test (they run concurrently), pointed at the registry, closed when the test ends. */
async function sandbox(onTestFinished: (fn: () => Promise<void>) => void): Promise<Sandbox> {
	const sb = await createSandbox();
	Object.assign(sb.env, registry.env, { PI_OFFLINE: "0" });
	onTestFinished(() => sb.close());
	return sb;
}

const userSettings = (sb: Sandbox) => JSON.parse(readFileSync(join(sb.agentDir, "settings.json"), "utf8")) as unknown;
const installed = (sb: Sandbox, name: string, root = sb.agentDir) => join(root, "npm", "node_modules", name);
const versionAt = (dir: string) =>
	(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;

function systemPrompt(sb: Sandbox, i: number): string {
	const m = body(sb.fake, i).messages[0];
	return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
}

// Each test runs the CLI several times, npm included: generous limits for a loaded machine.
describe.concurrent("npm registry", () => {
	describe("npm packages from a registry", { timeout: 180_000 }, () => {
		it("install, use each resource, update, pin, remove", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			const install = await sb.run(["install", "npm:pi-demo-tools"]);
			expect(install.code, install.stderr).toBe(0);
			expect(install.stdout).toContain("pi-demo-tools (1.0.0)");
			expect(install.stdout).toContain("1 extension, 1 skill, 1 prompt template, 1 theme");
			expect(versionAt(installed(sb, "pi-demo-tools"))).toBe("1.0.0");
			expect(userSettings(sb)).toEqual({ packages: ["npm:pi-demo-tools"] });

			// The extension's tool is offered and runs; the skill is in the system prompt.
			sb.fake.enqueue(toolReply("demo_tool", {}));
			sb.fake.enqueue(textReply("done"));
			const used = await sb.run(["-p", "--model", "fake/fake-model", "use the tool"]);
			expect(used.code, used.stderr).toBe(0);
			expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toContain("demo_tool");
			expect(systemPrompt(sb, 0)).toContain("Skill demo-skill from pi-demo-tools 1.0.0");
			expect(JSON.stringify(body(sb.fake, 1).messages)).toContain("demo_tool ran (1.0.0)");

			// The template expands; the theme is discovered with the package as its origin.
			sb.fake.enqueue(textReply("ok"));
			const templ = await sb.run(["-p", "--verbose", "--model", "fake/fake-model", "/demo-review src/a.ts"]);
			expect(templ.code, templ.stderr).toBe(0);
			expect(JSON.stringify(body(sb.fake, 2).messages)).toContain("TEMPLATE-DEMO-REVIEW for src/a.ts");
			expect(templ.stderr).toMatch(/\[package npm:pi-demo-tools\] .*themes\/demo-theme\.json/);

			// A new version: update takes it.
			await publish(demo("1.1.0"));
			const update = await sb.run(["update", "--extensions"]);
			expect(update.code, update.stderr).toBe(0);
			expect(update.stdout).toContain("npm:pi-demo-tools: updated 1.0.0 → 1.1.0");
			expect(versionAt(installed(sb, "pi-demo-tools"))).toBe("1.1.0");
			sb.fake.enqueue(textReply("ok"));
			await sb.run(["-p", "--model", "fake/fake-model", "hi"]);
			expect(systemPrompt(sb, 3)).toContain("Skill demo-skill from pi-demo-tools 1.1.0");

			// Pinned: the entry is replaced (same package), and update leaves it alone.
			const pin = await sb.run(["install", "npm:pi-demo-tools@1.0.0"]);
			expect(pin.code, pin.stderr).toBe(0);
			expect(userSettings(sb)).toEqual({ packages: ["npm:pi-demo-tools@1.0.0"] });
			expect(versionAt(installed(sb, "pi-demo-tools"))).toBe("1.0.0");
			await publish(demo("2.0.0"));
			const pinned = await sb.run(["update", "--extensions"]);
			expect(pinned.code, pinned.stderr).toBe(0);
			expect(pinned.stdout).toContain("npm:pi-demo-tools@1.0.0: pinned, skipped");
			expect(versionAt(installed(sb, "pi-demo-tools"))).toBe("1.0.0");

			const removed = await sb.run(["remove", "npm:pi-demo-tools"]);
			expect(removed.code, removed.stderr).toBe(0);
			expect(existsSync(installed(sb, "pi-demo-tools"))).toBe(false);
			expect(userSettings(sb)).toEqual({ packages: [] });
		});

		it("scoped names; -l installs under the project's .pi/npm", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			const r = await sb.run(["install", "-l", "npm:@pi-test/scoped@1.0.0"]);
			expect(r.code, r.stderr).toBe(0);
			expect(versionAt(installed(sb, "@pi-test/scoped", join(sb.cwd, ".pi")))).toBe("1.0.0");
			expect(JSON.parse(readFileSync(join(sb.cwd, ".pi", "settings.json"), "utf8"))).toEqual({
				packages: ["npm:@pi-test/scoped@1.0.0"],
			});
			sb.fake.enqueue(textReply("ok"));
			const trusted = await sb.run(["-p", "--approve", "--model", "fake/fake-model", "hi"]);
			expect(trusted.code, trusted.stderr).toBe(0);
			expect(systemPrompt(sb, 0)).toContain("scoped-skill");
		});

		it("-e npm:… loads for one run from the cache and leaves settings alone", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			sb.fake.enqueue(textReply("ok"));
			const r = await sb.run(["-p", "-e", "npm:pi-demo-tools", "--model", "fake/fake-model", "hi"]);
			expect(r.code, r.stderr).toBe(0);
			expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toContain("demo_tool");
			expect(existsSync(join(sb.agentDir, "tmp", "extensions", "npm", "node_modules", "pi-demo-tools"))).toBe(true);
			expect(existsSync(join(sb.agentDir, "settings.json"))).toBe(false);
			sb.fake.enqueue(textReply("ok"));
			await sb.run(["-p", "--model", "fake/fake-model", "hi"]);
			expect(body(sb.fake, 1).tools?.map((t) => t.function.name)).not.toContain("demo_tool");
		});
	});

	describe("pi update: pi itself", { timeout: 180_000 }, () => {
		it("the registry's newest pi: up to date, --force, the configured command, --models, --all, offline", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			const record = join(sb.root, "self-update.txt");
			const recorder = join(sb.root, "record.cjs");
			writeFileSync(
				recorder,
				`require("node:fs").writeFileSync(${JSON.stringify(record)}, process.argv.slice(2).join(" "))`,
			);
			const env = { PI_SELF_UPDATE_COMMAND: `${process.execPath} ${recorder} {installSpec} {packageName} {version}` };

			const unreachable = await sb.run(["update"], {
				env: { ...env, npm_config_registry: "http://127.0.0.1:9/", npm_config_userconfig: "/dev/null" },
			});
			expect(unreachable.code).toBe(1);
			expect(unreachable.stderr).toContain("could not find the newest version of @pi/coding-agent in the npm registry");

			// pi's own package name in this registry, older than this build: nothing runs unless --force.
			await publish({ name: "@pi/coding-agent", version: "0.0.1" });
			const same = await sb.run(["update"], { env });
			expect(same.code, same.stderr).toBe(0);
			expect(same.stdout).toMatch(/pi \d+\.\d+\.\d+ is up to date \(the registry's newest is 0\.0\.1\)/);
			expect(existsSync(record)).toBe(false);
			const forced = await sb.run(["update", "--force"], { env });
			expect(forced.code, forced.stderr).toBe(0);
			expect(readFileSync(record, "utf8")).toBe("@pi/coding-agent@0.0.1 @pi/coding-agent 0.0.1");

			await publish({ name: "@pi/coding-agent", version: "99.0.0" });
			const r = await sb.run(["update"], { env });
			expect(r.code, r.stderr).toBe(0);
			expect(r.stdout).toMatch(/Updating pi \d+\.\d+\.\d+ → 99\.0\.0/);
			expect(r.stdout).toContain("Packages are not updated: pi update --extensions does that");
			expect(readFileSync(record, "utf8")).toBe("@pi/coding-agent@99.0.0 @pi/coding-agent 99.0.0");

			// The setting (an argv array) when the variable is not set; `self` and `pi` are the same target.
			writeFileSync(
				join(sb.agentDir, "settings.json"),
				JSON.stringify({ selfUpdateCommand: [process.execPath, recorder, "with space {version}"] }),
			);
			const viaSetting = await sb.run(["update", "pi"]);
			expect(viaSetting.code, viaSetting.stderr).toBe(0);
			expect(readFileSync(record, "utf8")).toBe("with space 99.0.0");

			// No command and not a global install (this is a source checkout): the reason and what to do, exit 1.
			writeFileSync(join(sb.agentDir, "settings.json"), "{}");
			const none = await sb.run(["update", "--self"]);
			expect(none.code).toBe(1);
			expect(none.stderr).toContain("which is not a global npm, pnpm, yarn or bun install, so pi cannot update itself");

			const models = await sb.run(["update", "--models"]);
			expect(models.code).toBe(0);
			expect(models.stdout).toContain("model catalog is built into pi");
			const bad = await sb.run(["update", "--models", "--all"]);
			expect(bad.code).toBe(1);
			expect(bad.stderr).toContain("--models goes alone");

			// --all: packages and pi; a failing command is exit 1.
			const all = await sb.run(["update", "--all"], { env: { PI_SELF_UPDATE_COMMAND: "false" } });
			expect(all.code).toBe(1);
			expect(all.stdout).toContain("No packages configured.");
			expect(all.stderr).toContain("Error: false failed (exit 1)");

			const offline = await sb.run(["update"], { env: { ...env, PI_OFFLINE: "1" } });
			expect(offline.code).toBe(0);
			expect(offline.stdout).toContain("Skipped updating pi (offline mode).");
		});
	});

	describe("npm failures", { timeout: 120_000 }, () => {
		it("an update whose manifest turns bad is rolled back: the previous version stays and loads", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			const install = await sb.run(["install", "npm:pi-turns-bad"]);
			expect(install.code, install.stderr).toBe(0);
			const prefix = join(sb.agentDir, "npm");
			const files = () => [
				readFileSync(join(prefix, "package.json"), "utf8"),
				readFileSync(join(prefix, "package-lock.json"), "utf8"),
			];
			const before = files();
			await publish({
				name: "pi-turns-bad",
				version: "1.1.0",
				tool: "tb_tool",
				skill: "tb-skill",
				manifest: { pi: { extensions: { path: "extensions" } } },
			});
			const r = await sb.run(["update", "--extensions"]);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain("could not update npm:pi-turns-bad: 1.1.0 is not usable (bad manifest in");
			expect(r.stderr).toContain('"pi.extensions" must be an array of paths); kept 1.0.0');
			expect(versionAt(installed(sb, "pi-turns-bad"))).toBe("1.0.0");
			expect(files()).toEqual(before);
			sb.fake.enqueue(textReply("ok"));
			const run = await sb.run(["-p", "--model", "fake/fake-model", "hi"]);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).not.toContain("skipped");
			expect(systemPrompt(sb, 0)).toContain("Skill tb-skill from pi-turns-bad 1.0.0");
			expect(body(sb.fake, 0).tools?.map((t) => t.function.name)).toContain("tb_tool");
		});

		it("an unknown package: exit 1 with npm's reason, settings untouched", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			const r = await sb.run(["install", "npm:pi-no-such-package"]);
			expect(r.code).toBe(1);
			expect(r.stderr).toMatch(
				/could not install npm:pi-no-such-package: npm install pi-no-such-package failed: .*404/,
			);
			expect(existsSync(join(sb.agentDir, "settings.json"))).toBe(false);
		});

		it("the registry down: exit 1 naming the connection error, settings untouched", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ packages: ["npm:pi-demo-tools"] }));
			const down = { npm_config_registry: "http://127.0.0.1:9/", npm_config_userconfig: "/dev/null" };
			const r = await sb.run(["install", "npm:@pi-test/scoped"], { env: down });
			expect(r.code).toBe(1);
			expect(r.stderr).toMatch(
				/could not install npm:@pi-test\/scoped: .*(ECONNREFUSED|request to http:\/\/127\.0\.0\.1:9)/,
			);
			expect(userSettings(sb)).toEqual({ packages: ["npm:pi-demo-tools"] });
			// At start-up the same failure is a warning and pi runs on.
			sb.fake.enqueue(textReply("ok"));
			const start = await sb.run(["-p", "--model", "fake/fake-model", "hi"], { env: down });
			expect(start.code, start.stderr).toBe(0);
			expect(start.stderr).toContain("package npm:pi-demo-tools skipped:");
			expect(sb.fake.requests.length).toBe(1);
		});

		it("a bad manifest is refused and uninstalled", async ({ onTestFinished }) => {
			const sb = await sandbox(onTestFinished);
			const r = await sb.run(["install", "npm:pi-bad-manifest"]);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain("npm:pi-bad-manifest was not added: bad manifest");
			expect(r.stderr).toContain('"pi.extensions" must be an array of paths');
			expect(existsSync(installed(sb, "pi-bad-manifest"))).toBe(false);
			expect(existsSync(join(sb.agentDir, "settings.json"))).toBe(false);
		});

		it("a corrupt tarball fails the install; configured, pi still starts with a warning", async ({
			onTestFinished,
		}) => {
			const sb = await sandbox(onTestFinished);
			// Damage the stored tarball behind the registry's back: the integrity check must catch it.
			const storage = join(registry.storageDir, "pi-corrupt");
			const tgz = readdirSync(storage).find((f) => f.endsWith(".tgz"));
			expect(tgz).toBeDefined();
			writeFileSync(join(storage, tgz as string), "this is not a gzip file");
			const r = await sb.run(["install", "npm:pi-corrupt"]);
			expect(r.code, r.stdout + r.stderr).toBe(1);
			expect(r.stderr).toContain("could not install npm:pi-corrupt: npm install pi-corrupt failed:");
			expect(existsSync(installed(sb, "pi-corrupt"))).toBe(false);
			writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ packages: ["npm:pi-corrupt"] }));
			sb.fake.enqueue(textReply("ok"));
			const start = await sb.run(["-p", "--model", "fake/fake-model", "hi"]);
			expect(start.code, start.stderr).toBe(0);
			expect(start.stderr).toContain("package npm:pi-corrupt skipped: npm install pi-corrupt failed");
			expect(systemPrompt(sb, 0)).not.toContain("corrupt-skill");
		});
	});
});
