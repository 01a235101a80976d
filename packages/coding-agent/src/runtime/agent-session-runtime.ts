// AgentSessionRuntime: the composition root the CLI and the SDK share. It
// owns one AgentSession and the services bound to its folder (settings,
// resource loader, extensions and their bridge, the trust decision), and
// keeps them in step with it:
//   - every switch (/new, /resume, /fork, /clone, /import; RPC; ctx.*)
//     replaces the extensions (session_shutdown, a fresh set, session_start
//     with the switch's reason and previous file), as 1.6.0 does; one that
//     enters another folder first decides trust for that folder again
//     (project_trust and the host's question), points settings and resources
//     at it and moves the session's tools there;
//   - reload() reads settings, resources and extensions again (/reload,
//     ctx.reload()); extensions that fail to load leave the running ones in
//     place and come back as errors naming the file and line.
// Unlike 1.6.0 the AgentSession object itself stays (it moves in place, see
// session-switch.ts), so hosts keep their reference; what they rebind after
// a change is the extension bridge (onExtensionsChanged).

import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { AgentTool } from "@pi/agent-core";
import type { AgentSession } from "../agent-session/agent-session.js";
import type { ExtensionBridge, ExtensionBridgeOptions } from "../agent-session/extension-bridge.js";
import type { SessionSwitchEvent } from "../agent-session/session-switch.js";
import type { LoadError } from "../extensions/loader.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type { ExtensionError } from "../extensions/types.js";
import { createAllTools } from "../tools/index.js";
import type { ExtensionSetup } from "./extension-setup.js";
import {
	loadSessionExtensions,
	moveSessionServices,
	type SessionServices,
	type SessionServicesOptions,
} from "./services.js";

// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live side by side
type AnyTool = AgentTool<any>;

/** How the host wants each extension bridge built (everything but the session, runner and trust). */
export type BridgeSettings = Omit<
	ExtensionBridgeOptions,
	"session" | "runner" | "projectTrusted" | "onReloadRequest" | "addResourcePaths" | "currentBridge"
>;

export interface AgentSessionRuntimeOptions {
	session: AgentSession;
	services: SessionServices;
	/** How services are built again for another folder (and which extensions reload). */
	servicesOptions: SessionServicesOptions;
	bridge: BridgeSettings;
	/** Handler errors of every runner this runtime creates. */
	onExtensionError?: (error: ExtensionError) => void;
	/** Warnings those runners raise after loading (a late tool replacing a built-in extension). */
	onExtensionWarning?: (message: string) => void;
}

export interface ReloadResult {
	/** False: extensions failed to load; the previous ones still run. */
	ok: boolean;
	/** One message per file that failed ("Extension <file>:<line>: …"). */
	errors: string[];
	/** Discovery notes, registration conflicts, settings and resource problems. */
	warnings: string[];
}

/** The runner and bridge now in charge (after start-up, a reload, or a change of folder). */
export interface ExtensionsChange {
	reason: "reload" | "new" | "resume" | "fork";
	bridge: ExtensionBridge | undefined;
	runner: ExtensionRunner | undefined;
	/** Load errors and warnings of the new set (the app shows them). */
	problems: string[];
}

export class AgentSessionRuntime {
	readonly session: AgentSession;
	private _services: SessionServices;
	private _bridge: ExtensionBridge | undefined;
	private readonly listeners = new Set<(change: ExtensionsChange) => void | Promise<void>>();
	private reloading: Promise<ReloadResult> | undefined;
	private servicesOptions: SessionServicesOptions;

	private constructor(private readonly o: AgentSessionRuntimeOptions) {
		this.session = o.session;
		this._services = o.services;
		this.servicesOptions = o.servicesOptions;
	}

	/** The runtime over a session made from `services`; its extensions are bound, not started. */
	static async create(o: AgentSessionRuntimeOptions): Promise<AgentSessionRuntime> {
		const runtime = new AgentSessionRuntime(o);
		runtime._bridge = await runtime.makeBridge(o.services.extensions.runner);
		o.session.setSwitchObserver((event) => runtime.afterSwitch(event));
		return runtime;
	}

	get services(): SessionServices {
		return this._services;
	}

	get cwd(): string {
		return this._services.cwd;
	}

	/** The extension bridge in charge now (undefined: no extension loaded). */
	get bridge(): ExtensionBridge | undefined {
		return this._bridge;
	}

	get runner(): ExtensionRunner | undefined {
		return this._services.extensions.runner;
	}

	/** Hosts rebind their extension UI, commands and renderers here; returns an unsubscribe. */
	onExtensionsChanged(listener: (change: ExtensionsChange) => void | Promise<void>): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/**
	 * Reads settings, resources (skills, templates, themes, context files)
	 * and extensions again. The new extensions load first; when one fails the
	 * running ones stay and nothing is emitted. Otherwise: session_shutdown
	 * ("reload") for the old instances, then session_start and
	 * resources_discover ("reload") for the new ones. Not while a run is active.
	 */
	reload(): Promise<ReloadResult> {
		this.reloading ??= this.doReload().finally(() => {
			this.reloading = undefined;
		});
		return this.reloading;
	}

