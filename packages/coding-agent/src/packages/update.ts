// Bringing an installed package up to date, never leaving it unusable: the
// new version must install and its manifest must read (readPackage) before it
// counts, otherwise the previous version is what stays.
//   git: the new commit is checked out in a local clone next to the install
//        (objects shared with the installed checkout, no second download),
//        checked, given its dependencies, and only then swapped in; a failure
//        or an interrupt before the swap leaves the old checkout untouched.
//   npm: the prefix's package.json and package-lock.json are kept aside, the
//        new version is installed, and if it fails or its manifest is bad the
//        two files are put back and npm reinstalls exactly what they name
//        (the previous version). Nothing is done when the registry's newest
//        version is the installed one.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { check, failureSummary } from "./exec.js";
import {
	git,
	type InstallContext,
	type InstallScope,
	installedPath,
	installedVersion,
	installGit,
	installNpm,
	NPM_QUIET,
	npm,
	npmInstallIn,
	npmPrefix,
} from "./install.js";
import { readPackage } from "./manifest.js";
import type { GitSource, NpmSource, ParsedSource } from "./source.js";
import { recoverSwap, swapInto } from "./swap.js";

export interface UpdateResult {
	/** "pinned": a version/tag/commit was given, nothing was done. */
	status: "updated" | "unchanged" | "pinned" | "local";
	from?: string;
	to?: string;
}

/** An update that did not happen; the message says what is kept. */
export class UpdateError extends Error {}

async function gitHead(dir: string, ctx: InstallContext): Promise<string | undefined> {
	const r = await git(ctx, ["rev-parse", "HEAD"], dir);
	return r.code === 0 ? r.stdout.trim() : undefined;
}

async function revParse(dir: string, ref: string, ctx: InstallContext): Promise<string | undefined> {
	const r = await git(ctx, ["rev-parse", "--quiet", "--verify", `${ref}^{commit}`], dir);
	return r.code === 0 ? r.stdout.trim() : undefined;
}

async function updateGit(source: GitSource, scope: InstallScope, ctx: InstallContext): Promise<UpdateResult> {
	const dir = installedPath(source, scope, ctx);
	recoverSwap(dir);
	if (!existsSync(dir)) {
		await installGit(source, scope, ctx);
		return { status: "updated", to: (await gitHead(dir, ctx))?.slice(0, 7) };
	}
	const from = await gitHead(dir, ctx);
	// Fetching changes only refs and objects, never the checked-out files.
	check(await git(ctx, ["fetch", "--quiet", "--tags", "--force", "origin"], dir), `git fetch ${source.url} failed`);
	let target: string;
	if (source.ref) {
		// A branch follows its remote; a tag or a commit is pinned.
		const branch = await git(ctx, ["rev-parse", "--quiet", "--verify", `refs/remotes/origin/${source.ref}`], dir);
		if (branch.code !== 0) return { status: "pinned", from: from?.slice(0, 7) };
		target = `origin/${source.ref}`;
	} else {
		const head = await git(ctx, ["rev-parse", "--quiet", "--verify", "refs/remotes/origin/HEAD"], dir);
		if (head.code !== 0) await git(ctx, ["remote", "set-head", "origin", "--auto"], dir);
		target = "origin/HEAD";
	}
	const to = await revParse(dir, target, ctx);
	if (!to) throw new UpdateError(`${target} not found after fetching ${source.url}; kept ${from?.slice(0, 7)}`);
	if (to === from) return { status: "unchanged", from: from?.slice(0, 7), to: to.slice(0, 7) };

	const stage = `${dir}.updating-${process.pid}`;
	rmSync(stage, { recursive: true, force: true });
	const kept = `kept ${from?.slice(0, 7) ?? "the installed checkout"}`;
	try {
		check(
			await git(ctx, ["clone", "--quiet", "--no-checkout", dir, stage]),
			"git clone of the installed checkout failed",
		);
		// The stage's remote becomes the package's own, with the refs just fetched (copied locally, no network).
		check(await git(ctx, ["remote", "set-url", "origin", source.url], stage), "git remote set-url failed");
		check(
			await git(ctx, ["fetch", "--quiet", "--force", dir, "+refs/remotes/origin/*:refs/remotes/origin/*"], stage),
			"git fetch from the installed checkout failed",
		);
		check(await git(ctx, ["reset", "--quiet", "--hard", to], stage), `git reset to ${target} failed`);
		try {
			readPackage(stage);
		} catch (error) {
			throw new UpdateError(`${to.slice(0, 7)} is not usable (${(error as Error).message}); ${kept}`);
		}
		await npmInstallIn(stage, ctx, source.spec);
		swapInto(stage, dir);
	} catch (error) {
		if (error instanceof UpdateError) throw error;
		throw new UpdateError(`${(error as Error).message}; ${kept}`);
	} finally {
		rmSync(stage, { recursive: true, force: true });
	}
	return { status: "updated", from: from?.slice(0, 7), to: to.slice(0, 7) };
}

