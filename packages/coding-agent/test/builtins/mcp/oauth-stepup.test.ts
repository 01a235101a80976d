// OAuth scope step-up against a loopback authorization server: the first
// sign-in gets the advertised scope; a tool that needs more answers 403
// `WWW-Authenticate: Bearer error="insufficient_scope" scope="…"`; the call
// fails saying the server needs sign-in again (no pointless refresh loop),
// the next sign-in asks for the larger scope through the SDK's auth flow,
// and the tool then works.
import { afterEach, describe, expect, it } from "vitest";
import { storedCredentials } from "../../../src/builtins/mcp/credential-store.js";
import { login } from "../../../src/builtins/mcp/oauth.js";
import { registerResourceTools } from "../../../src/builtins/mcp/resources.js";
import { type OAuthFixture, startOAuthFixture } from "../../support/mcp/oauth.js";
import { configured, createHarness, type Harness, run } from "./harness.js";

let oauth: OAuthFixture | undefined;
let h: Harness | undefined;
afterEach(async () => {
	await h?.close();
	await oauth?.close();
	h = undefined;
	oauth = undefined;
});

/** The "browser": follows the authorization page's redirect to pi's loopback callback. */
async function approve(message: string): Promise<void> {
	const url = message.slice(message.indexOf("http"));
	const page = await fetch(url, { redirect: "manual" });
	const landing = page.headers.get("location");
	if (!landing) throw new Error(`the authorization page did not redirect: ${page.status}`);
	await fetch(landing);
}

const signIn = (harness: Harness, server: ReturnType<typeof configured>) =>
	login(harness.agentDir, server, { notify: (m) => void approve(m), timeoutMs: 30_000 });

/**
 * A server "secure" with one tool and resources whose `stepUp.method` asks for `stepUp.scope` beyond the
 * first sign-in's ("mcp:read"); the resource tools registered, signed in once and reconnected.
 */
async function signedInWithResources(stepUp: { method: string; scope: string }) {
	const fixture = await startOAuthFixture(
		{ name: "secure", tools: 1, resources: true },
		{ stepUp, scopesSupported: ["mcp:read"] },
	);
	oauth = fixture;
	const server = configured("secure", { url: fixture.url, exposure: "direct" });
	const harness = createHarness([server], { oauth: true });
	h = harness;
	registerResourceTools(
		{ registerTool: (t: never) => harness.tools.set((t as { name: string }).name, t) } as never,
		harness.manager,
		"direct",
	);
	harness.manager.startAll();
	await harness.manager.waitFor("all");
	await signIn(harness, server);
	await harness.manager.reconnect("secure");
	return { harness, server, fixture };
}

