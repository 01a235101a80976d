// Issue 21, leaks (extends secrets.test.ts's scan): through the BUILT CLI, no
// configured secret may reach stdout, stderr or any file pi wrote when
// - the Anthropic stream carries an in-stream `event: error` quoting the key;
// - models.json headers carry secrets (literal or from the environment) and
//   the provider echoes the request headers back;
// - a header value is invalid (the HTTP layer's exception quotes it);
// - the baseUrl holds `user:pass@`.
import { readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Script } from "../../../ai/test/support/fake-provider/server.js";
import { useCliSandbox } from "../cli/support.js";
import { allFiles } from "./support.js";

const MODEL = ["--model", "fake/fake-model"];
const sb = useCliSandbox();

/** No secret in the outputs nor in any file under the sandbox except the config files that hold them. */
function expectNoSecret(secrets: string[], outputs: string[]): void {
	const files = allFiles(sb.root).filter((f) => !f.endsWith("models.json") && !f.endsWith("auth.json"));
	expect(files.some((f) => f.endsWith(".jsonl"))).toBe(true);
	for (const secret of secrets) {
		for (const text of outputs) expect(text).not.toContain(secret);
		for (const f of files) expect(readFileSync(f, "utf8"), f).not.toContain(secret);
	}
}

function headerDump(req: IncomingMessage | { headers: Record<string, unknown> }): string {
	return Object.entries(req.headers)
		.map(([k, v]) => `${k}: ${String(v)}`)
		.join("; ");
}

/** A 401 whose message repeats every request header. */
const echoHeaders401: Script = {
	kind: "handler",
	handle: (req, res: ServerResponse) => {
		res.writeHead(401, { "content-type": "application/json" });
		res.end(JSON.stringify({ error: { message: `Rejected request with headers ${headerDump(req)}` } }));
	},
};

describe("secrets never leak (issue 21)", () => {
	it("the Anthropic adapter's in-stream `event: error` quoting the key is redacted everywhere", async () => {
		const KEY = "sk-ant-relSTREAM-5d7c9e1f3a2b4c6d8e0f";
		sb.writeModels({ api: "anthropic-messages", baseUrl: sb.fake.url, apiKey: "PI_REL_ANT_KEY", compat: undefined });
		const streamError: Script = {
			kind: "handler",
			handle: (req, res: ServerResponse) => {
				res.writeHead(200, { "content-type": "text/event-stream" });
				const start = {
					type: "message_start",
					message: {
						id: "m",
						type: "message",
						role: "assistant",
						model: "fake-model",
						content: [],
						stop_reason: null,
						usage: { input_tokens: 1, output_tokens: 1 },
					},
				};
				const error = {
					type: "error",
					error: { type: "invalid_request_error", message: `bad request; headers were ${headerDump(req)}` },
				};
				res.end(
					`event: message_start\ndata: ${JSON.stringify(start)}\n\nevent: error\ndata: ${JSON.stringify(error)}\n\n`,
				);
			},
		};
		const outputs: string[] = [];
		sb.fake.enqueue(streamError);
		let r = await sb.run(["-p", ...MODEL, "hi"], { env: { PI_REL_ANT_KEY: KEY } });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("headers were");
		outputs.push(r.stdout, r.stderr);
		sb.fake.enqueue(streamError);
		r = await sb.run(["--mode", "json", ...MODEL, "hi"], { env: { PI_REL_ANT_KEY: KEY } });
		expect(r.stdout).toContain("headers were");
		outputs.push(r.stdout, r.stderr);
		expect(sb.fake.requests.map((q) => q.headers["x-api-key"])).toContain(KEY);
		expectNoSecret([KEY, KEY.slice(8)], outputs);
	});

	it("models.json header secrets, literal and from the environment, are redacted when the provider echoes them", async () => {
		const LITERAL = "lit-hdr-secret-8f2e4a6c0b1d";
		const FROM_ENV = "env-hdr-secret-3b5d7f9a1c2e";
		sb.writeModels({ headers: { "X-Lit-Token": LITERAL, "X-Env-Token": "PI_REL_HDR" } });
		sb.fake.enqueue(echoHeaders401);
		const r = await sb.run(["-p", ...MODEL, "hi"], { env: { PI_REL_HDR: FROM_ENV } });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("Rejected request with headers");
		const sent = sb.fake.requests[0].headers;
		expect(sent["x-lit-token"]).toBe(LITERAL);
		expect(sent["x-env-token"]).toBe(FROM_ENV);
		expectNoSecret([LITERAL, FROM_ENV], [r.stdout, r.stderr]);
	});

	it("an invalid header value (the HTTP layer quotes it in its exception) is redacted", async () => {
		const BAD = "bad-hdr-secret-6a8c0e2b4d\r\nInjected: 1";
		sb.writeModels({ headers: { "X-Bad-Token": "PI_REL_BAD_HDR" } });
		const r = await sb.run(["-p", ...MODEL, "hi"], { env: { PI_REL_BAD_HDR: BAD } });
		expect(r.code).toBe(1);
		expect(r.stderr.length).toBeGreaterThan(0);
		expect(sb.fake.requests).toHaveLength(0);
		expect(r.stderr).not.toContain("bad-hdr-secret-6a8c0e2b4d");
		expect(r.stdout).not.toContain("bad-hdr-secret-6a8c0e2b4d");
	});

	it("a baseUrl with user:pass@ never prints the password", async () => {
		const PASSWORD = "hunter2-url-secret-9d1f";
		const url = new URL(sb.fake.url);
		sb.writeModels({ baseUrl: `http://someone:${PASSWORD}@${url.host}/v1` });
		// The fake answers 500 (nothing scripted), which is retried: each attempt's error passes the redaction.
		// Retries 10 ms apart instead of the default 2, 4 and 8 s, which this test spent 14 s waiting on.
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ retry: { baseDelayMs: 10 } }));
		const r = await sb.run(["-p", ...MODEL, "hi"]);
		expect(sb.fake.requests).toHaveLength(4);
		expect(r.code).toBe(1);
		expect(r.stderr.length).toBeGreaterThan(0);
		expect(r.stderr).not.toContain(PASSWORD);
		expect(r.stdout).not.toContain(PASSWORD);
		const sessions = allFiles(sb.root).filter((f) => f.endsWith(".jsonl"));
		for (const f of sessions) expect(readFileSync(f, "utf8")).not.toContain(PASSWORD);
	});
});
