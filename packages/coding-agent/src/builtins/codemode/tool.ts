// The `codemode` tool: runs the model's script in the sandbox and answers its
// requests. Tool calls go through `ctx.executeTool`, the public way to call
// another tool: argument validation, `tool_call`/`tool_result` handlers
// (permission gates see every inner call) and `tool_execution_*` events
// carrying this call's id as `parentToolCallId`. The calls a script made are
// recorded in this tool's result `details.calls` (name, arguments, status,
// duration, error), so the transcript keeps them.
import { Type } from "typebox";
import type {
	ExtensionAPI,
	ExtensionToolContext,
	ToolDefinition,
	ToolInfo,
	ToolLoadout,
	ToolLoadoutChanges,
} from "../../extensions/types.js";
import { matchesNamespace, rankTools } from "../tool-search/ranker.js";
import { toIdentifier, toolDeclaration } from "./declarations.js";
import { createCodemodeDescription, DEFAULT_INLINE_BUDGET, type ListedTool } from "./description.js";
import { callModels } from "./models.js";
import { parseScriptOptions } from "./options.js";
import { formatOutcome } from "./output.js";
import { renderCodemodeCall, renderCodemodeResult } from "./render.js";
import { scriptValueOf } from "./results.js";
import type { HostOp, ScriptTool } from "./sandbox/protocol.js";
import { CODEMODE_STORE_ENTRY_TYPE, foldStore, storeEntryData } from "./store.js";

export const CODEMODE_TOOL_NAME = "codemode";

export const codemodeSchema = Type.Object({
	code: Type.String({
		description:
			"JavaScript run as the body of an async function (top-level await and return work). Raw source, not JSON or a markdown fence.",
	}),
});

export type CodemodeCallStatus = "running" | "ok" | "error" | "cancelled";

/** One tool call a script made, as kept in the result's details. */
export interface CodemodeCall {
	/** The inner call's id (`<codemode call id>/<n>`) when pi reported one. */
	id?: string;
	name: string;
	/** Compact JSON of the arguments, shortened for display. */
	args: string;
	status: CodemodeCallStatus;
	durationMs?: number;
	/** The error text, shortened. */
	error?: string;
}

export interface CodemodeDetails {
	calls: CodemodeCall[];
	/** Set when the model-facing output was shortened. */
	fullOutputPath?: string;
	/** Temp files holding the images the script showed. */
	imagePaths?: string[];
	/** The limit that stopped the script, if one did. */
	limit?: string;
}

export type CodemodeMode = "on" | "only";

export interface CodemodeToolOptions {
	/** Estimated tokens the description may spend on tool declarations (`codemode.inlineBudget`). */
	inlineBudget?: number;
	/** How the other tools are presented while codemode is active (`codemode.mode`). */
	mode?: CodemodeMode;
}

const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Tools a script may call now: active direct tools and every codemode/deferred tool; never itself or hidden/model-only ones. */
export function callableTools(pi: Pick<ExtensionAPI, "getAllTools" | "getActiveTools">): ToolInfo[] {
	const active = new Set(pi.getActiveTools());
	return pi
		.getAllTools()
		.filter(
			(t) =>
				t.name !== CODEMODE_TOOL_NAME &&
				t.exposure !== "hidden" &&
				t.exposure !== "model-only" &&
				(t.exposure === "codemode" || t.exposure === "deferred" || active.has(t.name)),
		);
}

/** Script identifiers for the callable tools; a second tool mapping to a taken identifier gets a numeric suffix. */
function scriptTools(tools: readonly ToolInfo[]): ScriptTool[] {
	const taken = new Set<string>();
	return tools.map((t) => {
		let ident = toIdentifier(t.name);
		for (let i = 2; taken.has(ident); i++) ident = `${toIdentifier(t.name)}_${i}`;
		taken.add(ident);
		return { name: t.name, ident, description: t.description };
	});
}

