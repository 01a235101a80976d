// Reading one stdin record as a command: JSON, an object, a known `type`, and
// every field present with the right type. Anything else becomes an error
// naming the problem (the field, what was expected, what came), so a client
// learns what to fix and the process keeps serving.
import type { RpcCommand, RpcCommandType, RpcExtensionUIResponse } from "./rpc-types.js";

type FieldKind =
	| { kind: "string" }
	| { kind: "boolean" }
	| { kind: "enum"; values: readonly string[] }
	| { kind: "images" };

interface FieldSpec {
	name: string;
	optional?: boolean;
	type: FieldKind;
}

const str = (name: string, optional = false): FieldSpec => ({ name, optional, type: { kind: "string" } });
const bool = (name: string, optional = false): FieldSpec => ({ name, optional, type: { kind: "boolean" } });
const oneOf = (name: string, values: readonly string[], optional = false): FieldSpec => ({
	name,
	optional,
	type: { kind: "enum", values },
});
const images: FieldSpec = { name: "images", optional: true, type: { kind: "images" } };
const QUEUE_MODES = ["all", "one-at-a-time"] as const;
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

/** Every command and its fields (besides `type` and the optional `id`). */
export const COMMAND_FIELDS: Record<RpcCommandType, FieldSpec[]> = {
	prompt: [str("message"), images, oneOf("streamingBehavior", ["steer", "followUp"], true)],
	steer: [str("message"), images],
	follow_up: [str("message"), images],
	abort: [],
	clear_queue: [],
	new_session: [str("parentSession", true)],
	get_state: [],
	set_model: [str("provider"), str("modelId")],
	cycle_model: [],
	get_available_models: [],
	set_thinking_level: [oneOf("level", THINKING_LEVELS)],
	cycle_thinking_level: [],
	get_available_thinking_levels: [],
	set_steering_mode: [oneOf("mode", QUEUE_MODES)],
	set_follow_up_mode: [oneOf("mode", QUEUE_MODES)],
	compact: [str("customInstructions", true)],
	set_auto_compaction: [bool("enabled")],
	set_auto_retry: [bool("enabled")],
	abort_retry: [],
	bash: [str("command"), bool("excludeFromContext", true)],
	abort_bash: [],
	get_session_stats: [],
	export_html: [str("outputPath", true)],
	switch_session: [str("sessionPath")],
	fork: [str("entryId")],
	clone: [],
	get_fork_messages: [],
	get_entries: [str("since", true)],
	get_tree: [],
	get_last_assistant_text: [],
	set_session_name: [str("name")],
	get_messages: [],
	get_commands: [],
};

export type ParsedRecord =
	| { kind: "command"; command: RpcCommand }
	| { kind: "ui_response"; response: RpcExtensionUIResponse }
	/** `command` is the command's type when it is known, else "parse"; `id` when the line had a string id. */
	| { kind: "error"; command: string; id?: string; error: string };

function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (typeof value === "string") return "a string";
	return `${typeof value === "object" ? "an" : "a"} ${typeof value}`;
}

function checkImages(value: unknown): string | undefined {
	if (!Array.isArray(value)) return `must be an array of images, got ${describe(value)}`;
	for (let i = 0; i < value.length; i++) {
		const img = value[i] as Record<string, unknown> | null;
		if (typeof img !== "object" || img === null || Array.isArray(img)) {
			return `[${i}] must be an object {type:"image", data, mimeType}, got ${describe(img)}`;
		}
		if (img.type !== "image") return `[${i}].type must be "image"`;
		if (typeof img.data !== "string") return `[${i}].data must be a base64 string, got ${describe(img.data)}`;
		if (typeof img.mimeType !== "string") return `[${i}].mimeType must be a string, got ${describe(img.mimeType)}`;
	}
	return undefined;
}

function checkField(spec: FieldSpec, value: unknown): string | undefined {
	switch (spec.type.kind) {
		case "string":
			return typeof value === "string" ? undefined : `must be a string, got ${describe(value)}`;
		case "boolean":
			return typeof value === "boolean" ? undefined : `must be a boolean, got ${describe(value)}`;
		case "enum": {
			const values = spec.type.values;
			return typeof value === "string" && values.includes(value)
				? undefined
				: `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value) ?? "undefined"}`;
		}
		case "images":
			return checkImages(value);
	}
}

function isKnownCommand(type: string): type is RpcCommandType {
	return Object.hasOwn(COMMAND_FIELDS, type);
}

function parseUiResponse(obj: Record<string, unknown>): ParsedRecord {
	if (typeof obj.id !== "string") {
		return { kind: "error", command: "extension_ui_response", error: 'Field "id" must be a string' };
	}
	const id = obj.id;
	if (obj.cancelled === true)
		return { kind: "ui_response", response: { type: "extension_ui_response", id, cancelled: true } };
	if ("confirmed" in obj) {
		if (typeof obj.confirmed !== "boolean") {
			return { kind: "error", command: "extension_ui_response", error: 'Field "confirmed" must be a boolean' };
		}
		return { kind: "ui_response", response: { type: "extension_ui_response", id, confirmed: obj.confirmed } };
	}
	if (typeof obj.value === "string") {
		return { kind: "ui_response", response: { type: "extension_ui_response", id, value: obj.value } };
	}
	return {
		kind: "error",
		command: "extension_ui_response",
		error: 'An extension_ui_response needs "value" (string), "confirmed" (boolean) or "cancelled": true',
	};
}

/** Reads one record. Blank lines are not records (`undefined`). */
export function parseRecord(line: string): ParsedRecord | undefined {
	if (line.trim() === "") return undefined;
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		return { kind: "error", command: "parse", error: `Failed to parse command: ${(error as Error).message}` };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return {
			kind: "error",
			command: "parse",
			error: `Invalid command: expected a JSON object with a "type" field, got ${describe(value)}`,
		};
	}
	const obj = value as Record<string, unknown>;
	const id = typeof obj.id === "string" ? obj.id : undefined;
	if (obj.type === "extension_ui_response") return parseUiResponse(obj);
	if (typeof obj.type !== "string") {
		return {
			kind: "error",
			command: "parse",
			id,
			error:
				obj.type === undefined
					? 'Invalid command: missing field "type"'
					: `Invalid command: field "type" must be a string, got ${describe(obj.type)}`,
		};
	}
	const type = obj.type;
	if (!isKnownCommand(type)) return { kind: "error", command: type, id, error: `Unknown command: ${type}` };
	if (obj.id !== undefined && id === undefined) {
		return { kind: "error", command: type, error: `Field "id" must be a string, got ${describe(obj.id)}` };
	}
	for (const spec of COMMAND_FIELDS[type]) {
		const v = obj[spec.name];
		if (v === null && spec.optional) {
			delete obj[spec.name]; // null stands for "not given"
			continue;
		}
		if (v === undefined) {
			if (spec.optional) continue;
			return { kind: "error", command: type, id, error: `Missing required field "${spec.name}" for command "${type}"` };
		}
		const problem = checkField(spec, v);
		if (problem) return { kind: "error", command: type, id, error: `Field "${spec.name}" ${problem}` };
	}
	return { kind: "command", command: obj as RpcCommand };
}
