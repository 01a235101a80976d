import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AssistantMessageEvent, Context, Model } from "@pi/ai";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../src/agent.js";
import { streamProxy } from "../src/proxy.js";
import { proxyEventFrame } from "../src/proxy-wire.js";
import {
	deferred,
	echoTool,
	failedReply,
	gate,
	reply,
	ScriptedStream,
	testModel,
	text,
	thinking,
	toolCall,
	transcript,
	usage,
	wait,
} from "./support/index.js";

interface Received {
	auth: string | undefined;
	body: { model: Model; context: Context; options: Record<string, unknown> };
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Received["body"]) => void | Promise<void>;

let server: Server | undefined;

function stop(): Promise<void> {
	const current = server;
	server = undefined;
	if (!current) return Promise.resolve();
	// Keep-alive sockets from fetch would hold close() open for seconds.
	current.closeAllConnections();
	return new Promise((resolve) => current.close(() => resolve()));
}

afterEach(stop);

async function listen(handler: Handler): Promise<{ url: string; received: Received[] }> {
	const received: Received[] = [];
	const created = createServer(async (req, res) => {
		let raw = "";
		for await (const chunk of req) raw += chunk;
		const body = JSON.parse(raw) as Received["body"];
		received.push({ auth: req.headers.authorization, body });
		if (req.url !== "/api/stream" || req.method !== "POST") {
			res.writeHead(404).end();
			return;
		}
		await handler(req, res, body);
	});
	server = created;
	await new Promise<void>((resolve) => created.listen(0, "127.0.0.1", resolve));
	const port = (created.address() as AddressInfo).port;
	return { url: `http://127.0.0.1:${port}`, received };
}

/** A relay server: plays the scripted stream and writes its events in the wire form, split into small chunks. */
function relayFrom(fake: ScriptedStream, chunkSize = 0): Handler {
	return async (_req, res, body) => {
		res.writeHead(200, { "content-type": "text/event-stream" });
		const stream = fake.streamFn(body.model, body.context, body.options as never);
		for await (const event of stream) {
			const frame = proxyEventFrame(event);
			if (chunkSize > 0) {
				for (let i = 0; i < frame.length; i += chunkSize) {
					res.write(frame.slice(i, i + chunkSize));
					await new Promise((r) => setImmediate(r));
				}
			} else res.write(frame);
		}
		res.end();
	};
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(structuredClone(event));
	return events;
}

const script = () =>
	reply(
		thinking("plan", "sig-1"),
		text("Hello", " there"),
		toolCall("echo", ['{"te', 'xt":"ü"}'], "c1"),
		usage({ input: 10, output: 5 }),
	);

