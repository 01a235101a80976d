// The fixture server over streamable HTTP on 127.0.0.1 (a fresh SDK Server
// per session, as the SDK's stateful examples do). `bearer` demands
// `Authorization: Bearer <token>`; `verifyToken` lets an OAuth test decide.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { buildServer } from "./fixture-server.mjs";

export interface HttpFixture {
	url: string;
	requests: { method: string; auth?: string }[];
	close(): Promise<void>;
}

export interface HttpFixtureOptions {
	server?: Record<string, unknown>;
	/** Called with the Authorization header; false answers 401 (with resource metadata when `resourceMetadataUrl` is set). */
	verifyToken?: (authorization: string | undefined) => boolean;
	resourceMetadataUrl?: () => string;
	/** Looks at each parsed request: an answer (status, headers) replaces the MCP handling (a 403 step-up). */
	gate?: (
		authorization: string | undefined,
		body: unknown,
	) => { status: number; headers: Record<string, string> } | undefined;
	/** Extra routes (OAuth metadata) served before MCP. */
	route?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export async function startHttpFixture(o: HttpFixtureOptions = {}): Promise<HttpFixture> {
	const transports = new Map<string, StreamableHTTPServerTransport>();
	const requests: HttpFixture["requests"] = [];
	const http: Server = createServer(async (req, res) => {
		if (o.route?.(req, res)) return;
		requests.push({ method: req.method ?? "", auth: req.headers.authorization });
		if (o.verifyToken && !o.verifyToken(req.headers.authorization)) {
			const meta = o.resourceMetadataUrl?.();
			res.writeHead(401, meta ? { "www-authenticate": `Bearer resource_metadata="${meta}"` } : {});
			res.end();
			return;
		}
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
		const refused = o.gate?.(req.headers.authorization, body);
		if (refused) {
			res.writeHead(refused.status, refused.headers).end();
			return;
		}
		const sid = req.headers["mcp-session-id"];
		let transport = typeof sid === "string" ? transports.get(sid) : undefined;
		if (!transport) {
			const t = new StreamableHTTPServerTransport({
				sessionIdGenerator: () => randomUUID(),
				onsessioninitialized: (id) => {
					transports.set(id, t);
				},
			});
			t.onclose = () => {
				if (t.sessionId) transports.delete(t.sessionId);
			};
			await buildServer(o.server ?? {}).connect(t);
			transport = t;
		}
		await transport.handleRequest(req, res, body);
	});
	await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
	const port = (http.address() as { port: number }).port;
	return {
		url: `http://127.0.0.1:${port}/mcp`,
		requests,
		async close() {
			for (const t of transports.values()) await t.close().catch(() => {});
			http.closeAllConnections();
			await new Promise<void>((r) => http.close(() => r()));
		},
	};
}
