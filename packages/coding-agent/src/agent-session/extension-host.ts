// The extension bridge's `pi.*` host: carries out what extensions ask of the
// session (messages, entries, names, tools, model, providers). The runtime
// shared by all extensions is bound to one of these per session.
import type { ImageContent, Model, TextContent } from "@pi/ai";
import type { ExtensionHost } from "../extensions/extension.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type {
	CustomMessageInput,
	InputSource,
	SendMessageOptions,
	SendUserMessageOptions,
	SlashCommandInfo,
} from "../extensions/types.js";
import type { AgentSession } from "./agent-session.js";
import { createProviderRegistrar } from "./extension-providers.js";
import { customMessage, type ExtensionRequestShaper } from "./extension-request.js";
import { createVirtualModelRegistrar, refreshExtensionModels } from "./extension-virtual-models.js";
import { describeTools } from "./tool-loadout.js";

export interface ExtensionHostDeps {
	session: AgentSession;
	runner: ExtensionRunner;
	request: ExtensionRequestShaper;
	/** Keeps track of a run an extension started (print mode waits for them). */
	track(run: Promise<void>): void;
	/** The input path, as a typed prompt takes it. */
	submit(
		text: string,
		options: {
			images?: ImageContent[];
			source?: InputSource;
			streamingBehavior?: "steer" | "followUp";
			commands?: boolean;
			waitForExtensionRuns?: boolean;
		},
	): Promise<void>;
	refreshTools(): void;
	listCommands(): SlashCommandInfo[];
	getOtherCommands?: () => SlashCommandInfo[];
	/** API keys being resolved; the bridge awaits them before session_start. */
	pendingKeys: Promise<void>[];
}

function textOfContent(content: string | { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content
		.filter((c) => c.type === "text")
		.map((c) => c.text ?? "")
		.join("\n");
}

/** Where a message an extension sends goes; what a host and withSession's ctx share. */
export interface MessageSenders {
	/** The run the message started or waits for, if any (undefined: appended or queued at once). */
	sendMessage(input: CustomMessageInput, options: SendMessageOptions): Promise<void> | undefined;
	/** Resolves when the prompt's run ended; throws at once while a run is active without deliverAs. */
	sendUserMessage(content: string | (TextContent | ImageContent)[], options: SendUserMessageOptions): Promise<void>;
}

export function createMessageSenders(d: Pick<ExtensionHostDeps, "session" | "request" | "submit">): MessageSenders {
	const { session } = d;
	return {
		sendMessage: (input, options) => {
			const message = customMessage(input);
			const deliverAs = options.deliverAs ?? "steer";
			if (deliverAs === "nextTurn") {
				d.request.queueNextTurn(message);
				return undefined;
			}
			if (session.isStreaming) {
				if (options.triggerTurn === false)
					return session.agent.waitForIdle().then(() => session.appendMessage(message));
				if (deliverAs === "followUp") session.agent.followUp(message);
				else session.agent.steer(message);
				return undefined;
			}
			if (options.triggerTurn) return session.promptMessages([message]);
			session.appendMessage(message);
			return undefined;
		},
		sendUserMessage: (content, options) => {
			const text = textOfContent(content as string | { type: string; text?: string }[]);
			const images =
				typeof content === "string" ? undefined : (content.filter((c) => c.type === "image") as ImageContent[]);
			const send = () =>
				d.submit(text, {
					images,
					source: "extension",
					streamingBehavior: options.deliverAs,
					commands: options.expandPromptTemplates === true,
					waitForExtensionRuns: false,
				});
			if (session.isStreaming && !options.deliverAs) {
				// From an agent_settled handler the run is over: the message starts the next run once the handlers
				// have returned (as 1.6.0 does; the reload-runtime example relies on it).
				if (session.recovery.isAnnouncingSettled) return session.recovery.whenSettled().then(send);
				// A run in progress takes the message only as a steer or follow-up.
				throw new Error('pi.sendUserMessage() while a run is active needs deliverAs: "steer" or "followUp"');
			}
			return send();
		},
	};
}

export function createExtensionHost(d: ExtensionHostDeps): ExtensionHost {
	const { session, runner } = d;
	const registry = session.modelRegistry;
	const providers = createProviderRegistrar({
		registry,
		reportError: (error) => runner.emitError(error),
		pendingKeys: d.pendingKeys,
		scope: runner.runtime,
	});
	const senders = createMessageSenders(d);
	return {
		sendMessage: (input: CustomMessageInput, options: SendMessageOptions) => {
			const run = senders.sendMessage(input, options);
			if (run) d.track(run);
		},
		sendUserMessage: (content, options: SendUserMessageOptions) => {
			d.track(senders.sendUserMessage(content, options));
		},
		appendEntry: (customType, data) => session.appendCustomEntry(customType, data),
		setSessionName: (name) => session.setSessionName(name),
		getSessionName: () => session.sessionManager.getSessionName(),
		setLabel: (entryId, label) => {
			session.sessionManager.appendLabelChange(entryId, label);
		},
		getActiveTools: () => session.getActiveToolNames(),
		getAllTools: () => describeTools(session, runner),
		setActiveTools: (names) => {
			const hidden = new Set(
				runner
					.getTools()
					.filter((t) => t.definition.exposure === "hidden")
					.map((t) => t.definition.name),
			);
			session.setActiveToolsByName(names.filter((n) => !hidden.has(n)));
		},
		refreshTools: () => d.refreshTools(),
		getCommands: () => [...d.listCommands(), ...(d.getOtherCommands?.() ?? [])],
		getSettings: () => structuredClone(session.settings.getSettings()) as Record<string, unknown>,
		setModel: async (model: Model) => {
			if (!registry.hasAuth(model)) return false;
			session.setModel(model);
			return true;
		},
		getThinkingLevel: () => session.thinkingLevel,
		setThinkingLevel: (level) => {
			session.setThinkingLevel(level);
		},
		registerProvider: (name, config, extensionPath) => {
			providers.register(name, config, extensionPath);
			// Registered after start-up (a command, a handler): a dynamic provider lists its models now.
			if (config.refreshModels) {
				void refreshExtensionModels(registry, [name], (e) => runner.emitError({ ...e, extensionPath }));
			}
		},
		unregisterProvider: (name) => providers.unregister(name),
		...createVirtualModelRegistrar(registry, runner),
	};
}
