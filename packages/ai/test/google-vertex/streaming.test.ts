// The google-vertex adapter (@google/genai in Vertex mode) against a fake token endpoint and a fake
// Vertex server on loopback: a service-account key made here (RSA) whose token_uri points at the
// fake, the signed JWT assertion checked there, the access token sent as a bearer token to
// /v1beta1/projects/{project}/locations/{location}/publishers/google/models/{id}:streamGenerateContent;
// the token kept for the next requests until it is about to expire; express mode with an API key;
// missing credentials; a token endpoint that refuses.
import { generateKeyPairSync, verify } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { GoogleStream, googleError } from "../support/fake-provider/google.js";
import type { RecordedRequest } from "../support/fake-provider/server.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const NAMES = [
	"GOOGLE_APPLICATION_CREDENTIALS",
	"GOOGLE_CLOUD_PROJECT",
	"GCLOUD_PROJECT",
	"GOOGLE_CLOUD_LOCATION",
	"GOOGLE_CLOUD_API_KEY",
	"GOOGLE_API_KEY",
	"GEMINI_API_KEY",
	"GOOGLE_VERTEX_BASE_URL",
	"HOME",
];
const saved: Record<string, string | undefined> = {};
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
let dir: string;
const CLIENT_EMAIL = "pi-test@pi-test-project.iam.gserviceaccount.com";

const env = useFakeTarget((url) => ({
	api: "google-vertex",
	provider: "google-vertex",
	id: "gemini-2.5-flash",
	baseUrl: url,
	reasoning: true,
}));

beforeAll(() => {
	for (const name of NAMES) saved[name] = process.env[name];
	for (const name of NAMES) delete process.env[name];
	dir = mkdtempSync(join(tmpdir(), "pi-vertex-"));
	process.env.HOME = dir; // no gcloud login of the machine's user
	Object.assign(process.env, {
		GOOGLE_CLOUD_PROJECT: "pi-test-project",
		GOOGLE_CLOUD_LOCATION: "us-central1",
	});
});

/**
 * Writes a service-account key whose token_uri is the fake's and makes it the ADC file. The adapter
 * keeps one auth client (and its access token) per credentials file, so a test that needs its own
 * token requests uses its own file.
 */
function useKeyFile(name: string): string {
	const path = join(dir, name);
	writeFileSync(
		path,
		JSON.stringify({
			type: "service_account",
			project_id: "pi-test-project",
			private_key_id: "key-1",
			private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
			client_email: CLIENT_EMAIL,
			client_id: "1234567890",
			token_uri: `${env.fake.url}/token`,
		}),
	);
	process.env.GOOGLE_APPLICATION_CREDENTIALS = path;
	return path;
}
afterAll(() => {
	for (const name of NAMES) {
		if (saved[name] === undefined) delete process.env[name];
		else process.env[name] = saved[name];
	}
	rmSync(dir, { recursive: true, force: true });
});

/** The fake token endpoint: checks the RS256 JWT assertion of the service account, then issues a token. */
function tokenEndpoint(token: string, seen: Record<string, unknown>[], expiresIn = 3600) {
	return {
		kind: "handler" as const,
		handle: (req: RecordedRequest, res: ServerResponse) => {
			const form = new URLSearchParams(req.rawBody);
			const assertion = form.get("assertion") ?? "";
			const [header = "", payload = "", signature = ""] = assertion.split(".");
			const valid = verify(
				"RSA-SHA256",
				Buffer.from(`${header}.${payload}`),
				publicKey,
				Buffer.from(signature, "base64url"),
			);
			const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
			seen.push({ grantType: form.get("grant_type"), valid, ...claims });
			res.writeHead(valid ? 200 : 400, { "content-type": "application/json" });
			res.end(
				JSON.stringify(
					valid ? { access_token: token, expires_in: expiresIn, token_type: "Bearer" } : { error: "invalid_grant" },
				),
			);
		},
	};
}

const VERTEX_PATH =
	"/v1beta1/projects/pi-test-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent";