describe("streamProxy over real HTTP", () => {
	it("rebuilds exactly the events and message the server-side stream produced", async () => {
		const model = testModel();
		const local = await collect(new ScriptedStream().enqueue(script()).streamFn(model, { messages: [] }));
		const { url, received } = await listen(relayFrom(new ScriptedStream().enqueue(script()), 7));
		const context: Context = {
			systemPrompt: "sys",
			messages: [{ role: "user", content: "hi", timestamp: 1 }],
			tools: [echoTool()],
		};
		const relayed = await collect(
			streamProxy(model, context, { proxyUrl: url, authToken: "tok", temperature: 0.2, reasoning: "low" }),
		);
		const strip = (events: AssistantMessageEvent[]) =>
			events.map((e) => {
				// `partial` is a live object: its snapshots depend on consumer timing, so only the rest is compared.
				const copy = structuredClone(e) as Record<string, unknown>;
				delete copy.partial;
				for (const key of ["message", "error"]) {
					if (copy[key]) Object.assign(copy[key] as object, { timestamp: 0, durationMs: 0 });
				}
				return copy;
			});
		expect(strip(relayed)).toEqual(strip(local));
		expect(relayed.map((e) => e.type)).toEqual([
			"start",
			"thinking_start",
			"thinking_delta",
			"thinking_end",
			"text_start",
			"text_delta",
			"text_delta",
			"text_end",
			"toolcall_start",
			"toolcall_delta",
			"toolcall_delta",
			"toolcall_end",
			"done",
		]);
		const done = relayed.at(-1);
		expect(done?.type === "done" && done.message).toMatchObject({
			content: [
				{ type: "thinking", thinking: "plan", thinkingSignature: "sig-1" },
				{ type: "text", text: "Hello there" },
				{ type: "toolCall", id: "c1", name: "echo", arguments: { text: "ü" } },
			],
			usage: { input: 10, output: 5, totalTokens: 15 },
			stopReason: "toolUse",
		});
		expect(received[0].auth).toBe("Bearer tok");
		expect(received[0].body.options).toEqual({ temperature: 0.2, reasoning: "low" });
		expect(received[0].body.context.tools).toEqual([
			{ name: "echo", description: "The echo tool", parameters: expect.objectContaining({ type: "object" }) },
		]);
	});

	it("drives an Agent run with tool calls end to end", async () => {
		const relay = new ScriptedStream().enqueue(
			reply(toolCall("echo", { text: "via proxy" }, "p1")),
			reply(text("done")),
		);
		const { url, received } = await listen(relayFrom(relay));
		const agent = new Agent({
			initialState: { model: testModel(), tools: [echoTool()] },
			streamFn: (model, context, options) => streamProxy(model, context, { ...options, proxyUrl: url, authToken: "t" }),
		});
		await agent.prompt("go");
		expect(transcript(agent.state.messages)).toEqual([
			"user: go",
			'assistant: echo({"text":"via proxy"})',
			"toolResult p1: echo: via proxy",
			"assistant: done",
		]);
		expect(received).toHaveLength(2);
		expect(transcript(received[1].body.context.messages)).toEqual(transcript(agent.state.messages.slice(0, 3)));
	});

	it("relays provider errors with their facts", async () => {
		const relay = new ScriptedStream().enqueue(
			failedReply(
				"rate limited",
				{ kind: "rate_limit", status: 429, retryable: true, retryAfterMs: 2000 },
				text("part"),
			),
		);
		const { url } = await listen(relayFrom(relay));
		const events = await collect(streamProxy(testModel(), { messages: [] }, { proxyUrl: url, authToken: "t" }));
		const last = events.at(-1);
		expect(last?.type === "error" && last.error).toMatchObject({
			stopReason: "error",
			errorMessage: "rate limited",
			errorInfo: { kind: "rate_limit", status: 429, retryable: true, retryAfterMs: 2000 },
			content: [{ type: "text", text: "part" }],
		});
	});

	it("an HTTP error status becomes an error event with the server's message", async () => {
		const { url } = await listen((_req, res) => {
			res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "bad token" }));
		});
		const result = await streamProxy(testModel(), { messages: [] }, { proxyUrl: url, authToken: "x" }).result();
		expect(result).toMatchObject({
			stopReason: "error",
			errorMessage: "Proxy error: bad token",
			errorInfo: { kind: "auth", status: 401, retryable: false },
		});
		await stop();
		const { url: url2 } = await listen((_req, res) => {
			res.writeHead(503, { "retry-after": "3" }).end("overloaded");
		});
		const second = await streamProxy(testModel(), { messages: [] }, { proxyUrl: url2, authToken: "x" }).result();
		expect(second).toMatchObject({
			errorMessage: "Proxy error: 503 Service Unavailable",
			errorInfo: { kind: "overloaded", status: 503, retryable: true, retryAfterMs: 3000 },
		});
	});

	it("a connection that ends without a terminal event is a cut stream, not a success", async () => {
		const { url } = await listen((_req, res) => {
			res.writeHead(200, { "content-type": "text/event-stream" });
			res.write('data: {"type":"start"}\n\ndata: {"type":"text_start","contentIndex":0}\n\n');
			res.end('data: {"type":"text_delta","contentIndex":0,"delta":"cut her"}\n\n');
		});
		const result = await streamProxy(testModel(), { messages: [] }, { proxyUrl: url, authToken: "x" }).result();
		expect(result).toMatchObject({
			stopReason: "error",
			errorMessage: "Proxy stream ended without a terminal event",
			errorInfo: { kind: "stream_cut" },
			content: [{ type: "text", text: "cut her" }],
		});
	});

	it("an unreachable server is a network error", async () => {
		const { url } = await listen(() => {});
		await stop();
		const result = await streamProxy(testModel(), { messages: [] }, { proxyUrl: url, authToken: "x" }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorInfo).toEqual({ kind: "network", retryable: true });
		expect(result.errorMessage).toMatch(/^Proxy request failed: /);
	});

	it("abort ends the relayed stream at once with the partial content", async () => {
		const g = gate();
		const relay = new ScriptedStream().enqueue(reply(text("partial"), wait(g), text("never")));
		const closed = deferred();
		const { url } = await listen(async (req, res, body) => {
			req.socket.on("close", () => {
				closed.resolve();
				g.release();
			});
			await relayFrom(relay)(req, res, body);
		});
		const controller = new AbortController();
		const stream = streamProxy(
			testModel(),
			{ messages: [] },
			{ proxyUrl: url, authToken: "x", signal: controller.signal },
		);
		for await (const event of stream) {
			if (event.type === "text_end") controller.abort();
		}
		const result = await stream.result();
		expect(result).toMatchObject({
			stopReason: "aborted",
			errorInfo: { kind: "aborted" },
			content: [{ type: "text", text: "partial" }],
		});
		// The server sees the connection go away (the test would time out otherwise).
		await closed.promise;
	});
});
