// The functions of upstream pi-ai 1.6.0's legacy surface (`@earendil-works/pi-ai`
// and `/compat`) that extensions written for Pi call, as real functions over
// our pi-ai: the api-dispatching `stream`/`streamSimple`, the api registry
// (`registerApiProvider`), the per-api stream objects a custom provider
// delegates to (`anthropicMessagesApi()`, …), tool-call validation and the
// transcript helpers of custom streams. pi-ai itself knows nothing of this
// view; host-modules.ts merges it into the modules extensions import.
import { validateArguments } from "@pi/agent-core/validation";
import {
	type Api,
	type ApiAdapter,
	type AssistantMessageEventStream,
	apiLoader,
	type Context,
	complete,
	hasApi,
	IncrementalJsonParser,
	type Message,
	type Model,
	registerApi,
	replaySystemState,
	type StreamOptions,
	type SystemMessage,
	stream,
	type Tool,
	type ToolCall,
	unregisterApi,
} from "@pi/ai";
import { extensionStreamAdapter } from "./stream-adapter.js";

/** What a custom stream function takes: the model, the transcript (system messages in it), the options. */
export type CompatStreamFunction = (
	model: Model,
	context: Context,
	options?: StreamOptions,
) => AssistantMessageEventStream;

/** Upstream's `ProviderStreams`: one api's implementation (`stream` with its own options, `streamSimple`). */
export interface CompatProviderStreams {
	stream: CompatStreamFunction;
	streamSimple: CompatStreamFunction;
}

/** Upstream's `ApiProvider`: an implementation registered for an api name. */
export interface CompatApiProvider extends Partial<CompatProviderStreams> {
	api: Api;
}

/**
 * A stream through whichever adapter is registered for `api`, whatever the
 * model says: a custom provider hands a model of its own api to a built-in
 * implementation (`anthropicMessagesApi().streamSimple(model, …)`).
 */
function streamAs(api: Api): CompatStreamFunction {
	return (model, context, options) => stream({ ...model, api }, context, options);
}

function providerStreams(api: Api): () => CompatProviderStreams {
	return () => ({ stream: streamAs(api), streamSimple: streamAs(api) });
}

/** The built-in apis as upstream names their stream objects and their legacy stream functions. */
const BUILTIN_APIS: [objectName: string, legacySuffix: string, api: Api][] = [
	["anthropicMessagesApi", "Anthropic", "anthropic-messages"],
	["azureOpenAIResponsesApi", "AzureOpenAIResponses", "azure-openai-responses"],
	["bedrockConverseStreamApi", "", "bedrock-converse-stream"],
	["googleGenerativeAIApi", "Google", "google-generative-ai"],
	["googleVertexApi", "GoogleVertex", "google-vertex"],
	["mistralConversationsApi", "Mistral", "mistral-conversations"],
	["openAICodexResponsesApi", "OpenAICodexResponses", "openai-codex-responses"],
	["openAICompletionsApi", "OpenAICompletions", "openai-completions"],
	["openAIResponsesApi", "OpenAIResponses", "openai-responses"],
];

/** Loaders an api had before `registerApiProvider` replaced it, by source id, so unregistering puts them back. */
const replaced = new Map<string, Map<Api, ReturnType<typeof apiLoader>>>();

/**
 * Registers `provider` as the implementation of its api (replacing a
 * built-in one until `unregisterApiProviders(sourceId)`). Its `streamSimple`
 * (else `stream`) answers every request for that api; a throw or a stream
 * without a terminal event becomes an error reply, as for registerProvider.
 */
export function registerApiProvider(provider: CompatApiProvider, sourceId = "extension"): void {
	const impl = provider.streamSimple ?? provider.stream;
	if (typeof provider.api !== "string" || provider.api === "") {
		throw new Error("registerApiProvider: the provider needs an api name");
	}
	if (typeof impl !== "function") {
		throw new Error(`registerApiProvider: api "${provider.api}" needs a streamSimple or stream function`);
	}
	let previous = replaced.get(sourceId);
	if (!previous) replaced.set(sourceId, (previous = new Map()));
	if (!previous.has(provider.api)) previous.set(provider.api, apiLoader(provider.api));
	const adapter: ApiAdapter = extensionStreamAdapter(
		(model, context, options) => impl.call(provider, model, context, options),
		`registerApiProvider "${provider.api}" (${sourceId})`,
	);
	registerApi(provider.api, async () => adapter);
}

