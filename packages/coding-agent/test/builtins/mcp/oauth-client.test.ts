// How pi identifies itself at an MCP sign-in, against a loopback
// authorization server: pi's Client ID Metadata Document (served over HTTPS
// with a certificate made for the test; the authorization server fetches it
// and trusts only that certificate), the server-specific document and
// redirect path when the server does not send `iss` (RFC 9207), dynamic
// registration when documents are not supported or `dcr` is asked for, a
// clear failure for `cimd` without support, and a pre-registered client
// with its secret. Every case ends with a working connection.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, get, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseServerEntry } from "../../../src/builtins/mcp/config.js";
import { storedCredentials } from "../../../src/builtins/mcp/credential-store.js";
import { login } from "../../../src/builtins/mcp/oauth.js";
import { callbackId, clientMetadataDocument } from "../../../src/builtins/mcp/oauth-client.js";
import { type OAuthFixture, type OAuthFixtureOptions, startOAuthFixture } from "../../support/mcp/oauth.js";
import { configured, createHarness, type Harness } from "./harness.js";

const hasOpenssl = (() => {
	try {
		execFileSync("openssl", ["version"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
})();

/** A self-signed certificate for 127.0.0.1, made with the openssl CLI for this run. */
function makeCertificate(dir: string): { key: string; cert: string } {
	const key = join(dir, "key.pem");
	const cert = join(dir, "cert.pem");
	execFileSync(
		"openssl",
		[
			"req",
			"-x509",
			"-newkey",
			"ec",
			"-pkeyopt",
			"ec_paramgen_curve:prime256v1",
			"-nodes",
			"-keyout",
			key,
			"-out",
			cert,
			"-days",
			"1",
			"-subj",
			"/CN=127.0.0.1",
			"-addext",
			"subjectAltName=IP:127.0.0.1",
		],
		{ stdio: "ignore" },
	);
	return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
}

let certDir: string | undefined;
let docs: Server | undefined;
let docsBase = "";
let cert = "";
/** Document fetches the HTTPS server answered. */
const served: string[] = [];

beforeAll(async () => {
	if (!hasOpenssl) return;
	certDir = mkdtempSync(join(tmpdir(), "pi-mcp-cimd-"));
	const pair = makeCertificate(certDir);
	cert = pair.cert;
	docs = createServer(pair, (req, res) => {
		const url = new URL(req.url ?? "/", docsBase);
		const m = /^\/oauth(?:\/([\w-]+))?\/client\.json$/.exec(url.pathname);
		if (!m) {
			res.writeHead(404).end();
			return;
		}
		served.push(url.href);
		res.writeHead(200, { "content-type": "application/json" });
		res.end(JSON.stringify(clientMetadataDocument(url.href, m[1] ? `/callback/${m[1]}` : "/callback")));
	});
	await new Promise<void>((r) => docs?.listen(0, "127.0.0.1", () => r()));
	docsBase = `https://127.0.0.1:${(docs.address() as { port: number }).port}`;
}, 30_000);

afterAll(async () => {
	if (docs) {
		docs.closeAllConnections();
		await new Promise<void>((r) => docs?.close(() => r()));
	}
	if (certDir) rmSync(certDir, { recursive: true, force: true });
});

/** The authorization server's fetch of a document: HTTPS trusting only the test's certificate. */
function fetchDocument(url: string): Promise<unknown> {
	return new Promise((resolve, reject) => {
		get(url, { ca: cert }, (res) => {
			const chunks: Buffer[] = [];
			res.on("data", (c: Buffer) => chunks.push(c));
			res.on("end", () => {
				if (res.statusCode !== 200) reject(new Error(`document fetch: ${res.statusCode}`));
				else resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
			});
		}).on("error", reject);
	});
}

let oauth: OAuthFixture | undefined;
let h: Harness | undefined;
afterEach(async () => {
	await h?.close();
	await oauth?.close();
	h = undefined;
	oauth = undefined;
	delete process.env.PI_MCP_TEST_SECRET;
});

/** The "browser": follows the authorization page's redirect to pi's loopback callback. */
async function approve(message: string): Promise<void> {
	const url = message.slice(message.indexOf("http"));
	const page = await fetch(url, { redirect: "manual" });
	const landing = page.headers.get("location");
	if (!landing) return; // a refused request: the sign-in times out or fails on its own
	await fetch(landing);
}

async function signInAndConnect(
	fixture: OAuthFixtureOptions,
	oauthConfig: Record<string, unknown> | undefined,
): Promise<{ fixture: OAuthFixture; harness: Harness; server: ReturnType<typeof configured> }> {
	oauth = await startOAuthFixture({ name: "secure", tools: 1 }, fixture);
	const server = configured("secure", { url: oauth.url, ...(oauthConfig ? { oauth: oauthConfig } : {}) });
	h = createHarness([server], { oauth: true });
	await login(h.agentDir, server, {
		notify: (m) => void approve(m),
		timeoutMs: 30_000,
		clientMetadataBaseUrl: `${docsBase}/oauth`,
	});
	await h.manager.reconnect("secure");
	expect(h.manager.servers.get("secure")?.state).toBe("connected");
	return { fixture: oauth, harness: h, server };
}

describe.skipIf(!hasOpenssl)("MCP sign-in: how pi identifies itself", () => {
	it("uses pi's Client ID Metadata Document when the server supports documents and iss", async () => {
		const { fixture, harness, server } = await signInAndConnect({ fetchDocument, issParameter: true }, undefined);
		const clientId = `${docsBase}/oauth/client.json`;
		expect(fixture.clients.size).toBe(0); // nothing registered
		expect(fixture.documentsFetched).toEqual([clientId]);
		expect(served).toContain(clientId);
		const asked = fixture.authorizations[0];
		expect(asked.get("client_id")).toBe(clientId);
		expect(asked.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		expect(fixture.tokenRequests[0].get("client_id")).toBe(clientId);
		const stored = storedCredentials(harness.agentDir, server);
		expect(stored?.clientInformation?.client_id).toBe(clientId);
		expect(JSON.stringify(stored)).not.toContain("client_secret");
	}, 60_000);

	it("uses the server-specific document and redirect path when the server does not send iss", async () => {
		const { fixture } = await signInAndConnect({ fetchDocument, issParameter: false }, undefined);
		const id = callbackId(fixture.url);
		expect(id).toMatch(/^[\w-]{12}$/);
		expect(fixture.authorizations[0].get("client_id")).toBe(`${docsBase}/oauth/${id}/client.json`);
		expect(fixture.authorizations[0].get("redirect_uri")).toMatch(
			new RegExp(`^http://127\\.0\\.0\\.1:\\d+/callback/${id}$`),
		);
		expect(fixture.clients.size).toBe(0);
	}, 60_000);

	it("registers a client when the server does not support documents", async () => {
		const { fixture } = await signInAndConnect({}, undefined);
		expect(fixture.documentsFetched).toEqual([]);
		expect(fixture.clients.size).toBe(1);
		expect([...fixture.clients.values()][0].client_name).toBe("pi");
		expect(fixture.authorizations[0].get("client_id")).toBe("client-1");
	}, 60_000);

	it('registers with clientRegistration "dcr" or a clientName even when documents are supported', async () => {
		const dcr = await signInAndConnect({ fetchDocument, issParameter: true }, { clientRegistration: "dcr" });
		expect(dcr.fixture.documentsFetched).toEqual([]);
		expect(dcr.fixture.clients.size).toBe(1);
		await h?.close();
		await oauth?.close();
		const named = await signInAndConnect({ fetchDocument, issParameter: true }, { clientName: "Other Client" });
		expect(named.fixture.documentsFetched).toEqual([]);
		expect([...named.fixture.clients.values()][0].client_name).toBe("Other Client");
	}, 90_000);

	it('fails clearly with clientRegistration "cimd" when the server does not support documents', async () => {
		oauth = await startOAuthFixture({ name: "secure", tools: 1 }, {});
		const server = configured("secure", { url: oauth.url, oauth: { clientRegistration: "cimd" } });
		h = createHarness([server], { oauth: true });
		await expect(login(h.agentDir, server, { notify: (m) => void approve(m), timeoutMs: 30_000 })).rejects.toThrow(
			/does not accept Client ID Metadata Documents.*remove oauth\.clientRegistration "cimd"/,
		);
		expect(oauth.clients.size).toBe(0);
		expect(oauth.authorizations).toHaveLength(0);
	}, 60_000);

	it("rejects a redirect carrying another issuer (RFC 9207)", async () => {
		oauth = await startOAuthFixture(
			{ name: "secure", tools: 1 },
			{ fetchDocument, issParameter: "https://elsewhere.example" },
		);
		const server = configured("secure", { url: oauth.url });
		h = createHarness([server], { oauth: true });
		await expect(
			login(h.agentDir, server, {
				notify: (m) => void approve(m),
				timeoutMs: 30_000,
				clientMetadataBaseUrl: `${docsBase}/oauth`,
			}),
		).rejects.toThrow(/issuer https:\/\/elsewhere\.example/);
		expect(oauth.tokenRequests).toHaveLength(0);
	}, 60_000);

	it("uses a pre-registered client and its secret (from the environment), never registering", async () => {
		process.env.PI_MCP_TEST_SECRET = "s3cret";
		const { fixture, harness, server } = await signInAndConnect(
			{
				noRegistration: true,
				fetchDocument,
				issParameter: true,
				preRegistered: {
					clientId: "my-client",
					clientSecret: "s3cret",
					redirectUris: ["http://127.0.0.1:0/callback"],
				},
			},
			{ clientId: "my-client", clientSecret: ["$", "{PI_MCP_TEST_SECRET}"].join("") },
		);
		expect(fixture.documentsFetched).toEqual([]);
		expect(fixture.authorizations[0].get("client_id")).toBe("my-client");
		expect(fixture.tokenRequests).toHaveLength(1);
		// The secret reached the token endpoint and is not written to the credential store.
		expect(JSON.stringify(storedCredentials(harness.agentDir, server))).not.toContain("s3cret");
	}, 60_000);
});

describe("oauth.clientRegistration in mcp.json", () => {
	it("refuses cimd together with clientId, clientName or a callback the documents do not list", () => {
		const entry = (oauth: Record<string, unknown>) => () =>
			parseServerEntry({ url: "https://mcp.example.com/mcp", oauth }, process.cwd());
		expect(entry({ clientRegistration: "cimd", clientId: "x" })).toThrow(/cannot be combined with clientId/);
		expect(entry({ clientRegistration: "cimd", clientName: "x" })).toThrow(/cannot be combined/);
		expect(entry({ clientRegistration: "cimd", callbackUrl: "http://127.0.0.1:8765/cb" })).toThrow(/path \/callback/);
		expect(entry({ clientRegistration: "cimd", callbackUrl: "http://localhost:8765/callback" })).not.toThrow();
		expect(entry({ clientRegistration: "dcr", clientName: "x" })).not.toThrow();
	});
});
