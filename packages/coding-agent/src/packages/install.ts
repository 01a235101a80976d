// Where packages live and how they get there.
//   npm:  `<root>/npm/node_modules/<name>`, installed with npm --prefix <root>/npm
//   git:  `<root>/git/<host>/<path>`, cloned, checked out at the ref, then
//         `npm install --omit=dev` when it has dependencies
//   local: used in place, never copied or modified
// <root> is the agent dir (user scope), `<cwd>/.pi` (project scope) or
// `<agentDir>/tmp/extensions` (`-e` for one run).
//
// A git clone is made in a temporary directory next to its target, checked
// and only then moved into place (swap.ts), so a failed or interrupted install leaves
// the previous checkout (or nothing) — never half a package. npm rolls back
// its own failed installs.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { check, exec, failureSummary } from "./exec.js";
import { readPackage } from "./manifest.js";
import { type GitSource, type NpmSource, type ParsedSource, sourceHash } from "./source.js";
import { recoverSwap, swapInto } from "./swap.js";

export type InstallScope = "user" | "project" | "temporary";

export interface InstallContext {
	agentDir: string;
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** The `npmCommand` setting, e.g. ["pnpm"]; default ["npm"]. */
	npmCommand?: readonly string[];
}

export function installRoot(scope: InstallScope, ctx: InstallContext): string {
	if (scope === "project") return join(ctx.cwd, ".pi");
	if (scope === "temporary") return join(ctx.agentDir, "tmp", "extensions");
	return ctx.agentDir;
}

export function npmPrefix(scope: InstallScope, ctx: InstallContext): string {
	return join(installRoot(scope, ctx), "npm");
}

/** A path below `root`, refusing anything a crafted source could make escape it. */
function inside(root: string, ...parts: string[]): string {
	const base = resolve(root);
	const full = resolve(base, ...parts);
	if (full !== base && !full.startsWith(base + sep)) throw new Error(`refusing a path outside ${base}: ${full}`);
	return full;
}

/** Where the package's files are (for local sources: the path itself). */
export function installedPath(source: ParsedSource, scope: InstallScope, ctx: InstallContext): string {
	if (source.type === "local") return source.path;
	if (source.type === "npm") return inside(npmPrefix(scope, ctx), "node_modules", source.name);
	const root = join(installRoot(scope, ctx), "git");
	// `-e` checkouts are per spec (ref included) so two refs never share a directory.
	return scope === "temporary"
		? inside(root, sourceHash(source), source.host, source.path)
		: inside(root, source.host, source.path);
}

export function isInstalled(source: ParsedSource, scope: InstallScope, ctx: InstallContext): boolean {
	const path = installedPath(source, scope, ctx);
	if (source.type === "git") recoverSwap(path);
	if (source.type === "npm") return existsSync(join(path, "package.json"));
	return existsSync(path);
}

export function installedVersion(path: string): string | undefined {
	try {
		const v = (JSON.parse(readFileSync(join(path, "package.json"), "utf8")) as { version?: unknown }).version;
		return typeof v === "string" ? v : undefined;
	} catch {
		return undefined;
	}
}

function env(ctx: InstallContext): NodeJS.ProcessEnv {
	// Never wait for a password prompt: a private repository without credentials is a failure, not a hang.
	return { ...ctx.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: ctx.env.GIT_ASKPASS ?? "echo" };
}

export function npm(ctx: InstallContext, args: string[], cwd?: string) {
	const [command, ...pre] = ctx.npmCommand && ctx.npmCommand.length > 0 ? ctx.npmCommand : ["npm"];
	return exec(command, [...pre, ...args], { cwd, env: env(ctx) });
}

export const NPM_QUIET = ["--no-audit", "--no-fund", "--legacy-peer-deps", "--loglevel=error"];

function ensureNpmProject(prefix: string): void {
	mkdirSync(prefix, { recursive: true });
	const file = join(prefix, "package.json");
	if (!existsSync(file)) {
		writeFileSync(file, `${JSON.stringify({ name: "pi-packages", private: true, dependencies: {} }, null, 2)}\n`);
	}
}

export async function installNpm(source: NpmSource, scope: InstallScope, ctx: InstallContext, latest: boolean) {
	const prefix = npmPrefix(scope, ctx);
	ensureNpmProject(prefix);
	const spec = source.version ? `${source.name}@${source.version}` : latest ? `${source.name}@latest` : source.name;
	const result = await npm(ctx, ["install", spec, "--prefix", prefix, ...NPM_QUIET]);
	check(result, `npm install ${spec} failed`);
}

export function git(ctx: InstallContext, args: string[], cwd?: string) {
	return exec("git", args, { cwd, env: env(ctx) });
}

async function hasDependencies(dir: string): Promise<boolean> {
	try {
		const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: object };
		return Boolean(pkg.dependencies && Object.keys(pkg.dependencies).length > 0);
	} catch {
		return false;
	}
}

export async function npmInstallIn(dir: string, ctx: InstallContext, what: string): Promise<void> {
	if (!(await hasDependencies(dir))) return;
	check(await npm(ctx, ["install", "--omit=dev", ...NPM_QUIET], dir), `npm install in ${what} failed`);
}

async function checkoutRef(dir: string, source: GitSource, ctx: InstallContext): Promise<void> {
	if (!source.ref) return;
	const r = await git(ctx, ["checkout", "--quiet", source.ref], dir);
	if (r.code !== 0) {
		throw new Error(`git ref "${source.ref}" not found in ${source.url} (${failureSummary(r)})`);
	}
}

export async function installGit(source: GitSource, scope: InstallScope, ctx: InstallContext): Promise<void> {
	const target = installedPath(source, scope, ctx);
	mkdirSync(dirname(target), { recursive: true });
	const tmp = `${target}.installing-${process.pid}`;
	rmSync(tmp, { recursive: true, force: true });
	try {
		check(await git(ctx, ["clone", "--quiet", source.url, tmp]), `git clone ${source.url} failed`);
		await checkoutRef(tmp, source, ctx);
		readPackage(tmp);
		await npmInstallIn(tmp, ctx, source.spec);
		swapInto(tmp, target);
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
}

/**
 * Installs (or reinstalls) a package; resolves to where it is. Throws an
 * Error whose message names the source and the reason.
 */
export async function installPackage(source: ParsedSource, scope: InstallScope, ctx: InstallContext): Promise<string> {
	const path = installedPath(source, scope, ctx);
	if (source.type === "local") {
		if (!existsSync(path)) throw new Error(`${path} does not exist`);
		return path;
	}
	if (source.type === "npm") await installNpm(source, scope, ctx, false);
	else await installGit(source, scope, ctx);
	return path;
}

/** Removes a package's installed files (local sources are left alone). */
export async function uninstallPackage(source: ParsedSource, scope: InstallScope, ctx: InstallContext): Promise<void> {
	if (source.type === "local") return;
	if (source.type === "npm") {
		const prefix = npmPrefix(scope, ctx);
		if (!existsSync(join(prefix, "package.json"))) return;
		check(await npm(ctx, ["uninstall", source.name, "--prefix", prefix, ...NPM_QUIET]), `npm uninstall failed`);
		return;
	}
	rmSync(installedPath(source, scope, ctx), { recursive: true, force: true });
}

export function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}
