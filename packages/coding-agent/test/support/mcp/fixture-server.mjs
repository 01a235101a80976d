// Real MCP servers for tests, written with the official SDK's low-level
// Server (full control over names, schemas and list changes). One module,
// configured by an options object; `stdio-server.mjs` runs it on stdio,
// `http.ts` serves it over streamable HTTP on 127.0.0.1.
//
// Options: { name, instructions, tools: number (echo tools tool_0..N-1),
//   extraTools: [{ name, description? }] (echo tools with odd names),
//   resources: bool, crash: bool (tool "crash" exits the process mid-call),
//   hang: bool (tool "hang" never answers), hangInit: bool (never answers
//   initialize), garbage: bool (writes a non-JSON line to stdout first),
//   mutate: bool (tool "add_tool" adds "late_tool" and removes "tool_0", then
//   announces the change), big: bool (tool "big" returns 100 KB of text),
//   log: bool (tool "log" sends a logging notification), stderr: string }
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
	CallToolRequestSchema,
	InitializeRequestSchema,
	ListResourcesRequestSchema,
	ListResourceTemplatesRequestSchema,
	ListToolsRequestSchema,
	ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const echoSchema = {
	type: "object",
	properties: { text: { type: "string", description: "Text to echo" } },
	required: ["text"],
};

export function buildServer(options = {}) {
	const tools = new Map();
	for (let i = 0; i < (options.tools ?? 0); i++) {
		tools.set(`tool_${i}`, {
			name: `tool_${i}`,
			description: `Echo tool number ${i}: returns its text argument with a tag. Useful for testing large tool lists in MCP clients.`,
			inputSchema: echoSchema,
			annotations: { readOnlyHint: true },
		});
	}
	for (const t of options.extraTools ?? [])
		tools.set(t.name, { description: `Echo ${t.name}`, inputSchema: echoSchema, ...t });
	if (options.crash)
		tools.set("crash", { name: "crash", description: "Exits the server mid-call", inputSchema: { type: "object" } });
	if (options.hang) tools.set("hang", { name: "hang", description: "Never answers", inputSchema: { type: "object" } });
	if (options.mutate)
		tools.set("add_tool", { name: "add_tool", description: "Changes the tool list", inputSchema: { type: "object" } });
	if (options.big) tools.set("big", { name: "big", description: "Returns 100 KB", inputSchema: { type: "object" } });
	if (options.log)
		tools.set("log", { name: "log", description: "Sends a log message", inputSchema: { type: "object" } });

	const server = new Server(
		{ name: options.name ?? "fixture", version: "1.0.0" },
		{
			capabilities: {
				tools: { listChanged: true },
				logging: {},
				...(options.resources ? { resources: { listChanged: true } } : {}),
			},
			...(options.instructions ? { instructions: options.instructions } : {}),
		},
	);
	if (options.hangInit) server.setRequestHandler(InitializeRequestSchema, () => new Promise(() => {}));
	server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.values()] }));
	server.setRequestHandler(CallToolRequestSchema, async (request) => {
		const { name, arguments: args = {} } = request.params;
		if (name === "crash") {
			process.stderr.write("fixture: crashing on purpose\n");
			process.exit(3);
		}
		if (name === "hang") return new Promise(() => {});
		if (name === "add_tool") {
			tools.delete("tool_0");
			tools.set("late_tool", { name: "late_tool", description: "Added later", inputSchema: echoSchema });
			await server.sendToolListChanged();
			return { content: [{ type: "text", text: "tool list changed" }] };
		}
		if (name === "big")
			return { content: [{ type: "text", text: `${"x".repeat(50_000)}MIDDLE${"y".repeat(50_000)}` }] };
		if (name === "log") {
			await server.sendLoggingMessage({ level: "warning", logger: "fixture", data: "hello from the server log" });
			return { content: [{ type: "text", text: "logged" }] };
		}
		if (!tools.has(name)) return { content: [{ type: "text", text: `unknown tool ${name}` }], isError: true };
		if (args.text === "fail") return { content: [{ type: "text", text: "the tool failed" }], isError: true };
		return {
			content: [{ type: "text", text: `${options.name ?? "fixture"}/${name}: ${args.text}` }],
			structuredContent: { echoed: args.text },
		};
	});
	if (options.resources) {
		const resources = [
			{ uri: "file:///notes.txt", name: "notes", mimeType: "text/plain" },
			{ uri: "file:///pixel.png", name: "pixel", mimeType: "image/png" },
			{ uri: "file:///data.bin", name: "data", mimeType: "application/octet-stream" },
			{ uri: "ui://app", name: "app", mimeType: "text/html;profile=mcp-app" },
		];
		server.setRequestHandler(ListResourcesRequestSchema, (request) => {
			// Two pages, to exercise cursors.
			if (request.params?.cursor === "page2") return { resources: resources.slice(2) };
			return { resources: resources.slice(0, 2), nextCursor: "page2" };
		});
		server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
			resourceTemplates: [{ uriTemplate: "file:///logs/{day}.txt", name: "daily log" }],
		}));
		server.setRequestHandler(ReadResourceRequestSchema, (request) => {
			const uri = request.params.uri;
			if (uri === "file:///notes.txt")
				return { contents: [{ uri, mimeType: "text/plain", text: "remember the milk" }] };
			if (uri === "file:///pixel.png") {
				const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
				return { contents: [{ uri, mimeType: "image/png", blob: png }] };
			}
			if (uri === "file:///data.bin")
				return { contents: [{ uri, mimeType: "application/octet-stream", blob: "AAECAw==" }] };
			if (uri.startsWith("file:///logs/")) return { contents: [{ uri, text: `log of ${uri.slice(13)}` }] };
			throw new Error(`no resource ${uri}`);
		});
	}
	return server;
}
