// Codemode figures (issue 18), in-process with the real extension bridge:
//   1. request size: 50 MCP-like tools declared directly vs reachable only
//      through codemode — the first request's JSON body as the real
//      openai-completions adapter sends it to the local fake provider;
//   2. latency of one tool call: the model calls `lookup` directly vs a
//      codemode script that calls `tools.lookup(...)`, measured from
//      tool_execution_start to tool_execution_end of the model's call;
//      the first codemode call of the process (worker + QuickJS start) is
//      reported apart from warm calls.
//
//   npx tsx bench/codemode.bench.ts [runs]
import type { AgentTool } from "@pi/agent-core";
import { Type } from "typebox";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { type Script, startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { createCodemodeExtension } from "../packages/coding-agent/src/builtins/codemode/index.js";
import type { ExtensionAPI, ToolExposure } from "../packages/coding-agent/src/extensions/types.js";
import { testModel } from "../packages/coding-agent/test/agent-session/support.js";
import { sessionWithExtensions } from "../packages/coding-agent/test/builtins/support.js";

const runs = Number(process.argv[2] ?? 15);

/** 50 tools shaped like a typical MCP server's: a sentence or two of description, 2–5 described parameters. */
function fiftyTools(exposure: ToolExposure) {
	return (pi: ExtensionAPI) => {
		const verbs = ["list", "get", "create", "update", "delete", "search", "archive", "assign", "comment", "link"];
		const nouns = ["issue", "project", "user", "label", "milestone"];
		for (const noun of nouns) {
			for (const verb of verbs) {
				const name = `mcp__tracker__${verb}_${noun}`;
				pi.registerTool({
					name,
					label: name,
					description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun} in the issue tracker. Returns the ${noun} as JSON with its id, title, state, timestamps and links. Requires read access to the workspace; write operations also need the ${noun}:write scope.`,
					parameters: Type.Object({
						workspace: Type.String({ description: "Workspace slug, for example 'acme'" }),
						id: Type.Optional(
							Type.String({ description: `The ${noun} id (required for everything but list and create)` }),
						),
						query: Type.Optional(Type.String({ description: "Free-text filter applied to titles and bodies" })),
						limit: Type.Optional(Type.Number({ description: "Maximum number of results (1-100, default 20)" })),
						fields: Type.Optional(Type.Array(Type.String(), { description: "Fields to include in the answer" })),
					}),
					exposure,
					async execute() {
						return { content: [{ type: "text", text: "{}" }] };
					},
				});
			}
		}
	};
}

function textReply(text: string): Script {
	return new ChatStream({ model: "test-model" })
		.role()
		.text(text)
		.finish("stop")
		.usage({ prompt_tokens: 1, completion_tokens: 1 })
		.done()
		.script();
}

async function requestSize(mode: "direct" | "codemode"): Promise<{ bytes: number; tools: number; toolBytes: number }> {
	const fake = await startFakeProvider();
	try {
		fake.enqueue(textReply("ok"));
		const s = await sessionWithExtensions(
			mode === "direct"
				? { tools: fiftyTools("direct") }
				: { tools: fiftyTools("deferred"), codemode: createCodemodeExtension() },
			{ model: testModel({ baseUrl: `${fake.url}/v1` }), realStream: true },
		);
		if (mode === "codemode") s.session.setActiveToolsByName([...s.session.getActiveToolNames(), "codemode"]);
		await s.session.prompt("hello");
		const body = fake.requests[0]?.body as { tools?: unknown[] };
		return {
			bytes: JSON.stringify(body).length,
			tools: body.tools?.length ?? 0,
			toolBytes: JSON.stringify(body.tools ?? []).length,
		};
	} finally {
		await fake.close();
	}
}

const lookupTool: AgentTool = {
	name: "lookup",
	label: "Lookup",
	description: "Returns a fixed answer.",
	parameters: Type.Object({ key: Type.String() }),
	execute: async (_id, params) => ({
		content: [{ type: "text", text: `value of ${(params as { key: string }).key}` }],
	}),
};

async function toolLatencies(): Promise<{ direct: number[]; codemodeCold: number; codemode: number[] }> {
	const s = await sessionWithExtensions(
		{ codemode: createCodemodeExtension() },
		{ customTools: [lookupTool], tools: ["lookup"] },
	);
	s.session.setActiveToolsByName(["lookup", "codemode"]);
	const started = new Map<string, number>();
	const took: { name: string; ms: number; isError: boolean }[] = [];
	s.session.subscribe((event) => {
		if (event.type === "tool_execution_start" && !(event as { parentToolCallId?: string }).parentToolCallId)
			started.set(event.toolCallId, performance.now());
		if (event.type === "tool_execution_end" && started.has(event.toolCallId)) {
			took.push({
				name: event.toolName,
				ms: performance.now() - (started.get(event.toolCallId) ?? 0),
				isError: event.isError,
			});
		}
	});
	const direct: number[] = [];
	const codemode: number[] = [];
	let codemodeCold = 0;
	for (let i = 0; i <= runs; i++) {
		for (const via of ["direct", "codemode"] as const) {
			s.fake.enqueue(
				via === "direct"
					? { toolCalls: [{ name: "lookup", args: { key: `k${i}` } }] }
					: { toolCalls: [{ name: "codemode", args: { code: `return await tools.lookup({ key: "k${i}" });` } }] },
				{ text: "done" },
			);
			took.length = 0;
			await s.session.prompt("go");
			// A failed call (e.g. a build without ctx.executeTool) measures nothing: stop rather than report it.
			if (!took[0] || took[0].isError) throw new Error(`the ${via} call failed; no latency figure`);
			const ms = took[0].ms;
			if (via === "direct") {
				if (i > 0) direct.push(ms);
			} else if (i === 0) codemodeCold = ms;
			else codemode.push(ms);
		}
	}
	return { direct, codemodeCold, codemode };
}

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const direct = await requestSize("direct");
const viaCodemode = await requestSize("codemode");
console.log("| tools reach the model | tools declared | tools JSON chars | request body chars | ≈ tokens (chars/4) |");
console.log("|---|---|---|---|---|");
for (const [label, r] of [
	["50 tools declared directly", direct],
	["50 tools through codemode", viaCodemode],
] as const) {
	console.log(`| ${label} | ${r.tools} | ${r.toolBytes} | ${r.bytes} | ${Math.round(r.bytes / 4)} |`);
}
console.log(`\nratio: codemode request = ${(viaCodemode.bytes / direct.bytes).toFixed(3)}× the direct one\n`);

const lat = await toolLatencies().catch((error: Error) => {
	console.log(`latency: ${error.message}`);
	process.exit(0);
});
console.log(`| one tool call (${runs} runs, median) | ms |`);
console.log("|---|---|");
console.log(`| direct | ${median(lat.direct).toFixed(2)} |`);
console.log(
	`| through codemode, first call of the process (worker + QuickJS start) | ${lat.codemodeCold.toFixed(2)} |`,
);
console.log(`| through codemode, warm | ${median(lat.codemode).toFixed(2)} |`);
process.exit(0);
