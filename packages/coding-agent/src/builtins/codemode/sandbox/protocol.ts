// Messages between the codemode host (main thread, run-script.ts) and the
// sandbox worker (worker.ts). Everything crossing the boundary is plain data:
// values go as JSON text, so a script can never hand the host a live object.

/** A text or image item of a script's output, in the order the script made them. */
export type OutputItem = { kind: "text"; text: string } | { kind: "image"; data: string; mimeType: string };

/** Why a script was stopped by pi rather than by its own error. */
export type LimitKind = "time" | "memory" | "output" | "tool-calls" | "aborted" | "no-worker";

export interface ScriptLimits {
	/** QuickJS heap limit in bytes. */
	memoryBytes: number;
	/** Text characters + base64 image characters over all output items and console lines. */
	maxOutputChars: number;
	/** `text()`, `image()`, `return` and `console.*` calls. */
	maxOutputCalls: number;
	/** Calls through `tools.*` in one script. */
	maxToolCalls: number;
	/** JSON characters of one stored value. */
	maxStoreValueChars: number;
	/** JSON characters of all stored values together. */
	maxStoreTotalChars: number;
	/** JSON characters of one tool call's arguments. */
	maxArgsChars: number;
}

export interface ScriptTool {
	/** The tool's real name, e.g. `mcp__dev-radius__search`. */
	name: string;
	/** Its name as a JavaScript identifier, e.g. `mcp__dev_radius__search` (the key under `tools`). */
	ident: string;
	description: string;
}

export interface RunMessage {
	type: "run";
	code: string;
	tools: ScriptTool[];
	/** The store as the branch has it: key → JSON text. */
	store: Record<string, string>;
	limits: ScriptLimits;
}

/** What a script asks of the host besides output. */
export type HostOp = "tool" | "searchTools" | "describeTool" | "describeNamespace" | "models";

export type ReplyMessage =
	| { type: "reply"; id: number; ok: true; json: string }
	| { type: "reply"; id: number; ok: false; error: string };

export type ToWorker = RunMessage | ReplyMessage;

export interface CallMessage {
	type: "call";
	id: number;
	op: HostOp;
	name: string;
	/** JSON text of the argument object. */
	args: string;
}

export interface OutputMessage {
	type: "output";
	item: OutputItem;
}

export interface ConsoleMessage {
	type: "console";
	line: string;
}

export interface StoreChanges {
	/** key → JSON text */
	set: Record<string, string>;
	delete: string[];
}

export interface DoneMessage {
	type: "done";
	ok: boolean;
	/** The script's error (`TypeError: …`) or the limit it hit. */
	error?: string;
	limit?: LimitKind;
	/** Writes of a successful script (dropped when it failed). */
	store?: StoreChanges;
	/** False when the worker could not free the script's VM cleanly and must not run another one. */
	reusable?: boolean;
}

export type FromWorker = CallMessage | OutputMessage | ConsoleMessage | DoneMessage;
