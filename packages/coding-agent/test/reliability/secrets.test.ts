// RELIABILITY.md "credentials at rest" — the leak scan: distinctive fake API
// keys given through the environment, auth.json and --api-key are sent to the
// (fake) provider, which echoes them back in error bodies. Across print, json
// and rpc runs of the BUILT CLI, no key may appear in stdout, stderr, the
// session files or any other file pi wrote (only the user's own auth.json
// holds its key). Exports too: an RPC export_html joins that scan, and a
// session whose text holds every configured secret (pasted by the user,
// echoed by a tool) exports through `pi --export` and RPC `export_html`
// with each of them redacted.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest, Script } from "../../../ai/test/support/fake-provider/server.js";
import { textReply, toolReply } from "../cli/support.js";
import { useRpcSandbox } from "../rpc/support.js";
import { allFiles } from "./support.js";

const KEYS = {
	env: "sk-relENV-7c1f0b9e4d2a6358aa01",
	auth: "sk-relAUTH-3e8d5a1c9b7f2460bb02",
	cli: "sk-relCLI-9a2b4c6d8e0f1357cc03",
};
const MODEL = ["--model", "fake/fake-model"];
const rpc = useRpcSandbox();
const sb = rpc.sb;

function keyOf(req: RecordedRequest): string {
	const h = req.headers.authorization;
	return typeof h === "string" ? h.replace(/^Bearer /, "") : "";
}

/** An error whose body repeats the key the request carried (as some providers and proxies do). */
function echoKey(status: number): Script {
	return {
		kind: "handler",
		handle: (req, res: ServerResponse) => {
			res.writeHead(status, { "content-type": "application/json" });
			res.end(
				JSON.stringify({
					error: { message: `Incorrect API key provided: ${keyOf(req)} (header ${String(req.headers.authorization)})` },
				}),
			);
		},
	};
}

function expectNoKeyAnywhere(outputs: string[]): void {
	const files = allFiles(sb.root);
	expect(files.some((f) => f.endsWith(".jsonl"))).toBe(true); // sessions were written and are scanned
	for (const key of Object.values(KEYS)) {
		for (const text of outputs) expect(text).not.toContain(key);
		for (const f of files) {
			if (f === join(sb.agentDir, "auth.json")) continue; // the user's own store
			expect(readFileSync(f, "utf8"), f).not.toContain(key);
		}
	}
}

