// `pi mcp add|list|get|remove|login|logout` in the BUILT pi: config edits
// that keep other content, real connections for list/get (exit 1 when a
// server is broken), and an OAuth sign-in against a loopback authorization
// server (discovery, dynamic registration, PKCE, loopback redirect), with
// tokens stored 0600 and never in logs or sessions.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, CLI, textReply, toolReply, useCliSandbox } from "../../cli/support.js";
import { type OAuthFixture, startOAuthFixture } from "../../support/mcp/oauth.js";
import { STDIO_SERVER } from "./harness.js";

let oauth: OAuthFixture | undefined;
const sb = useCliSandbox({
	beforeClose: async () => {
		await oauth?.close();
		oauth = undefined;
	},
});

const mcpJson = () => JSON.parse(readFileSync(join(sb.agentDir, "mcp.json"), "utf8"));

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
		d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)],
	);
}

describe("pi mcp (built CLI)", () => {
	it("add, get, list, remove: edits keep other keys; list connects and fails on a broken server", async () => {
		writeFileSync(join(sb.agentDir, "mcp.json"), JSON.stringify({ autoEnableCodemode: false, mcpServers: {} }));
		let r = await sb.run([
			"mcp",
			"add",
			"echo",
			"--env",
			"A=1",
			"--exposure",
			"direct",
			"--",
			process.execPath,
			STDIO_SERVER,
			JSON.stringify({ name: "echo", tools: 3 }),
		]);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain('Added MCP server "echo"');
		r = await sb.run(["mcp", "add", "web", "--url", "https://example.com/mcp", "--bearer-token-env-var", "WEB_TOKEN"]);
		expect(r.code).toBe(0);
		const doc = mcpJson();
		expect(doc.autoEnableCodemode).toBe(false);
		expect(doc.mcpServers.echo).toEqual({
			command: process.execPath,
			args: [STDIO_SERVER, JSON.stringify({ name: "echo", tools: 3 })],
			env: { A: "1" },
			exposure: "direct",
		});
		expect(doc.mcpServers.web).toEqual({
			url: "https://example.com/mcp",
			headers: { Authorization: ["Bearer $", "{WEB_TOKEN}"].join("") },
		});
		expect(statSync(join(sb.agentDir, "mcp.json")).mode & 0o777).toBe(0o600);

		r = await sb.run(["mcp", "get", "echo", "--json"]);
		expect(r.code).toBe(0);
		const got = JSON.parse(r.stdout).servers[0];
		expect(got.state).toBe("connected");
		expect(got.tools.map((t: { name: string }) => t.name)).toEqual([
			"mcp__echo__tool_0",
			"mcp__echo__tool_1",
			"mcp__echo__tool_2",
		]);

		// web cannot connect (no network): list says so and exits 1.
		r = await sb.run(["mcp", "list"]);
		expect(r.code).toBe(1);
		expect(r.stdout).toMatch(/✓ echo: connected, 3 tools/);
		expect(r.stdout).toMatch(/✗ web: failed/);

		r = await sb.run(["mcp", "remove", "web"]);
		expect(r.code).toBe(0);
		expect(Object.keys(mcpJson().mcpServers)).toEqual(["echo"]);
		r = await sb.run(["mcp", "list"]);
		expect(r.code).toBe(0);
		r = await sb.run(["mcp", "add", "bad", "--url", "ftp://x"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain('"url" must be http(s)');
		r = await sb.run(["mcp", "add", "sse", "--url", "http://x/sse", "--exposure", "sometimes"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("--exposure must be one of codemode, deferred, direct, hidden");
	}, 90_000);

	it("add -l writes the project file; list reads it only once the project is trusted", async () => {
		const r = await sb.run(["mcp", "add", "-l", "proj", "--", process.execPath, STDIO_SERVER, "{}"]);
		expect(r.code).toBe(0);
		expect(existsSync(join(sb.cwd, ".pi", "mcp.json"))).toBe(true);
		const untrusted = await sb.run(["mcp", "list"]);
		expect(untrusted.stdout).toContain("No MCP servers configured");
		writeFileSync(join(sb.agentDir, "trust.json"), JSON.stringify({ [sb.cwd]: true }));
		const trusted = await sb.run(["mcp", "list"]);
		expect(trusted.stdout).toMatch(/✓ proj: connected, 0 tools, exposure codemode, project/);
	}, 60_000);

	it("OAuth: list says sign-in is needed; login signs in through the loopback redirect; tokens stay out of logs and sessions", async () => {
		oauth = await startOAuthFixture();
		writeFileSync(
			join(sb.agentDir, "mcp.json"),
			JSON.stringify({ mcpServers: { secure: { url: oauth.url, exposure: "direct" } } }),
		);
		let r = await sb.run(["mcp", "list"]);
		expect(r.code).toBe(1);
		expect(r.stdout).toMatch(/secure: needs-auth/);

		// The test plays the browser: it opens the printed URL; the authorization server approves at once.
		const login = spawn(process.execPath, [CLI, "mcp", "login", "secure", "--no-browser", "--timeout", "60"], {
			cwd: sb.cwd,
			env: sb.env,
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		login.stderr.on("data", (d) => {
			stderr += d;
		});
		const authUrl = await new Promise<string>((resolveUrl, reject) => {
			login.stdout.on("data", (d) => {
				stdout += d;
				const m = /Open this URL to sign in for MCP server "secure": (\S+)/.exec(stdout);
				if (m) resolveUrl(m[1]);
			});
			login.on("close", () => reject(new Error(`login ended early: ${stdout}${stderr}`)));
		});
		const approved = await fetch(authUrl, { redirect: "manual" });
		expect(approved.status).toBe(302);
		const callback = await fetch(approved.headers.get("location") as string);
		expect(await callback.text()).toContain("Signed in");
		const code = await new Promise<number | null>((r2) => login.on("close", r2));
		expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
		expect(stdout).toContain('Signed in to MCP server "secure"');

		// PKCE S256 and a registered client named "pi" with a 127.0.0.1 callback.
		const auth = oauth.authorizations[0];
		expect(auth.get("code_challenge_method")).toBe("S256");
		expect(auth.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		expect([...oauth.clients.values()][0].client_name).toBe("pi");

		const authFile = join(sb.agentDir, "mcp-auth.json");
		expect(statSync(authFile).mode & 0o777).toBe(0o600);
		const [token] = [...oauth.tokens];
		expect(readFileSync(authFile, "utf8")).toContain(token);

		r = await sb.run(["mcp", "list"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/✓ secure: connected, 2 tools/);

		// A session uses the stored token; the token reaches neither the session file nor mcp.log.
		sb.fake.enqueue(toolReply("mcp__secure__tool_0", { text: "authorised" }), textReply("done"));
		r = await sb.run(["-p", "--model", "fake/fake-model", "call it"]);
		expect(r.stdout).toBe("done\n");
		expect(JSON.stringify(body(sb.fake, 1).messages)).toContain("secure/tool_0: authorised");
		const leaks = filesUnder(sb.agentDir).filter(
			(f) => !f.endsWith("mcp-auth.json") && readFileSync(f, "utf8").includes(token),
		);
		expect(leaks).toEqual([]);

		r = await sb.run(["mcp", "logout", "secure"]);
		expect(r.stdout).toContain('Signed out of MCP server "secure"');
		expect(readFileSync(authFile, "utf8")).not.toContain(token);
		r = await sb.run(["mcp", "list"]);
		expect(r.stdout).toMatch(/secure: needs-auth/);
	}, 120_000);
});