describe("MCP OAuth scope step-up", () => {
	it("a 403 insufficient_scope leads to a sign-in with the larger scope, then the tool works", async () => {
		oauth = await startOAuthFixture(
			{ name: "secure", tools: 2 },
			{ stepUp: { tool: "tool_1", scope: "mcp:write" }, scopesSupported: ["mcp:read"] },
		);
		const server = configured("secure", { url: oauth.url, exposure: "direct" });
		h = createHarness([server], { oauth: true });
		h.manager.startAll();
		await h.manager.waitFor("all");
		expect(h.manager.servers.get("secure")?.state).toBe("needs-auth");

		await signIn(h, server);
		expect(oauth.authorizations[0].get("scope")).toBe("mcp:read");
		await h.manager.reconnect("secure");
		expect(h.manager.servers.get("secure")?.state).toBe("connected");
		const first = await run(h, "mcp__secure__tool_0", { text: "hi" });
		expect(first.isError).not.toBe(true);

		// tool_1 needs mcp:write: the server steps up; pi does not refresh in a loop, it asks for a sign-in.
		const refreshesBefore = oauth.tokenRequests.filter((r) => r.get("grant_type") === "refresh_token").length;
		await expect(run(h, "mcp__secure__tool_1", { text: "hi" })).rejects.toThrow(
			/MCP server "secure" needs sign-in again for tools\/call tool_1/,
		);
		expect(h.manager.servers.get("secure")?.state).toBe("needs-auth");
		expect(h.reports.some((r) => /"secure" needs sign-in again/.test(r.message))).toBe(true);
		expect(storedCredentials(h.agentDir, server)?.requestedScope).toBe("mcp:read mcp:write");
		expect(oauth.tokenRequests.filter((r) => r.get("grant_type") === "refresh_token").length).toBe(refreshesBefore);

		// The next sign-in goes to the authorization page (not a refresh) with the larger scope.
		await signIn(h, server);
		expect(oauth.authorizations).toHaveLength(2);
		expect(oauth.authorizations[1].get("scope")).toBe("mcp:read mcp:write");
		expect(storedCredentials(h.agentDir, server)?.requestedScope).toBeUndefined();
		await h.manager.reconnect("secure");
		const stepped = await run(h, "mcp__secure__tool_1", { text: "now" });
		expect(stepped.isError).not.toBe(true);
		expect(JSON.stringify(stepped.content)).toContain("now");
	}, 60_000);

	it("a configured scope is kept and the requested one added", async () => {
		oauth = await startOAuthFixture({ name: "secure", tools: 2 }, { stepUp: { tool: "tool_1", scope: "mcp:write" } });
		const server = configured("secure", { url: oauth.url, exposure: "direct", oauth: { scope: "profile" } });
		h = createHarness([server], { oauth: true });
		h.manager.startAll();
		await h.manager.waitFor("all");
		await signIn(h, server);
		expect(oauth.authorizations[0].get("scope")).toBe("profile");
		await h.manager.reconnect("secure");
		await expect(run(h, "mcp__secure__tool_1", { text: "x" })).rejects.toThrow(/needs sign-in again/);
		await signIn(h, server);
		expect(oauth.authorizations[1].get("scope")).toBe("profile mcp:write");
		await h.manager.reconnect("secure");
		expect((await run(h, "mcp__secure__tool_1", { text: "y" })).isError).not.toBe(true);
	}, 60_000);

	it("a step-up on resources/read or resources/list is handled like one on tools/call", async () => {
		const { harness, server, fixture } = await signedInWithResources({
			method: "resources/read",
			scope: "mcp:read-files",
		});
		expect(harness.manager.servers.get("secure")?.state).toBe("connected");
		// Listing is allowed with the first scope; reading asks for more.
		const listed = await run(harness, "list_mcp_resources", { server: "secure" });
		expect(JSON.stringify(listed.content)).toContain("file:///notes.txt");
		const refreshesBefore = fixture.tokenRequests.filter((r) => r.get("grant_type") === "refresh_token").length;
		await expect(run(harness, "read_mcp_resource", { server: "secure", uri: "file:///notes.txt" })).rejects.toThrow(
			/MCP server "secure" needs sign-in again for resources\/read file:\/\/\/notes\.txt/,
		);
		expect(harness.manager.servers.get("secure")?.state).toBe("needs-auth");
		expect(storedCredentials(harness.agentDir, server)?.requestedScope).toBe("mcp:read mcp:read-files");
		expect(fixture.tokenRequests.filter((r) => r.get("grant_type") === "refresh_token").length).toBe(refreshesBefore);

		await signIn(harness, server);
		expect(fixture.authorizations[1].get("scope")).toBe("mcp:read mcp:read-files");
		await harness.manager.reconnect("secure");
		const read = await run(harness, "read_mcp_resource", { server: "secure", uri: "file:///notes.txt" });
		expect(JSON.stringify(read.content)).toContain("remember the milk");
	}, 60_000);

	it("a step-up on resources/list marks the server too (no retry, no refresh)", async () => {
		const { harness } = await signedInWithResources({ method: "resources/list", scope: "mcp:list" });
		await expect(run(harness, "list_mcp_resources", { server: "secure" })).rejects.toThrow(
			/needs sign-in again for resources\/list/,
		);
		expect(harness.manager.servers.get("secure")?.state).toBe("needs-auth");
		expect(harness.reports.some((r) => /"secure" needs sign-in again/.test(r.message))).toBe(true);
	}, 60_000);
});
