// Builds the `pi` object one extension's factory receives. Registrations
// (handlers, tools, commands, flags, shortcuts, renderers) go into the
// extension's own record; actions on the session go through the runtime's
// host, which exists only once the session is bound.

import { validateVirtualModel } from "../config/virtual-models.js";
import { EXTENSION_EVENT_NAMES, type ExtensionEventName } from "./events.js";
import { execCommand } from "./exec.js";
import type { ExtensionRuntime, LoadedExtension } from "./extension.js";
import { checkMcpServerConfig, isValidMcpServerName, mcpServerKey } from "./mcp-servers.js";
import { checkProviderConfig, providerFromDefinition } from "./provider-shape.js";
import {
	type AnyToolDefinition,
	EXTENSION_API_VERSION,
	type ExtensionAPI,
	type ExtensionFlagOptions,
	type ExtensionVirtualModel,
	type MarkdownMessageType,
	type ProviderConfig,
	type ProviderDefinition,
} from "./types.js";

const DEFAULT_MARKDOWN_TYPES: readonly MarkdownMessageType[] = ["user", "assistant", "assistant-thinking"];
const KNOWN_EVENTS = new Set<string>(EXTENSION_EVENT_NAMES);

export interface CreateApiOptions {
	/** Working directory for `pi.exec` (the session's cwd). */
	cwd: string;
}

export function createExtensionAPI(
	ext: LoadedExtension,
	runtime: ExtensionRuntime,
	options: CreateApiOptions,
): ExtensionAPI {
	const on = (event: string, handler: (...args: unknown[]) => unknown): (() => void) => {
		if (!KNOWN_EVENTS.has(event)) throw new Error(`Unknown event "${event}" (pi.on in ${ext.path})`);
		if (typeof handler !== "function") throw new Error(`pi.on("${event}") needs a handler function (${ext.path})`);
		const name = event as ExtensionEventName;
		ext.handlers.set(name, [...(ext.handlers.get(name) ?? []), handler]);
		return () => {
			ext.handlers.set(
				name,
				(ext.handlers.get(name) ?? []).filter((h) => h !== handler),
			);
		};
	};

	const api: ExtensionAPI = {
		on: on as ExtensionAPI["on"],
		apiVersion: EXTENSION_API_VERSION,
		events: runtime.events,

		registerTool(tool) {
			const definition = tool as unknown as AnyToolDefinition;
			if (!definition || typeof definition.name !== "string" || typeof definition.execute !== "function") {
				throw new Error(`pi.registerTool() needs a name and an execute function (${ext.path})`);
			}
			ext.tools.set(definition.name, { definition, sourceInfo: ext.sourceInfo });
			runtime.host?.refreshTools();
		},
		registerCommand(name, command) {
			if (typeof command?.handler !== "function") {
				throw new Error(`pi.registerCommand("${name}") needs a handler function (${ext.path})`);
			}
			ext.commands.set(name, { ...command, name, sourceInfo: ext.sourceInfo });
		},
		registerShortcut(shortcut, o) {
			ext.shortcuts.set(shortcut, {
				shortcut,
				description: o.description,
				handler: o.handler,
				extensionPath: ext.path,
			});
		},
		registerFlag(name, o: ExtensionFlagOptions) {
			ext.flags.set(name, {
				name,
				description: o.description,
				type: o.type,
				default: o.default,
				extensionPath: ext.path,
			});
			if (o.default !== undefined && !runtime.flagValues.has(name)) runtime.flagValues.set(name, o.default);
		},
		getFlag(name) {
			return runtime.flagValues.get(name);
		},
		registerMessageRenderer(customType, renderer) {
			ext.messageRenderers.set(customType, renderer as never);
		},
		registerEntryRenderer(customType, renderer) {
			ext.entryRenderers.set(customType, renderer as never);
		},
		registerToolRenderer(resolver) {
			ext.toolRenderers.push(resolver);
		},
		registerMarkdownTransformer(transformer, o) {
			ext.markdownTransformer = { transformer, messageTypes: new Set(o?.messageTypes ?? DEFAULT_MARKDOWN_TYPES) };
		},

		sendMessage(message, o = {}) {
			runtime.requireHost("sendMessage").sendMessage(message, o);
		},
		sendUserMessage(content, o = {}) {
			runtime.requireHost("sendUserMessage").sendUserMessage(content, o);
		},
		appendEntry(customType, data) {
			runtime.requireHost("appendEntry").appendEntry(customType, data);
		},
		setSessionName(name) {
			runtime.requireHost("setSessionName").setSessionName(name);
		},
		getSessionName() {
			return runtime.requireHost("getSessionName").getSessionName();
		},
		setLabel(entryId, label) {
			runtime.requireHost("setLabel").setLabel(entryId, label);
		},
		exec(command, args, o) {
			return execCommand(command, args, options.cwd, o);
		},
		getActiveTools() {
			return runtime.requireHost("getActiveTools").getActiveTools();
		},
		getAllTools() {
			return runtime.requireHost("getAllTools").getAllTools();
		},
		getSettings() {
			return runtime.requireHost("getSettings").getSettings();
		},
		setActiveTools(names) {
			runtime.requireHost("setActiveTools").setActiveTools(names);
		},
		getCommands() {
			return runtime.requireHost("getCommands").getCommands();
		},
		setModel(model) {
			try {
				return runtime.requireHost("setModel").setModel(model);
			} catch (error) {
				return Promise.reject(error);
			}
		},
		getThinkingLevel() {
			return runtime.requireHost("getThinkingLevel").getThinkingLevel();
		},
		setThinkingLevel(level) {
			runtime.requireHost("setThinkingLevel").setThinkingLevel(level);
		},
		registerProvider(nameOrProvider: string | ProviderDefinition, maybeConfig?: ProviderConfig) {
			const [name, config] =
				typeof nameOrProvider === "string"
					? [nameOrProvider, checkProviderConfig(maybeConfig, nameOrProvider, ext.path)]
					: providerFromDefinition(nameOrProvider, ext.path);
			if (runtime.host) runtime.host.registerProvider(name, config, ext.path);
			else runtime.pendingProviders.push({ name, config, extensionPath: ext.path });
		},
		unregisterProvider(name) {
			if (runtime.host) runtime.host.unregisterProvider(name, ext.path);
			else runtime.pendingProviders.push({ name, config: undefined, extensionPath: ext.path });
		},
		registerMcpServer(name, config) {
			runtime.assertActive();
			registerMcpServer(runtime, ext.path, name, config);
		},
		unregisterMcpServer(name) {
			runtime.assertActive();
			runtime.mcpServers.unregister(name, ext.path);
		},
		getMcpServers() {
			runtime.assertActive();
			return runtime.mcpServers.list();
		},
		registerVirtualModel(model) {
			const checked = validateVirtualModel(model, ext.path) as unknown as ExtensionVirtualModel;
			if (runtime.host) runtime.host.registerVirtualModel(checked, ext.path);
			else runtime.pendingVirtualModels.push({ model: checked, extensionPath: ext.path });
		},
		unregisterVirtualModel(provider, id) {
			if (runtime.host) runtime.host.unregisterVirtualModel(provider, id, ext.path);
			else runtime.pendingVirtualModels.push({ provider, id, extensionPath: ext.path });
		},
	};
	return api;
}