describe("API keys never leak", () => {
	it("env, auth.json and --api-key keys stay out of outputs, sessions and every written file", async () => {
		const outputs: string[] = [];
		// 1. The key comes from an environment variable named in models.json; print mode.
		sb.writeModels({ apiKey: "PI_REL_SECRET_ENV" });
		sb.fake.enqueue(toolReply("bash", { command: "echo tool ran" }), textReply("done with env key"));
		let r = await sb.run(["-p", ...MODEL, "use the env key"], { env: { PI_REL_SECRET_ENV: KEYS.env } });
		expect(r.code).toBe(0);
		outputs.push(r.stdout, r.stderr);
		sb.fake.enqueue(echoKey(401));
		r = await sb.run(["-p", ...MODEL, "-c", "env key rejected"], { env: { PI_REL_SECRET_ENV: KEYS.env } });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("Incorrect API key provided");
		outputs.push(r.stdout, r.stderr);

		// 2. The key comes from auth.json; json mode, with a retried 500 and a final 401.
		sb.writeModels({ apiKey: undefined });
		writeFileSync(join(sb.agentDir, "auth.json"), JSON.stringify({ fake: { type: "api_key", key: KEYS.auth } }), {
			mode: 0o600,
		});
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ retry: { baseDelayMs: 1, maxDelayMs: 10 } }));
		sb.fake.enqueue(echoKey(500), echoKey(401));
		r = await sb.run(["--mode", "json", ...MODEL, "use the auth key"]);
		expect(r.code).toBe(1);
		expect(r.stdout).toContain("auto_retry_start");
		outputs.push(r.stdout, r.stderr);

		// 3. The key comes from --api-key; rpc mode.
		sb.fake.enqueue(echoKey(401), textReply("rpc answer"));
		const pi = rpc.spawn(["--api-key", KEYS.cli]);
		pi.send(`${JSON.stringify({ id: "p1", type: "prompt", message: "use the cli key" })}\n`);
		await pi.waitFor((rec) => rec.type === "agent_settled");
		pi.send(`${JSON.stringify({ id: "p2", type: "prompt", message: "again" })}\n`);
		await pi.waitFor(
			(rec) => rec.type === "agent_settled" && pi.records.filter((x) => x.type === "agent_settled").length === 2,
		);
		pi.send(`${JSON.stringify({ id: "s", type: "get_state" })}\n`);
		pi.send(`${JSON.stringify({ id: "m", type: "get_messages" })}\n`);
		pi.send(`${JSON.stringify({ id: "x", type: "export_html" })}\n`);
		const exported = await pi.waitFor((rec) => rec.type === "response" && rec.id === "x");
		expect(exported.success).toBe(true); // the page lands in sb.cwd and is scanned with every other file
		expect(await pi.end()).toBe(0); // all it wrote is on disk and in its output before the scan
		expect(pi.stdout()).toContain("Incorrect API key provided");
		outputs.push(pi.stdout(), pi.stderr());

		// Each key did reach the provider, so the scan is meaningful.
		const sent = sb.fake.requests.map(keyOf);
		expect(sent).toContain(KEYS.env);
		expect(sent).toContain(KEYS.auth);
		expect(sent).toContain(KEYS.cli);
		expectNoKeyAnywhere(outputs);
	}, 60_000); // five pi processes one after another

	it("exports redact every configured secret the session text holds (--export and RPC export_html)", async () => {
		const secrets = {
			...KEYS,
			header: "hdr-relHEADER-5b6c7d8e9f00dd04",
			access: "oat-relACCESS-1a2b3c4d5e6fee05",
			refresh: "ort-relREFRESH-6f5e4d3c2b1aff06",
		};
		sb.writeModels({ apiKey: "PI_REL_SECRET_ENV", headers: { "x-relay-token": secrets.header } });
		writeFileSync(
			join(sb.agentDir, "auth.json"),
			JSON.stringify({
				other: { type: "api_key", key: secrets.auth },
				oauthprov: { type: "oauth", access: secrets.access, refresh: secrets.refresh, expires: 0 },
			}),
			{ mode: 0o600 },
		);
		const leak = Object.values(secrets).join(" and ");
		const file = join(sb.cwd, "2026-11-30T10-00-00-000Z_0190f000-0000-7000-8000-000000000001.jsonl");
		const header = {
			type: "session",
			version: 3,
			id: "0190f000-0000-7000-8000-000000000001",
			timestamp: "2026-11-30T10:00:00.000Z",
			cwd: sb.cwd,
		};
		const at = "2026-11-30T10:00:01.000Z";
		const entries = [
			{
				type: "message",
				id: "a1",
				parentId: null,
				timestamp: at,
				message: { role: "user", content: [{ type: "text", text: `my keys: ${leak}` }], timestamp: 1 },
			},
			{
				type: "message",
				id: "a2",
				parentId: "a1",
				timestamp: at,
				message: {
					role: "toolResult",
					toolCallId: "c",
					toolName: "bash",
					content: [{ type: "text", text: `env dump\n${leak}` }],
					isError: false,
					timestamp: 2,
				},
			},
			{ type: "session_info", id: "a3", parentId: "a2", timestamp: at, name: `named ${secrets.cli}` },
		];
		writeFileSync(file, `${[header, ...entries].map((e) => JSON.stringify(e)).join("\n")}\n`);
		const check = (html: string) => {
			expect(html).toContain("[redacted]");
			for (const [name, key] of Object.entries(secrets)) expect(html.includes(key), name).toBe(false);
		};
		const env = { PI_REL_SECRET_ENV: secrets.env };
		const r = await sb.run(["--export", file, "cli.html", "--api-key", secrets.cli], { env });
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		check(readFileSync(join(sb.cwd, "cli.html"), "utf8"));

		sb.env.PI_REL_SECRET_ENV = secrets.env;
		const pi = rpc.spawn(["--session", file, "--api-key", secrets.cli]);
		pi.child.stdin.write(`${JSON.stringify({ id: "x", type: "export_html", outputPath: join(sb.cwd, "rpc.html") })}\n`);
		const res = await pi.waitFor((rec) => rec.type === "response" && rec.id === "x");
		expect(res).toMatchObject({ success: true, data: { path: join(sb.cwd, "rpc.html") } });
		check(readFileSync(join(sb.cwd, "rpc.html"), "utf8"));
	});

	it("secrets configured for other providers are redacted from the session from start-up, though no request used them", async () => {
		const unused = {
			auth: "sk-relOTHER-0d1e2f3a4b5c6d7e8f09",
			access: "oat-relIDLE-8e7d6c5b4a3928170a10",
			env: "ghp-relENVTOKEN-44556677889900aabb11",
		};
		writeFileSync(
			join(sb.agentDir, "auth.json"),
			JSON.stringify({
				other: { type: "api_key", key: unused.auth },
				oauthprov: { type: "oauth", access: unused.access, refresh: "r", expires: 0 },
			}),
			{ mode: 0o600 },
		);
		sb.writeModels();
		const leak = Object.values(unused).join(" ");
		// A tool prints them and the model repeats them: both reach the session file.
		sb.fake.enqueue(toolReply("bash", { command: `echo ${leak}` }), textReply(`you have ${leak}`));
		const r = await sb.run(["-p", ...MODEL, "show my tokens"], { env: { GH_RELAY_TOKEN: unused.env } });
		expect(r.code, r.stderr).toBe(0);
		const sessions = allFiles(sb.root).filter((f) => f.endsWith(".jsonl"));
		expect(sessions.length).toBeGreaterThan(0);
		const text = sessions.map((f) => readFileSync(f, "utf8")).join("\n");
		expect(text).toContain("[redacted]");
		for (const [name, key] of Object.entries(unused)) expect(text.includes(key), name).toBe(false);
	});

	it("no committed test fixture holds anything shaped like a real provider key", () => {
		const packages = join(__dirname, "../../..");
		const shapes = [
			/sk-ant-(?:api|oat)\d{2}-[A-Za-z0-9_-]{40,}/,
			/sk-(?:proj-)?[A-Za-z0-9]{40,}/,
			/AIza[0-9A-Za-z_-]{35}/,
			/xai-[A-Za-z0-9]{50,}/,
			/gh[pousr]_[A-Za-z0-9]{36}/,
			/ya29\.[0-9A-Za-z_-]{40,}/,
		];
		const fixtureDirs = readdirSync(packages).flatMap((pkg) => {
			const dirs = [join(packages, pkg, "test", "fixtures"), join(packages, pkg, "test", "session", "fixtures")];
			return dirs.filter((d) => {
				try {
					return statSync(d).isDirectory();
				} catch {
					return false;
				}
			});
		});
		const files = fixtureDirs.flatMap(allFiles);
		expect(files.length).toBeGreaterThan(20);
		const hits: string[] = [];
		for (const f of files) {
			const text = readFileSync(f, "utf8");
			for (const shape of shapes) {
				const m = shape.exec(text);
				if (m) hits.push(`${f}: ${m[0].slice(0, 12)}…`);
			}
		}
		expect(hits).toEqual([]);
	});
});
