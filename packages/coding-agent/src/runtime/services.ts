// The cwd-bound services of a session, built in the one order that keeps a
// project's files out until it is trusted:
//   1. global settings, and the extensions that may load before trust
//      (built-ins, the global dir and settings, -e, inline factories);
//   2. the trust decision: --approve, then `project_trust` handlers of those
//      extensions, then trust.json, then the host's question (the app) or the
//      `defaultProjectTrust` setting;
//   3. settings with the project's scope, the resource loader, and the
//      project's extensions (trusted folders only).
// AgentSessionRuntime builds them at start-up, again when a session switch
// enters another folder, and (steps 1 and 3 without asking again) on reload.
import { decideProjectTrust, type ProjectTrust, saveProjectTrust } from "../config/project-trust.js";
import { SettingsManager } from "../config/settings.js";
import type { LoadedExtension } from "../extensions/extension.js";
import type { ExtensionError, ExtensionMode } from "../extensions/types.js";
import type { LoadedPackage, PackagesLoad } from "../packages/load.js";
import { DefaultResourceLoader, type DefaultResourceLoaderOptions } from "../resources/resource-loader.js";
import {
	type ExtensionSetup,
	type ExtensionSetupOptions,
	finishExtensions,
	loadUserExtensions,
} from "./extension-setup.js";

/** The host's answer to "trust this folder?": once (this run), always (saved), no. */
export type TrustQuestionAnswer = "once" | "always" | "no";

export interface SessionServicesOptions {
	cwd: string;
	agentDir: string;
	mode: ExtensionMode;
	/** --approve (true) / --no-approve (false). */
	approve?: boolean;
	/** Which extensions to load (paths, -ne, built-ins, inline factories); cwd, agentDir and trust are set here. */
	extensions?: Omit<ExtensionSetupOptions, "cwd" | "agentDir" | "projectTrusted" | "globalSetting" | "projectSetting">;
	/** Resource loader options besides cwd, agentDir, trust and settings. */
	resources?: Omit<DefaultResourceLoaderOptions, "cwd" | "agentDir" | "loadProjectResources" | "settings">;
	/**
	 * Asked when the decision is "ask" (no flag, no extension answer, nothing
	 * saved): the interactive app's question. Without it "ask" means untrusted.
	 */
	askTrust?: (request: { cwd: string; resources: string[] }) => Promise<TrustQuestionAnswer>;
	/** A `project_trust` handler that threw or answered nonsense. */
	onExtensionError?: (error: ExtensionError) => void;
	/** `ctx.ui.notify` of `project_trust` handlers (there is no screen yet). */
	notify?: (message: string) => void;
	/**
	 * Pi packages (packages/startup.ts): the user's and the `-e` package
	 * sources load before trust, the project's after it. Absent: none (SDK).
	 */
	packages?: { env: NodeJS.ProcessEnv };
}

export interface SessionServices {
	cwd: string;
	agentDir: string;
	trust: ProjectTrust;
	/** Installed pi packages in force (user, `-e`, and the project's when trusted). */
	packages: LoadedPackage[];
	settings: SettingsManager;
	resources: DefaultResourceLoader;
	extensions: ExtensionSetup;
	/** Settings problems and the "not loaded (untrusted)" note, one line each. */
	warnings: string[];
}