/** Words of a script that may name tools (for MCP to finish connecting the servers a call needs). */
export function reachesTools(input: Record<string, unknown>): "all" | string[] {
	const code = typeof input.code === "string" ? input.code : "";
	if (/\b(searchTools|ALL_TOOLS|describeNamespace|describeTool)\b/.test(code) || /\btools\s*\[/.test(code))
		return "all";
	const words = new Set<string>();
	for (const m of code.matchAll(/[A-Za-z_$][\w$-]*/g)) {
		words.add(m[0]);
		if (words.size >= 500) break;
	}
	return [...words];
}

/** Tools the description lists: codemode-exposure tools not declared to the model (MCP tools arrive later; never listed). */
function listedTools(pi: Pick<ExtensionAPI, "getAllTools" | "getActiveTools">): ListedTool[] {
	const active = new Set(pi.getActiveTools());
	return pi
		.getAllTools()
		.filter((t) => t.exposure === "codemode" && !active.has(t.name) && !t.name.startsWith("mcp__"))
		.map(toListed);
}

const toListed = (t: ToolInfo): ListedTool => ({
	name: t.name,
	description: t.description,
	parameters: t.parameters,
	promptGuidelines: t.promptGuidelines,
	namespace: t.namespace,
});

function codemodeMode(pi: ExtensionAPI, options: CodemodeToolOptions): CodemodeMode {
	if (options.mode) return options.mode;
	const setting = (pi.getSettings().codemode as { mode?: unknown } | undefined)?.mode;
	return setting === "only" ? "only" : "on";
}

/**
 * How the other tools are presented while codemode is active. `on`: each
 * declared tool's description says it can be called from scripts too.
 * `only`: every declared tool but codemode (and model-only tools) is hidden
 * from the model — MCP tools with `direct` exposure too, as 1.6.0 does — and
 * codemode lists the tools scripts can call instead, those direct MCP tools
 * included; deferred tools and other MCP tools are left to searchTools()
 * (their servers connect late; listing them would change the description).
 */
export function prepareCodemodeLoadout(loadout: ToolLoadout, mode: CodemodeMode, budget: number): ToolLoadoutChanges {
	const others = loadout.declared.filter((t) => t.name !== CODEMODE_TOOL_NAME && t.exposure !== "model-only");
	if (mode === "on") {
		const declared = new Set(loadout.declared.map((t) => t.name));
		const listed = loadout.callable
			.filter((t) => t.exposure === "codemode" && !declared.has(t.name) && !t.name.startsWith("mcp__"))
			.map(toListed);
		return {
			descriptions: {
				...Object.fromEntries(
					others.map((t) => [
						t.name,
						`${t.description}\n\nAlso callable from codemode scripts as tools.${toIdentifier(t.name)}(args).`,
					]),
				),
				[CODEMODE_TOOL_NAME]: createCodemodeDescription(listed, budget),
			},
		};
	}
	// MCP tools are left to searchTools() except those with `direct` exposure: their servers are
	// waited for before the first request, so listing them does not change the description later.
	const listed = loadout.callable
		.filter(
			(t) =>
				t.name !== CODEMODE_TOOL_NAME &&
				t.exposure !== "deferred" &&
				(!t.name.startsWith("mcp__") || t.exposure === "direct"),
		)
		.map(toListed);
	return {
		hiddenDeclarations: others.map((t) => t.name),
		descriptions: { [CODEMODE_TOOL_NAME]: createCodemodeDescription(listed, budget, "only") },
	};
}

function inlineBudget(pi: ExtensionAPI, options: CodemodeToolOptions): number {
	if (options.inlineBudget !== undefined) return options.inlineBudget;
	const setting = (pi.getSettings().codemode as { inlineBudget?: unknown } | undefined)?.inlineBudget;
	return typeof setting === "number" && setting >= 0 ? setting : DEFAULT_INLINE_BUDGET;
}

export function createCodemodeTool(
	pi: ExtensionAPI,
	options: CodemodeToolOptions = {},
): ToolDefinition<typeof codemodeSchema, CodemodeDetails> {
	return {
		name: CODEMODE_TOOL_NAME,
		label: "Codemode",
		// Read when pi adds the tool to the session (after every extension registered its tools).
		get description() {
			try {
				return createCodemodeDescription(listedTools(pi), inlineBudget(pi, options));
			} catch {
				return createCodemodeDescription([]);
			}
		},
		promptSnippet: "Run JavaScript that calls other tools",
		promptGuidelines: [
			"Use codemode to run independent tool calls in parallel (Promise.allSettled), to chain calls, or to filter large output before reading it, instead of many separate calls.",
		],
		parameters: codemodeSchema,
		defaultActive: false,
		reachesTools,
		prepareLoadout: (loadout) => prepareCodemodeLoadout(loadout, codemodeMode(pi, options), inlineBudget(pi, options)),
		loadoutKey: () => [codemodeMode(pi, options), inlineBudget(pi, options)],
		async execute(_toolCallId, params, signal, onUpdate, ctx) {
			return runCodemode(pi, params.code, signal, onUpdate, ctx);
		},
		renderCall: renderCodemodeCall,
		renderResult: renderCodemodeResult,
	};
}

async function runCodemode(
	pi: ExtensionAPI,
	code: string,
	signal: AbortSignal | undefined,
	onUpdate: ((partial: { content: { type: "text"; text: string }[]; details: CodemodeDetails }) => void) | undefined,
	ctx: ExtensionToolContext,
) {
	const calls: CodemodeCall[] = [];
	const parsed = parseScriptOptions(code);
	if ("error" in parsed) {
		return {
			content: [{ type: "text" as const, text: `Script failed before it ran\nScript error: ${parsed.error}` }],
			details: { calls },
			isError: true,
		};
	}
	const { options } = parsed;
	const callable = callableTools(pi);
	const byName = new Map(callable.map((t) => [t.name, t]));
	const executeTool = ctx.executeTool.bind(ctx);

	const progress = () =>
		onUpdate?.({
			content: [
				{
					type: "text",
					text: `Running script: ${calls.length} tool call${calls.length === 1 ? "" : "s"} (${calls.filter((c) => c.status === "running").length} running)`,
				},
			],
			details: { calls: calls.map((c) => ({ ...c })) },
		});

	const callTool = async (name: string, args: Record<string, unknown>, callSignal: AbortSignal) => {
		if (!byName.has(name)) throw new Error(`There is no callable tool ${name}`);
		const record: CodemodeCall = { name, args: short(JSON.stringify(args) ?? "{}", 200), status: "running" };
		calls.push(record);
		progress();
		const started = performance.now();
		try {
			const outcome = await executeTool(name, args, { signal: callSignal });
			record.id = outcome.toolCall.id;
			record.durationMs = Math.round(outcome.durationMs ?? performance.now() - started);
			if (outcome.isError) {
				record.status = callSignal.aborted ? "cancelled" : "error";
				record.error = short(
					(outcome.result.content ?? [])
						.filter((c) => c.type === "text")
						.map((c) => c.text ?? "")
						.join("\n"),
					300,
				);
			} else record.status = "ok";
			return scriptValueOf(outcome.result, outcome.isError);
		} catch (error) {
			if (record.status === "running") {
				record.status = callSignal.aborted ? "cancelled" : "error";
				record.error = short(error instanceof Error ? error.message : String(error), 300);
				record.durationMs ??= Math.round(performance.now() - started);
			}
			throw error;
		} finally {
			progress();
		}
	};

	const host = {
		call: async (op: HostOp, name: string, args: Record<string, unknown>, callSignal: AbortSignal) => {
			switch (op) {
				case "tool":
					return callTool(name, args, callSignal);
				case "searchTools": {
					const ns = typeof args.namespace === "string" ? args.namespace : undefined;
					const pool = ns ? callable.filter((t) => matchesNamespace(t.namespace, ns)) : callable;
					const limit = typeof args.limit === "number" && args.limit > 0 ? Math.floor(args.limit) : undefined;
					return rankTools(String(args.query ?? ""), pool, limit).map((m) => ({
						name: m.name,
						description: byName.get(m.name)?.description ?? "",
					}));
				}
				case "describeTool": {
					const tool = byName.get(name);
					if (!tool) return undefined;
					return {
						name: tool.name,
						description: tool.description,
						declaration: toolDeclaration(tool),
						...(tool.namespace ? { namespace: tool.namespace.name } : {}),
					};
				}
				case "models":
					return callModels(ctx.modelRegistry, name, args);
				case "describeNamespace": {
					const members = callable.filter((t) => matchesNamespace(t.namespace, name));
					const ns = members[0]?.namespace;
					if (!ns) return undefined;
					return {
						name: ns.name,
						...(ns.description ? { description: ns.description } : {}),
						...(ns.instructions ? { instructions: ns.instructions } : {}),
						tools: members.map((t) => t.name),
					};
				}
			}
		},
	};

	const { runScript } = await import("./sandbox/run-script.js");
	const outcome = await runScript({
		code,
		tools: scriptTools(callable),
		// Only the custom entries are read: a resumed branch is mostly on disk.
		store: foldStore(ctx.sessionManager.getBranchEntries("custom")),
		timeoutMs: options.timeoutMs,
		signal,
		host,
	});
	if (outcome.ok && outcome.store) {
		const data = storeEntryData(outcome.store);
		if (data) pi.appendEntry(CODEMODE_STORE_ENTRY_TYPE, data);
	}
	const formatted = formatOutcome(outcome, options.maxOutputTokens);
	const details: CodemodeDetails = {
		calls,
		...(formatted.fullOutputPath ? { fullOutputPath: formatted.fullOutputPath } : {}),
		...(formatted.imagePaths.length > 0 ? { imagePaths: formatted.imagePaths } : {}),
		...(outcome.limit ? { limit: outcome.limit } : {}),
	};
	return { content: formatted.content, details, isError: !outcome.ok };
}
