// mcp-auth.json is shared by every pi process of a user: changes made at the
// same time by several processes all survive, a file that is not JSON is never
// overwritten, and a verdict on tokens another process has since replaced
// does not delete the newer ones.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";
import { authFilePath, storedCredentials, updateCredentials } from "../../../src/builtins/mcp/credential-store.js";
import { createStoredAuthProvider } from "../../../src/builtins/mcp/oauth.js";
import { configured } from "./harness.js";

const run = promisify(execFile);
let agentDir: string;
beforeEach(() => {
	agentDir = mkdtempSync(join(tmpdir(), "pi-mcp-creds-"));
});
afterEach(() => rmSync(agentDir, { recursive: true, force: true }));

const tokens = (access: string, refresh: string) => ({
	access_token: access,
	refresh_token: refresh,
	token_type: "Bearer",
});

it("three processes saving tokens for their own servers at once: every server's last tokens are on disk", async () => {
	const src = resolve(__dirname, "../../../src/builtins/mcp");
	const script = join(agentDir, "writer.mts");
	writeFileSync(
		script,
		`import { updateCredentials } from ${JSON.stringify(`${src}/credential-store.ts`)};
import { parseServerEntry } from ${JSON.stringify(`${src}/config.ts`)};
const name = process.argv[2];
const server = { name, config: parseServerEntry({ url: "http://127.0.0.1:9/" + name }, process.cwd()), source: "user", file: "test" };
for (let i = 1; i <= 25; i++) {
	await updateCredentials(${JSON.stringify(agentDir)}, server, (c) => ({ ...c, tokens: { access_token: name + "-" + i, token_type: "Bearer" } }));
}
`,
	);
	const tsx = resolve(__dirname, "../../../../../node_modules/tsx/dist/esm/index.mjs");
	const names = ["alpha", "beta", "gamma"];
	await Promise.all(
		names.map((name) =>
			run(process.execPath, ["--conditions=development", "--import", tsx, script, name], { cwd: agentDir }),
		),
	);
	const saved = JSON.parse(readFileSync(authFilePath(agentDir), "utf8"));
	for (const name of names) {
		expect(saved[`${name}|http://127.0.0.1:9/${name}`].tokens.access_token).toBe(`${name}-25`);
	}
	expect(statSync(authFilePath(agentDir)).mode & 0o777).toBe(0o600);
}, 60_000);

it("a credential file that is not JSON is reported by name and left as it was", async () => {
	const file = authFilePath(agentDir);
	writeFileSync(file, '{"kept|http://x": {"tokens": ', { mode: 0o600 });
	const server = configured("docs", { url: "http://127.0.0.1:9/docs" });
	await expect(updateCredentials(agentDir, server, (c) => ({ ...c, tokens: tokens("a", "r") }))).rejects.toThrow(
		`${file} is not a JSON object`,
	);
	expect(readFileSync(file, "utf8")).toBe('{"kept|http://x": {"tokens": ');
	expect(storedCredentials(agentDir, server)).toBeUndefined();
});

it("invalidating tokens deletes the ones the connection used, not newer ones another process saved meanwhile", async () => {
	const server = configured("docs", { url: "http://127.0.0.1:9/docs" });
	await updateCredentials(agentDir, server, () => ({ tokens: tokens("a1", "r1") }));

	// The SDK read a1/r1, its refresh with r1 failed: a1/r1 are gone.
	const first = await createStoredAuthProvider(agentDir, server);
	expect(first?.tokens()).toMatchObject({ access_token: "a1" });
	await first?.invalidateCredentials?.("tokens");
	expect(storedCredentials(agentDir, server)?.tokens).toBeUndefined();

	// Another process refreshed (r2 → a3/r3) after this one read a2/r2; this one's failed refresh
	// with the rotated r2 must not throw a3/r3 away.
	await updateCredentials(agentDir, server, () => ({ tokens: tokens("a2", "r2") }));
	const second = await createStoredAuthProvider(agentDir, server);
	expect(second?.tokens()).toMatchObject({ access_token: "a2" });
	await updateCredentials(agentDir, server, (c) => ({ ...c, tokens: tokens("a3", "r3") }));
	await second?.invalidateCredentials?.("tokens");
	await second?.invalidateCredentials?.("all");
	expect(storedCredentials(agentDir, server)?.tokens).toEqual(tokens("a3", "r3"));
});
