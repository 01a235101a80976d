// A server that is not there: every adapter's error names the address it
// tried and the errno (`connect ECONNREFUSED 127.0.0.1:<port>`), not just
// "fetch failed" / "Connection error.", and stays a retryable network error.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { complete } from "../src/stream.js";
import type { Api } from "../src/types.js";
import { fakeModel } from "./support/stream-helpers.js";

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	await new Promise<void>((resolve) => server.close(() => resolve()));
	if (!address || typeof address === "string") throw new Error("no port");
	return address.port;
}

const APIS: { api: Api; path: string }[] = [
	{ api: "openai-completions", path: "/v1" },
	{ api: "openai-responses", path: "/v1" },
	{ api: "anthropic-messages", path: "" },
	{ api: "google-generative-ai", path: "" },
];

describe("connection errors name host, port and errno", () => {
	for (const { api, path } of APIS) {
		it(api, async () => {
			const port = await closedPort();
			const model = fakeModel({ api, baseUrl: `http://127.0.0.1:${port}${path}` });
			const message = await complete(
				model,
				{ messages: [{ role: "user", content: "hi", timestamp: 0 }] },
				{ apiKey: "k" },
			);
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toContain(`connect ECONNREFUSED 127.0.0.1:${port}`);
			expect(message.errorInfo).toMatchObject({ kind: "network", code: "ECONNREFUSED", retryable: true });
		});
	}

	it("a host name that resolves to several addresses lists each refusal", async () => {
		const port = await closedPort();
		const model = fakeModel({ api: "openai-completions", baseUrl: `http://localhost:${port}/v1` });
		const message = await complete(
			model,
			{ messages: [{ role: "user", content: "hi", timestamp: 0 }] },
			{ apiKey: "k" },
		);
		expect(message.errorMessage).toMatch(new RegExp(`ECONNREFUSED (127\\.0\\.0\\.1|::1):${port}`));
		expect(message.errorInfo?.code).toBe("ECONNREFUSED");
	});
});