	private async doReload(): Promise<ReloadResult> {
		if (this.session.isStreaming) {
			return {
				ok: false,
				errors: ["Cannot reload while the agent is working; wait for it or press Esc."],
				warnings: [],
			};
		}
		const services = this._services;
		services.settings.reload();
		const extensions = await loadSessionExtensions(services, this.servicesOptions);
		const warnings = [...services.settings.getWarnings().map((w) => w.message), ...extensions.warnings];
		if (extensions.errors.length > 0) {
			return { ok: false, errors: extensions.errors.map(describeLoadError), warnings };
		}
		services.resources.clearExtraPaths();
		await services.resources.reload();
		warnings.push(...services.resources.getDiagnostics());
		await this.replaceExtensions(extensions, "reload", { ...services, extensions });
		return { ok: true, errors: [], warnings };
	}

	/**
	 * After an in-place switch the extensions start over, as in 1.6.0: the old
	 * instances get session_shutdown, a fresh set loads, and it gets
	 * session_start with the switch's reason and previous file. A session of
	 * another folder also brings that folder's services (trust, settings,
	 * resources, tools).
	 */
	private async afterSwitch(event: SessionSwitchEvent): Promise<void> {
		const start = { previousSessionFile: event.previousSessionFile, alreadyShutDown: true };
		const target = this.session.sessionManager.getCwd();
		const { existsSync } = await import("node:fs");
		// A session whose folder is gone stays where pi runs (its file is still readable).
		const moves = target !== undefined && !samePath(target, this._services.cwd) && existsSync(target);
		await this._bridge?.shutdown(event.reason);
		if (!moves) {
			const extensions = await loadSessionExtensions(this._services, this.servicesOptions);
			await this.replaceExtensions(extensions, event.reason, { ...this._services, extensions }, start);
			return;
		}
		const moved = await moveSessionServices(this._services, target, { ...this.servicesOptions, cwd: target });
		const settings = moved.settings;
		this.session.moveTo(
			target,
			Object.values(
				createAllTools(target, {
					bash: { shellPath: settings.getShellPath(), commandPrefix: settings.getShellCommandPrefix() },
				}),
			) as AnyTool[],
		);
		this.servicesOptions = { ...this.servicesOptions, cwd: target };
		await this.replaceExtensions(moved.extensions, event.reason, moved, start);
	}

	private async replaceExtensions(
		extensions: ExtensionSetup,
		reason: ExtensionsChange["reason"],
		services: SessionServices,
		options: { alreadyShutDown?: boolean; previousSessionFile?: string } = {},
	): Promise<void> {
		const before = this._bridge;
		if (!options.alreadyShutDown) await before?.shutdown(reason);
		// Tools only the old instances registered leave with them.
		const kept = new Set((extensions.runner?.getTools() ?? []).map((t) => t.definition.name));
		const gone = (before?.registeredToolNames() ?? []).filter((n) => !kept.has(n));
		if (gone.length > 0) this.session.removeTools(gone);
		this._services = services;
		this._bridge = await this.makeBridge(extensions.runner);
		const problems = [...extensions.warnings, ...extensions.errors.map((e) => `Error: ${e.message}`)];
		for (const listener of this.listeners)
			await listener({ reason, bridge: this._bridge, runner: extensions.runner, problems });
		await this._bridge?.start(reason, options.previousSessionFile);
	}

	private async makeBridge(runner: ExtensionRunner | undefined): Promise<ExtensionBridge | undefined> {
		if (!runner) return undefined;
		const { ExtensionBridge } = await import("../agent-session/extension-bridge.js");
		if (this.o.onExtensionError) runner.onError((e) => this.o.onExtensionError?.(e));
		if (this.o.onExtensionWarning) runner.onWarning((w) => this.o.onExtensionWarning?.(w));
		return new ExtensionBridge({
			...this.o.bridge,
			session: this.session,
			runner,
			projectTrusted: this._services.trust.trusted,
			addResourcePaths: (paths) => this._services.resources.addExtraPaths(paths),
			onReloadRequest: () => this.reload(),
			currentBridge: () => this._bridge,
		});
	}

	/** session_shutdown ("quit") for the extensions, then the session lets go of its file. */
	async dispose(): Promise<void> {
		await this._bridge?.shutdown("quit");
		this.session.setSwitchObserver(undefined);
		this.session.dispose();
		await this._services.settings.flush();
	}
}

function describeLoadError(e: LoadError): string {
	return e.message;
}

/** One folder reached by two spellings (a symlink, `..`) is the same folder. */
function samePath(a: string, b: string): boolean {
	return canonicalPath(a) === canonicalPath(b);
}

function canonicalPath(path: string): string {
	const abs = resolve(path);
	try {
		return realpathSync(abs);
	} catch {
		return abs;
	}
}
