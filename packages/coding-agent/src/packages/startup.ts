// Pi packages at start-up (the CLI and the SDK runtime): the user's packages and `-e`
// package sources load before the trust decision (their extensions may answer
// `project_trust`), the project's after it and only when it is trusted. What
// they bring goes to the extension loader (as package extensions whose
// `sourceInfo.source` is the package source) and to the resource loader (as
// package roots with their resolved skills, prompts and themes).
import { join } from "node:path";
import { PROJECT_CONFIG_DIR } from "../config/paths.js";
import type { PackageExtension } from "../extensions/discovery.js";
import type { PackageResourceRoot } from "../resources/resource-loader.js";
import type { InstallContext } from "./install.js";
import { declarationsOf, type LoadedPackage, loadPackages, type PackagesLoad } from "./load.js";
import { isRemoteSource } from "./source.js";

/** `-e` values: package sources (npm:, git:, git URLs) apart from extension paths. */
export function splitExtensionArgs(values: readonly string[] | undefined): { paths?: string[]; packages: string[] } {
	if (!values) return { paths: undefined, packages: [] };
	const packages = values.filter((v) => isRemoteSource(v));
	return { paths: values.filter((v) => !isRemoteSource(v)), packages };
}

export interface RunPackagesOptions {
	cwd: string;
	agentDir: string;
	env: NodeJS.ProcessEnv;
	/** The `packages` array of the scope's settings file. */
	entries: unknown;
	scope: "user" | "project";
	/** `-e` package sources (user stage only). */
	temporary?: readonly string[];
	npmCommand?: readonly string[];
	/** Project stage: the user's packages, which `autoload: false` project entries narrow. */
	userPackages?: readonly LoadedPackage[];
}

export async function loadRunPackages(o: RunPackagesOptions): Promise<PackagesLoad> {
	const ctx: InstallContext = { agentDir: o.agentDir, cwd: o.cwd, env: o.env, npmCommand: o.npmCommand };
	const baseDir = o.scope === "user" ? o.agentDir : join(o.cwd, PROJECT_CONFIG_DIR);
	const declarations = [
		...(o.temporary ?? []).map((entry) => ({ entry, scope: "temporary" as const, baseDir: o.cwd })),
		...declarationsOf(o.entries, o.scope, baseDir),
	];
	if (declarations.length === 0) return { packages: [], warnings: [] };
	return loadPackages({
		ctx,
		declarations,
		offline: o.env.PI_OFFLINE === "1" || o.env.PI_OFFLINE === "true",
		deltaBase: o.userPackages?.filter((p) => p.scope === "user"),
	});
}

/**
 * User, `-e` and project packages together: a project declaration replaces
 * the user's declaration of the same package; `-e` beats both.
 */
export function mergePackages(user: PackagesLoad, project: PackagesLoad | undefined): LoadedPackage[] {
	if (!project) return user.packages;
	const temporary = user.packages.filter((p) => p.scope === "temporary");
	const taken = new Set(temporary.map((p) => p.identity));
	const fromProject = project.packages.filter((p) => !taken.has(p.identity));
	for (const p of fromProject) taken.add(p.identity);
	return [
		...temporary,
		...fromProject,
		...user.packages.filter((p) => p.scope !== "temporary" && !taken.has(p.identity)),
	];
}

export function packageExtensions(packages: readonly LoadedPackage[]): PackageExtension[] {
	return packages.flatMap((p) =>
		p.enabled.extensions.map((path) => ({ path, source: p.spec, scope: p.scope, baseDir: p.root })),
	);
}

export function packageResourceRoots(packages: readonly LoadedPackage[]): PackageResourceRoot[] {
	return packages.map((p) => ({
		root: p.root,
		scope: p.scope === "project" ? "project" : "user",
		name: p.spec,
		resources: { skills: p.enabled.skills, prompts: p.enabled.prompts, themes: p.enabled.themes },
	}));
}
