// The resource tools (`list_mcp_resources`, `list_mcp_resource_templates`,
// `read_mcp_resource`), registered once a connected server offers
// resources. They reach every enabled, non-hidden server with resources;
// their exposure is the widest among those servers (direct, then
// codemode/deferred). Listing and reading are retried once after a
// transient failure; they wait (bounded) for servers still connecting.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImageContent, TextContent } from "@pi/ai";
import { Type } from "typebox";
import type { ExtensionAPI, ToolExposure } from "../../extensions/types.js";
import type { McpResourceReadDetails } from "./interface.js";
import type { McpManager, ServerEntry } from "./manager.js";
import { shortenText } from "./tool-result.js";

/** MCP Apps resources are for clients that render them; pi does not. */
const isAppResource = (r: Record<string, unknown>) =>
	(typeof r.uri === "string" && r.uri.startsWith("ui://")) ||
	(typeof r.mimeType === "string" && r.mimeType.startsWith("text/html;profile=mcp-app"));

function strip(r: Record<string, unknown>, server: string): Record<string, unknown> {
	const { icons: _icons, ...rest } = r;
	return { server, ...rest };
}

/** Retries once after a failure, but not after an authorization failure (a sign-in is needed, not a retry). */
async function retryOnce<T>(run: () => Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (error) {
		if (
			error instanceof Error &&
			(error.name === "UnauthorizedError" || error.constructor.name === "UnauthorizedError")
		)
			throw error;
		return run();
	}
}

function resourceServers(manager: McpManager): ServerEntry[] {
	return [...manager.servers.values()].filter(
		(e) => e.configured.config.enabled && e.configured.config.exposure !== "hidden",
	);
}

export function resourceExposure(manager: McpManager): ToolExposure {
	const exposures = resourceServers(manager)
		.filter((e) => e.hasResources)
		.map((e) => e.configured.config.exposure);
	if (exposures.includes("direct")) return "direct";
	return exposures.includes("codemode") ? "codemode" : "deferred";
}

const json = (value: unknown): { content: TextContent[]; details: unknown } => {
	const text = JSON.stringify(value, null, 2);
	return { content: [{ type: "text", text: shortenText(text).text }], details: value };
};

export function registerResourceTools(pi: ExtensionAPI, manager: McpManager, exposure: ToolExposure): void {
	const annotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
	const serverFor = async (name: string) => {
		const entry = manager.find(name);
		if (!entry) throw new Error(`No MCP server named "${name}"`);
		await manager.ready(entry);
		if (!entry.hasResources) throw new Error(`MCP server "${entry.name}" offers no resources`);
		return entry;
	};
	type Conn = Parameters<Parameters<McpManager["request"]>[2]>[0];
	const listAll = async (
		server: string | undefined,
		cursor: string | undefined,
		kind: "resources" | "resourceTemplates",
	): Promise<Record<string, unknown>> => {
		const page = (c: Conn, at?: string) => (kind === "resources" ? c.listResources(at) : c.listResourceTemplates(at));
		const method = kind === "resources" ? "resources/list" : "resources/templates/list";
		if (server !== undefined) {
			const entry = await serverFor(server);
			const r = await manager.request(entry, method, (c) => retryOnce(() => page(c, cursor)));
			return {
				server: entry.name,
				[kind]: r.items.filter((i) => !isAppResource(i)).map((i) => strip(i, entry.name)),
				...(r.nextCursor ? { nextCursor: r.nextCursor } : {}),
			};
		}
		await manager.waitFor("all");
		const items: Record<string, unknown>[] = [];
		const errors: string[] = [];
		for (const entry of resourceServers(manager)) {
			if (!entry.connection || !entry.hasResources) continue;
			try {
				let at: string | undefined;
				do {
					const r = await manager.request(entry, method, (c) => retryOnce(() => page(c, at)));
					items.push(...r.items.filter((i) => !isAppResource(i)).map((i) => strip(i, entry.name)));
					at = r.nextCursor;
				} while (at);
			} catch (error) {
				errors.push(`${entry.name}: ${(error as Error).message}`);
			}
		}
		return { [kind]: items, ...(errors.length > 0 ? { errors } : {}) };
	};
	const listParams = Type.Object({
		server: Type.Optional(Type.String({ description: "One server's resources (one page); all servers when omitted" })),
		cursor: Type.Optional(Type.String({ description: "nextCursor of the previous page (with server)" })),
	});
	pi.registerTool({
		name: "list_mcp_resources",
		label: "MCP resources",
		description:
			"List resources offered by connected MCP servers as JSON: { server?, resources: [{ server, uri, name, ... }], nextCursor? }.",
		parameters: listParams,
		exposure,
		annotations,
		execute: async (_id, p) => json(await listAll(p.server, p.cursor, "resources")),
	});
	pi.registerTool({
		name: "list_mcp_resource_templates",
		label: "MCP resource templates",
		description: "List URI templates for resources MCP servers can read but do not list.",
		parameters: listParams,
		exposure,
		annotations,
		execute: async (_id, p) => json(await listAll(p.server, p.cursor, "resourceTemplates")),
	});
	pi.registerTool({
		name: "read_mcp_resource",
		label: "Read MCP resource",
		description: "Read one resource of an MCP server by its server name and URI.",
		parameters: Type.Object({
			server: Type.String({ description: "MCP server name" }),
			uri: Type.String({ description: "Resource URI" }),
		}),
		exposure,
		annotations,
		execute: async (_id, p, signal) => {
			const entry = await serverFor(p.server);
			const contents = await manager.request(entry, `resources/read ${p.uri}`, (c) =>
				retryOnce(() => c.readResource(p.uri, signal)),
			);
			const out: (TextContent | ImageContent)[] = [];
			for (const c of contents) {
				if (typeof c.text === "string") out.push({ type: "text", text: shortenText(c.text).text });
				else if (typeof c.blob === "string") {
					const mime = typeof c.mimeType === "string" ? c.mimeType : "application/octet-stream";
					if (/^image\/(png|jpeg|gif|webp)$/.test(mime)) out.push({ type: "image", data: c.blob, mimeType: mime });
					else {
						const file = join(mkdtempSync(join(tmpdir(), "pi-mcp-")), "resource.bin");
						writeFileSync(file, Buffer.from(c.blob, "base64"), { mode: 0o600 });
						out.push({ type: "text", text: `[${mime} resource ${String(c.uri ?? p.uri)} saved to ${file}]` });
					}
				}
			}
			if (out.length === 0) out.push({ type: "text", text: "(empty resource)" });
			const details: McpResourceReadDetails = { kind: "mcp_resource_read", server: entry.name, uri: p.uri, contents };
			return { content: out, details };
		},
	});
}