/**
 * `pi.registerMcpServer`: the name and config are checked before anything
 * changes; a name is one extension's (another's registration of it, or of a
 * name differing only in `-`/`_`, is refused); the same extension registering
 * it again replaces its registration.
 */
function registerMcpServer(runtime: ExtensionRuntime, extensionPath: string, name: unknown, config: unknown): void {
	const where = `pi.registerMcpServer(${JSON.stringify(name)}) in ${extensionPath}`;
	if (!isValidMcpServerName(name)) {
		throw new Error(`${where}: the name must be letters, digits, "_" and "-" (at least one)`);
	}
	let checked: ReturnType<typeof checkMcpServerConfig>;
	try {
		checked = checkMcpServerConfig(config);
	} catch (error) {
		throw new Error(`${where}: invalid config: ${(error as Error).message}`);
	}
	for (const other of runtime.mcpServers.list()) {
		if (other.name === name) {
			if (other.extensionPath !== extensionPath) {
				throw new Error(`${where}: MCP server "${name}" is already registered by ${other.extensionPath}`);
			}
		} else if (mcpServerKey(other.name) === mcpServerKey(name)) {
			throw new Error(
				`${where}: conflicts with MCP server "${other.name}" registered by ${other.extensionPath} (names differing only in "-" and "_" are the same server)`,
			);
		}
	}
	runtime.mcpServers.register({ name, config: checked, extensionPath });
}