/** The newest registry version matching an unpinned npm source (undefined when the registry cannot say). */
export async function latestNpmVersion(source: NpmSource, ctx: InstallContext): Promise<string | undefined> {
	const r = await npm(ctx, ["view", `${source.name}@${source.version ?? "latest"}`, "version", "--json"]);
	if (r.code !== 0) return undefined;
	try {
		const v = JSON.parse(r.stdout) as unknown;
		const list = Array.isArray(v) ? v : [v];
		const last = list[list.length - 1];
		return typeof last === "string" ? last : undefined;
	} catch {
		return undefined;
	}
}

const PREFIX_FILES = ["package.json", "package-lock.json"] as const;

async function updateNpm(source: NpmSource, scope: InstallScope, ctx: InstallContext): Promise<UpdateResult> {
	const path = installedPath(source, scope, ctx);
	const from = installedVersion(path);
	if (source.version !== undefined && from !== undefined) return { status: "pinned", from };
	if (from !== undefined) {
		const latest = await latestNpmVersion(source, ctx);
		if (latest === from) return { status: "unchanged", from, to: from };
	}
	const prefix = npmPrefix(scope, ctx);
	const saved = new Map<string, string>();
	for (const name of PREFIX_FILES) {
		const file = join(prefix, name);
		if (existsSync(file)) saved.set(name, readFileSync(file, "utf8"));
	}
	try {
		await installNpm(source, scope, ctx, true);
		const info = readPackage(path);
		if (info.version !== undefined && info.version === from) return { status: "unchanged", from, to: from };
		return { status: "updated", from, to: installedVersion(path) };
	} catch (error) {
		const reason = (error as Error).message;
		const got = installedVersion(path);
		if (from === undefined) throw new UpdateError(reason);
		for (const name of PREFIX_FILES) {
			const text = saved.get(name);
			if (text !== undefined) writeFileSync(join(prefix, name), text);
		}
		if (got !== from) {
			// npm puts back exactly what the restored lock file names.
			const r = await npm(ctx, ["install", "--prefix", prefix, ...NPM_QUIET]);
			if (r.code !== 0 || installedVersion(path) !== from) {
				throw new UpdateError(
					`${got ?? "the new version"} is not usable (${reason}), and putting ${from} back failed: ${failureSummary(r)}`,
				);
			}
		}
		const what = got !== undefined && got !== from ? `${got} is not usable (${reason})` : reason;
		throw new UpdateError(`${what}; kept ${from}`);
	}
}

/** Brings an installed package up to date unless it is pinned; throws UpdateError naming what was kept. */
export async function updatePackage(
	source: ParsedSource,
	scope: InstallScope,
	ctx: InstallContext,
): Promise<UpdateResult> {
	if (source.type === "local") return { status: "local" };
	if (source.type === "git") return updateGit(source, scope, ctx);
	return updateNpm(source, scope, ctx);
}