/** Builds the services for `o.cwd`, deciding trust first. */
export async function createSessionServices(o: SessionServicesOptions): Promise<SessionServices> {
	const { cwd, agentDir } = o;
	const globalSettings = SettingsManager.create({ cwd, agentDir, loadProject: false });
	const warnings: string[] = [];
	const user = await userStage(o, cwd, globalSettings, warnings);
	const trust = await decideTrust(o, globalSettings, user.extensions.extensions);
	const asked = o.askTrust !== undefined && (globalSettings.get("defaultProjectTrust") ?? "ask") === "ask";
	if (trust.required && !trust.trusted && trust.source === "default" && !asked) {
		warnings.push(
			"Note: this project's .pi/ resources were not loaded (untrusted folder). Pass --approve to load them.",
		);
	}
	const settings = trust.trusted ? SettingsManager.create({ cwd, agentDir }) : globalSettings;
	warnings.push(...settings.getWarnings().map((w) => w.message));
	const packages = await projectStage(o, cwd, trust, settings, user.packages, warnings);
	const resources = new DefaultResourceLoader({
		...o.resources,
		cwd,
		agentDir,
		loadProjectResources: trust.trusted,
		settings,
		packageRoots: await packageRoots(packages),
	});
	await resources.reload();
	const extensions = await finishExtensions(
		user.extensions,
		afterTrust(user.options, trust, settings, await packageExtensionsOf(packages)),
	);
	return { cwd, agentDir, trust, packages, settings, resources, extensions, warnings };
}

/** Before trust: the user's packages and `-e` sources, then the extensions that may answer project_trust. */
async function userStage(o: SessionServicesOptions, cwd: string, globalSettings: SettingsManager, warnings: string[]) {
	const setup = o.packages ? await import("../packages/startup.js") : undefined;
	const split = setup?.splitExtensionArgs(o.extensions?.cliPaths);
	const packages = setup
		? await setup.loadRunPackages({
				cwd,
				agentDir: o.agentDir,
				env: o.packages?.env ?? process.env,
				npmCommand: globalSettings.get("npmCommand") as string[] | undefined,
				scope: "user",
				entries: globalSettings.getScopeSettings("global").packages,
				temporary: split?.packages,
			})
		: { packages: [], warnings: [] };
	warnings.push(...packages.warnings);
	const options: ExtensionSetupOptions = {
		...o.extensions,
		cliPaths: split ? split.paths : o.extensions?.cliPaths,
		cwd,
		agentDir: o.agentDir,
		projectTrusted: false,
		globalSetting: globalSettings.getScopeSettings("global").extensions,
		packageExtensions: await packageExtensionsOf(packages.packages),
	};
	return { packages, options, extensions: await loadUserExtensions(options) };
}

/** After trust: the project's packages (trusted folders only), merged with the user's. */
async function projectStage(
	o: SessionServicesOptions,
	cwd: string,
	trust: ProjectTrust,
	settings: SettingsManager,
	user: PackagesLoad,
	warnings: string[],
): Promise<LoadedPackage[]> {
	if (!o.packages) return [];
	const setup = await import("../packages/startup.js");
	const project = trust.trusted
		? await setup.loadRunPackages({
				cwd,
				agentDir: o.agentDir,
				env: o.packages.env,
				npmCommand: settings.get("npmCommand") as string[] | undefined,
				scope: "project",
				entries: settings.getScopeSettings("project").packages,
				userPackages: user.packages,
			})
		: undefined;
	warnings.push(...(project?.warnings ?? []));
	return setup.mergePackages(user, project);
}

async function packageExtensionsOf(packages: readonly LoadedPackage[]) {
	if (packages.length === 0) return undefined;
	return (await import("../packages/startup.js")).packageExtensions(packages);
}

async function packageRoots(packages: readonly LoadedPackage[]) {
	if (packages.length === 0) return undefined;
	return (await import("../packages/startup.js")).packageResourceRoots(packages);
}

/**
 * Fresh instances of the extensions `services` allows (/reload, or after
 * `moveSessionServices`): discovery runs again with the settings as they
 * are now. Nothing is bound; the caller swaps them in when they loaded
 * without errors.
 */
export async function loadSessionExtensions(
	services: Pick<SessionServices, "cwd" | "agentDir" | "trust" | "settings" | "packages">,
	o: Pick<SessionServicesOptions, "extensions" | "packages">,
): Promise<ExtensionSetup> {
	const { cwd, agentDir, trust, settings } = services;
	const setup = o.packages ? await import("../packages/startup.js") : undefined;
	const packageExtensions = await packageExtensionsOf(services.packages);
	const extensionOptions: ExtensionSetupOptions = {
		...o.extensions,
		cliPaths: setup ? setup.splitExtensionArgs(o.extensions?.cliPaths).paths : o.extensions?.cliPaths,
		cwd,
		agentDir,
		projectTrusted: false,
		globalSetting: settings.getScopeSettings("global").extensions,
		packageExtensions: packageExtensions?.filter((p) => p.scope !== "project"),
	};
	return finishExtensions(
		await loadUserExtensions(extensionOptions),
		afterTrust(extensionOptions, trust, settings, packageExtensions),
	);
}

