// `pi auth …` through the built CLI: API-key login from stdin, logout,
// check (text and JSON, exit 0/1/2), print-api-key and print-bearer-token.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliSandbox } from "./support.js";

const sb = useCliSandbox();

const authFile = () => join(sb.agentDir, "auth.json");
const stored = () => JSON.parse(readFileSync(authFile(), "utf8"));

describe("pi auth", () => {
	it("login --api-key stores the key (0600) without echoing it; check and print-api-key see it; logout removes it", async () => {
		const login = await sb.run(["auth", "login", "openai", "--api-key"], { stdin: "sk-test-123456\n" });
		expect(login.code).toBe(0);
		expect(login.stdout).toBe("");
		expect(login.stderr).not.toContain("sk-test-123456");
		expect(login.stderr).toContain("Saved an API key for openai");
		expect(stored()).toEqual({ openai: { type: "api_key", key: "sk-test-123456" } });
		expect(statSync(authFile()).mode & 0o777).toBe(0o600);

		const check = await sb.run(["auth", "check", "--provider", "openai"]);
		expect(check).toMatchObject({ code: 0, stdout: "ready\n" });
		const json = await sb.run(["auth", "check", "--provider", "openai", "--json"]);
		expect(JSON.parse(json.stdout)).toEqual({ status: "ready", provider: "openai", authType: "api_key" });
		const withKey = await sb.run(["auth", "check", "--model", "openai/gpt-4o", "--json", "--credentials"]);
		expect(JSON.parse(withKey.stdout)).toMatchObject({ status: "ready", credentials: "sk-test-123456" });
		const printed = await sb.run(["auth", "print-api-key", "--provider", "openai"]);
		expect(printed).toMatchObject({ code: 0, stdout: "sk-test-123456\n" });

		const logout = await sb.run(["auth", "logout", "openai"]);
		expect(logout.code).toBe(0);
		expect(stored()).toEqual({});
		const again = await sb.run(["auth", "logout", "openai"]);
		expect(again.code).toBe(0);
		expect(again.stderr).toContain("No stored credentials for openai");
		const after = await sb.run(["auth", "check", "--provider", "openai", "--json"]);
		expect(after.code).toBe(1);
		expect(JSON.parse(after.stdout)).toEqual({
			status: "not_ready",
			provider: "openai",
			reason: "credentials_not_configured",
		});
	});

	it("an API key for any provider, even one pi has no catalog entry for", async () => {
		const r = await sb.run(["auth", "login", "my-gateway", "--api-key"], { stdin: "gw-key\n" });
		expect(r.code).toBe(0);
		expect(stored()["my-gateway"]).toEqual({ type: "api_key", key: "gw-key" });
		const check = await sb.run(["auth", "check", "--provider", "my-gateway"]);
		expect(check.stdout).toBe("ready\n");
	});

	it("an empty key saves nothing", async () => {
		const r = await sb.run(["auth", "login", "openai", "--api-key"], { stdin: "\n" });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("No API key entered for openai");
	});

	it("unknown providers, bad flags and a broken auth.json", async () => {
		const unknown = await sb.run(["auth", "check", "--provider", "nope", "--json"]);
		expect(unknown.code).toBe(1);
		expect(JSON.parse(unknown.stdout)).toMatchObject({ status: "not_ready", reason: "provider_not_found" });
		const missing = await sb.run(["auth", "check"]);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain("needs --provider <provider> or --model <model>");
		const both = await sb.run(["auth", "login", "openai", "--api-key", "--no-browser"]);
		expect(both.code).toBe(1);
		expect(both.stderr).toContain("--no-browser cannot be combined with --api-key");
		const misplaced = await sb.run(["auth", "print-api-key", "--provider", "openai", "--json"]);
		expect(misplaced.code).toBe(1);
		expect(misplaced.stderr).toContain('--json is not an option of "pi auth print-api-key"');
		writeFileSync(authFile(), "{ not json");
		const broken = await sb.run(["auth", "check", "--provider", "openai"]);
		expect(broken).toMatchObject({ code: 2, stdout: "invalid\n" });
	});

	it("OAuth logins: check --no-refresh reports an expired one; print-bearer-token prints a valid one", async () => {
		writeFileSync(
			authFile(),
			JSON.stringify({
				"github-copilot": { type: "oauth", access: "tid=live", refresh: "gho_x", expires: Date.now() + 3600_000 },
				"openai-codex": { type: "oauth", access: "expired-access", refresh: "r", expires: 1 },
			}),
			{ mode: 0o600 },
		);
		const expired = await sb.run(["auth", "check", "--provider", "openai-codex", "--no-refresh", "--json"]);
		expect(expired.code).toBe(1);
		expect(JSON.parse(expired.stdout)).toEqual({
			status: "not_ready",
			provider: "openai-codex",
			reason: "credentials_expired",
		});
		const live = await sb.run(["auth", "check", "--provider", "github-copilot", "--json"]);
		expect(JSON.parse(live.stdout)).toEqual({ status: "ready", provider: "github-copilot", authType: "oauth" });
		const token = await sb.run(["auth", "print-bearer-token", "--provider", "github-copilot"]);
		expect(token).toMatchObject({ code: 0, stdout: "tid=live\n" });
		const short = await sb.run(["auth", "print-bearer-token", "--provider", "openai", "--min-expiry", "30m"]);
		expect(short.code).toBe(1);
		expect(short.stderr).toContain("No OAuth login is stored for openai");
	});

	it("--help prints the usage", async () => {
		const r = await sb.run(["auth", "--help"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("pi auth login <provider> [--api-key] [--no-browser]");
	});
});