describe("google-vertex", () => {
	it("a service-account key: signed JWT to its token_uri, then the bearer token on the regional Vertex path", async () => {
		useKeyFile("service-account.json");
		const claims: Record<string, unknown>[] = [];
		env.fake.enqueueFor("/token", tokenEndpoint("ya29.fake-access-token", claims));
		env.fake.enqueueFor(
			/streamGenerateContent$/,
			new GoogleStream()
				.thought("plan")
				.text("Hel", "lo")
				.chunk([], "STOP", {
					promptTokenCount: 10,
					candidatesTokenCount: 4,
					totalTokenCount: 14,
				})
				.script(),
		);
		const message = await stream(env.model, context, { reasoning: "high" }).result();
		expect(message.errorMessage).toBeUndefined();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "plan" },
			{ type: "text", text: "Hello" },
		]);
		expect(message.usage).toMatchObject({ input: 10, output: 4 });
		expect(claims).toHaveLength(1);
		expect(claims[0]).toMatchObject({
			grantType: "urn:ietf:params:oauth:grant-type:jwt-bearer",
			valid: true,
			iss: CLIENT_EMAIL,
			// google-auth-library addresses the assertion to Google's endpoint, wherever it is sent.
			aud: "https://oauth2.googleapis.com/token",
			scope: "https://www.googleapis.com/auth/cloud-platform",
		});
		const request = env.fake.requests.find((r) => r.path.endsWith(":streamGenerateContent"));
		expect(request?.path).toBe(VERTEX_PATH);
		expect(request?.query).toBe("alt=sse");
		expect(request?.headers.authorization).toBe("Bearer ya29.fake-access-token");
		expect(request?.body).toMatchObject({
			contents: [{ role: "user", parts: [{ text: "hi" }] }],
			systemInstruction: { parts: [{ text: "Be brief." }] },
		});
	});

	it("an API key (GOOGLE_CLOUD_API_KEY) uses express mode: the key header, no token request", async () => {
		process.env.GOOGLE_CLOUD_API_KEY = "vertex-express-key";
		try {
			env.fake.enqueue(new GoogleStream().text("ok").chunk([], "STOP").script());
			const message = await stream(env.model, context).result();
			expect(message.stopReason).toBe("stop");
			expect(env.fake.requests).toHaveLength(1);
			const request = env.fake.requests[0];
			expect(request?.headers["x-goog-api-key"]).toBe("vertex-express-key");
			expect(request?.headers.authorization).toBeUndefined();
			expect(request?.path).toBe("/v1beta1/publishers/google/models/gemini-2.5-flash:streamGenerateContent");
		} finally {
			delete process.env.GOOGLE_CLOUD_API_KEY;
		}
	});

	it("the access token is fetched once for several requests, and again when it is about to expire", async () => {
		useKeyFile("cached.json");
		const claims: Record<string, unknown>[] = [];
		env.fake.enqueueFor("/token", tokenEndpoint("ya29.kept", claims, 3600));
		for (let i = 0; i < 3; i++) {
			env.fake.enqueueFor(/streamGenerateContent$/, new GoogleStream().text(`ok ${i}`).chunk([], "STOP").script());
			const message = await stream(env.model, context).result();
			expect(message.errorMessage).toBeUndefined();
			expect(message.content).toEqual([{ type: "text", text: `ok ${i}` }]);
		}
		const vertexCalls = () => env.fake.requests.filter((r) => r.path.endsWith(":streamGenerateContent"));
		const tokenCalls = () => env.fake.requests.filter((r) => r.path === "/token");
		expect(tokenCalls()).toHaveLength(1);
		expect(vertexCalls().map((r) => r.headers.authorization)).toEqual(Array(3).fill("Bearer ya29.kept"));

		// A token that expires within google-auth-library's refresh margin (5 minutes) is fetched again
		// before each request, each time with a fresh signed assertion.
		env.fake.requests.length = 0;
		useKeyFile("short-lived.json");
		const shortClaims: Record<string, unknown>[] = [];
		for (const token of ["ya29.short-1", "ya29.short-2"]) {
			env.fake.enqueueFor("/token", tokenEndpoint(token, shortClaims, 60));
			env.fake.enqueueFor(/streamGenerateContent$/, new GoogleStream().text("ok").chunk([], "STOP").script());
			const message = await stream(env.model, context).result();
			expect(message.errorMessage).toBeUndefined();
		}
		expect(tokenCalls()).toHaveLength(2);
		expect(shortClaims.map((c) => c.valid)).toEqual([true, true]);
		expect(vertexCalls().map((r) => r.headers.authorization)).toEqual(["Bearer ya29.short-1", "Bearer ya29.short-2"]);
		expect(env.fake.pending()).toBe(0);
	});

	it("HTTP errors from Vertex keep their facts (429 with retryDelay)", async () => {
		useKeyFile("errors.json");
		env.fake.enqueueFor("/token", tokenEndpoint("ya29.second", []));
		env.fake.enqueueFor(
			/streamGenerateContent$/,
			googleError(429, "RESOURCE_EXHAUSTED", "Quota exceeded", [
				{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "7s" },
			]),
		);
		const message = await stream(env.model, context).result();
		expect(message.errorInfo).toMatchObject({ kind: "rate_limit", status: 429, retryable: true, retryAfterMs: 7000 });
	});

	it("a token endpoint that refuses the key is an auth error naming Vertex's credentials", async () => {
		const refusedKey = useKeyFile("refused.json");
		// google-auth-library tries a failed token request up to three times.
		for (let i = 0; i < 3; i++)
			env.fake.enqueueFor("/token", {
				kind: "json",
				status: 400,
				body: { error: "invalid_grant", error_description: "Invalid JWT Signature." },
			});
		const message = await stream(env.model, context).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toMatchObject({ kind: "auth", status: 400, code: "token_refused", retryable: false });
		expect(message.errorMessage).toContain("invalid_grant");
		expect(message.errorMessage).toContain(refusedKey);
		expect(env.fake.requests.some((r) => r.path.endsWith(":streamGenerateContent"))).toBe(false);
	});

	it("no credentials: says what is missing and where it looked, before any request", async () => {
		const credentials = process.env.GOOGLE_APPLICATION_CREDENTIALS;
		const location = process.env.GOOGLE_CLOUD_LOCATION;
		process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, "missing.json");
		delete process.env.GOOGLE_CLOUD_LOCATION;
		try {
			const message = await stream(env.model, context).result();
			expect(message.errorInfo).toEqual({ kind: "auth", code: "missing_credentials", retryable: false });
			expect(message.errorMessage).toContain("Google Vertex AI");
			expect(message.errorMessage).toContain("GOOGLE_CLOUD_API_KEY");
			expect(message.errorMessage).toContain("GOOGLE_CLOUD_LOCATION is not set");
			expect(message.errorMessage).toContain(join(dir, "missing.json"));
			expect(env.fake.requests).toHaveLength(0);
		} finally {
			process.env.GOOGLE_APPLICATION_CREDENTIALS = credentials;
			process.env.GOOGLE_CLOUD_LOCATION = location;
		}
	});
});