/**
 * Step 3's extension options: the ones before trust, with the project's
 * `extensions` setting when the folder is trusted and every package's
 * extensions (the project's packages included).
 */
function afterTrust(
	before: ExtensionSetupOptions,
	trust: ProjectTrust,
	settings: SettingsManager,
	packageExtensions: ExtensionSetupOptions["packageExtensions"],
): ExtensionSetupOptions {
	return {
		...before,
		projectTrusted: trust.trusted,
		projectSetting: trust.trusted ? settings.getScopeSettings("project").extensions : undefined,
		packageExtensions,
	};
}

/**
 * The services of `services`, moved to another folder (a session switch
 * that enters it): trust is decided again for the new folder (its
 * `project_trust` handlers and the host's question included), the same
 * settings and resource-loader objects are pointed at it (the session holds
 * them), and the extensions are loaded afresh.
 */
export async function moveSessionServices(
	services: SessionServices,
	cwd: string,
	o: SessionServicesOptions,
): Promise<SessionServices> {
	const { agentDir, settings, resources } = services;
	const globalSettings = SettingsManager.create({ cwd, agentDir, loadProject: false });
	const warnings: string[] = [];
	const user = await userStage(o, cwd, globalSettings, warnings);
	const trust = await decideTrust({ ...o, cwd }, globalSettings, user.extensions.extensions);
	// Changes the old folder's scope still owes its file are written before the scope moves.
	await settings.flush();
	settings.setProjectDir(trust.trusted ? cwd : undefined);
	warnings.push(...settings.getWarnings().map((w) => w.message));
	const packages = await projectStage(o, cwd, trust, settings, user.packages, warnings);
	resources.retarget({ cwd, loadProjectResources: trust.trusted, packageRoots: await packageRoots(packages) });
	await resources.reload();
	const extensions = await finishExtensions(
		user.extensions,
		afterTrust(user.options, trust, settings, await packageExtensionsOf(packages)),
	);
	return { cwd, agentDir, trust, packages, settings, resources, extensions, warnings };
}

async function decideTrust(
	o: SessionServicesOptions,
	globalSettings: SettingsManager,
	userExtensions: readonly LoadedExtension[],
): Promise<ProjectTrust> {
	const { cwd, agentDir } = o;
	const defaultProjectTrust = globalSettings.get("defaultProjectTrust");
	let trust = await decideProjectTrust({
		cwd,
		agentDir,
		approve: o.approve,
		defaultProjectTrust,
		askExtensions: userExtensions.some((e) => e.handlers.has("project_trust"))
			? async () => {
					const [{ emitProjectTrust }, { createNoUIContext }] = await Promise.all([
						import("../extensions/trust-event.js"),
						import("../extensions/no-ui.js"),
					]);
					// No session and no screen yet: dialogs answer with their no-UI defaults in every mode.
					const ctx = { cwd, mode: o.mode, hasUI: false, ui: createNoUIContext(o.notify) };
					return emitProjectTrust(userExtensions, ctx, (e) => o.onExtensionError?.(e));
				}
			: undefined,
	});
	const asks = (defaultProjectTrust ?? "ask") === "ask";
	if (o.askTrust && asks && trust.required && trust.source === "default") {
		const { describeProjectResources } = await import("../config/project-resources-summary.js");
		const answer = await o.askTrust({ cwd, resources: describeProjectResources(cwd) });
		if (answer === "always") saveProjectTrust(agentDir, cwd, true);
		trust = { trusted: answer !== "no", required: true, source: answer === "always" ? "saved" : "default" };
	}
	return trust;
}
