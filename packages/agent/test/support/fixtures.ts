// Small builders shared by tests: a model, tools, messages and an event recorder.
import type { Model, UserMessage } from "@pi/ai";
import { type Static, type TSchema, Type } from "typebox";
import type { AgentEvent, AgentTool, AgentToolResult, AgentToolUpdateCallback } from "../../src/types.js";

export function testModel(overrides: Partial<Model> = {}): Model {
	return {
		id: "scripted-1",
		name: "Scripted Model",
		api: "scripted",
		provider: "scripted",
		baseUrl: "http://127.0.0.1:0",
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 16_384,
		...overrides,
	};
}

export function user(text: string, timestamp = 1): UserMessage {
	return { role: "user", content: text, timestamp };
}

export function textResult(text: string, details: unknown = {}): AgentToolResult {
	return { content: [{ type: "text", text }], details };
}

/** A tool built from a schema and an execute function (label and description default to the name). */
export function defineTool<T extends TSchema>(
	name: string,
	parameters: T,
	execute: (
		params: Static<T>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback | undefined,
		toolCallId: string,
	) => Promise<AgentToolResult> | AgentToolResult,
	extra: Partial<AgentTool<T>> = {},
): AgentTool<T> {
	return {
		name,
		label: name,
		description: `The ${name} tool`,
		parameters,
		execute: async (toolCallId, params, signal, onUpdate) => execute(params, signal, onUpdate, toolCallId),
		...extra,
	};
}

/** Echoes its `text` argument; records the arguments it was called with. */
export function echoTool(calls: unknown[] = []): AgentTool {
	return defineTool("echo", Type.Object({ text: Type.String() }), (params) => {
		calls.push(params);
		return textResult(`echo: ${params.text}`);
	});
}

export interface Deferred<T = void> {
	promise: Promise<T>;
	resolve(value: T): void;
	reject(error: unknown): void;
}

/** A promise with its resolve/reject handles. */
export function deferred<T = void>(): Deferred<T> {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

/** One short line per event, for asserting exact order. */
export function describeEvent(event: AgentEvent): string {
	switch (event.type) {
		case "message_start":
		case "message_end":
		case "message_update": {
			const message = event.message as { role?: string; content?: unknown };
			const suffix = event.type === "message_update" ? `:${event.assistantMessageEvent.type}` : "";
			return `${event.type}:${message.role}${suffix}`;
		}
		case "tool_execution_start":
		case "tool_execution_update":
			return `${event.type}:${event.toolCallId}`;
		case "tool_execution_end":
			return `${event.type}:${event.toolCallId}${event.isError ? ":error" : ""}`;
		default:
			return event.type;
	}
}

/** Event lines without the streaming noise of message_update. */
export function outline(events: AgentEvent[]): string[] {
	return events.filter((e) => e.type !== "message_update").map(describeEvent);
}

/** The transcript as `role: text` lines (tool calls as `name(args)`, tool results as `id => text`). */
export function transcript(messages: readonly unknown[]): string[] {
	return messages.map((m) => {
		const message = m as {
			role: string;
			content: unknown;
			toolCallId?: string;
			isError?: boolean;
			stopReason?: string;
		};
		const parts =
			typeof message.content === "string"
				? [message.content]
				: (
						message.content as { type: string; text?: string; thinking?: string; name?: string; arguments?: unknown }[]
					).map((b) =>
						b.type === "text"
							? b.text
							: b.type === "thinking"
								? `<thinking>${b.thinking}</thinking>`
								: b.type === "toolCall"
									? `${b.name}(${JSON.stringify(b.arguments)})`
									: `[${b.type}]`,
					);
		const body = parts.join(" ");
		if (message.role === "toolResult")
			return `toolResult ${message.toolCallId}${message.isError ? " (error)" : ""}: ${body}`;
		if (message.role === "assistant" && message.stopReason !== "stop" && message.stopReason !== "toolUse")
			return `assistant [${message.stopReason}]: ${body}`;
		return `${message.role}: ${body}`;
	});
}