/** Removes the apis `sourceId` registered; a built-in one it replaced comes back. */
export function unregisterApiProviders(sourceId: string): void {
	const previous = replaced.get(sourceId);
	if (!previous) return;
	replaced.delete(sourceId);
	for (const [api, loader] of previous) {
		if (loader) registerApi(api, loader);
		else unregisterApi(api);
	}
}

/** The implementation registered for `api` (built-in or not), as stream functions; undefined when none is. */
export function getApiProvider(api: Api): (CompatProviderStreams & { api: Api }) | undefined {
	return hasApi(api) ? { api, ...providerStreams(api)() } : undefined;
}

/**
 * Finds the tool a call names and checks (and safely coerces) its arguments
 * against the tool's schema, with the loop's own validator. Returns the
 * arguments; throws naming the tool and each failing field.
 */
export function validateToolCall(tools: readonly Tool[], toolCall: ToolCall): Record<string, unknown> {
	const tool = tools.find((t) => t.name === toolCall.name);
	if (!tool) throw new Error(`Tool "${toolCall.name}" not found`);
	return validateToolArguments(tool, toolCall);
}

export function validateToolArguments(tool: Tool, toolCall: ToolCall): Record<string, unknown> {
	const result = validateArguments(tool.name, tool.parameters as object, toolCall.arguments);
	if (!result.ok) throw new Error(result.message);
	return result.value as Record<string, unknown>;
}

/**
 * The transcript for an api with one top-level prompt: every system message
 * replayed into one leading message (current prompt and tools), the later
 * ones dropped. A transcript without system messages is returned as is.
 */
export function collapseSystemMessages(context: { messages: Message[] }): { messages: Message[] } {
	const systems = context.messages.filter((m): m is SystemMessage => m.role === "system");
	if (systems.length === 0) return context;
	const state = replaySystemState(context.messages);
	const leading: SystemMessage = { role: "system", content: state.systemPrompt, timestamp: systems[0].timestamp };
	if (state.tools.length > 0) leading.toolsAdded = state.tools;
	return { messages: [leading, ...context.messages.filter((m) => m.role !== "system")] };
}

/**
 * The arguments of one streaming tool call: the raw text for the one full
 * parse at the end, and the arguments parsed so far in between (pi-ai's
 * incremental parser, so a long call stays linear).
 */
export class ToolCallArgumentsStream {
	#text = "";
	#parser = new IncrementalJsonParser();

	/** The raw argument text received so far. */
	get text(): string {
		return this.#text;
	}

	/** Appends a piece of argument text; returns the arguments so far (a new object, shallow: nested ones keep filling). */
	append(delta: string): Record<string, unknown> {
		this.#text += delta;
		this.#parser.feed(delta);
		return { ...this.#parser.value };
	}

	/** Takes the provider's complete text: the missing piece when it continues what came so far, else a restart. */
	replace(text: string): { delta: string | undefined; arguments: Record<string, unknown> } {
		if (text.startsWith(this.#text)) {
			const delta = text.slice(this.#text.length);
			return { delta: delta === "" ? undefined : delta, arguments: this.append(delta) };
		}
		this.#text = "";
		this.#parser = new IncrementalJsonParser();
		return { delta: undefined, arguments: this.append(text) };
	}

	/** The final arguments from one full parse; malformed text keeps the best partial value and says why. */
	finish(): { arguments: Record<string, unknown>; argumentsError?: string } {
		if (this.#text.trim() === "") return { arguments: {} };
		try {
			const value: unknown = JSON.parse(this.#text);
			if (value !== null && typeof value === "object" && !Array.isArray(value)) {
				return { arguments: value as Record<string, unknown> };
			}
			return { arguments: {}, argumentsError: "Tool call arguments are not a JSON object" };
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			return { arguments: { ...this.#parser.value }, argumentsError: `Malformed tool call arguments: ${reason}` };
		}
	}
}

/** Everything above plus the per-api stream objects, as the names extensions import. */
export function aiCompatFunctions(): Record<string, unknown> {
	const view: Record<string, unknown> = {
		stream,
		streamSimple: stream,
		complete,
		completeSimple: complete,
		registerApiProvider,
		unregisterApiProviders,
		getApiProvider,
		validateToolCall,
		validateToolArguments,
		collapseSystemMessages,
		ToolCallArgumentsStream,
	};
	for (const [objectName, legacySuffix, api] of BUILTIN_APIS) {
		view[objectName] = providerStreams(api);
		if (legacySuffix) {
			view[`stream${legacySuffix}`] = streamAs(api);
			view[`streamSimple${legacySuffix}`] = streamAs(api);
		}
	}
	return view;
}
