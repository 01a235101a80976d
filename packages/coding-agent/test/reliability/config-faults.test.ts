// RELIABILITY.md "Configuration and secrets", end to end: malformed
// models.json / auth.json / settings.json through the BUILT CLI (clear error
// with file and position, defaults for the rest, the file never rewritten);
// an outside edit of settings.json survives pi saving another key; auth.json
// written under umask 000 is still 0600 in a 0700 dir.
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";
import { killRaw, type RawPi, spawnRaw } from "../rpc/support.js";
import { bundledScript } from "./bundle.js";
import { tempDir } from "./support.js";

const MODEL = ["--model", "fake/fake-model"];
let pi: RawPi | undefined;

const sb = useCliSandbox({
	beforeClose: async () => {
		await killRaw(pi);
		pi = undefined;
	},
});

async function rpc(p: RawPi, id: string, cmd: Record<string, unknown>) {
	p.send(`${JSON.stringify({ id, ...cmd })}\n`);
	return p.waitFor((r) => r.type === "response" && r.id === id);
}

describe("malformed configuration files", () => {
	it("models.json: the error names the file, line and column; the file is left as it was", async () => {
		const file = join(sb.agentDir, "models.json");
		const bad = '{\n  "providers": {\n    "fake": { "baseUrl": "http://x" ,, }\n  }\n}\n';
		writeFileSync(file, bad);
		const r = await sb.run(["-p", ...MODEL, "hello"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(file);
		expect(r.stderr).toContain(`${file}:3:38`); // file:line:column
		expect(readFileSync(file, "utf8")).toBe(bad);
	});

	it("auth.json: a warning with file and position, the env key still works, the file is never rewritten", async () => {
		const file = join(sb.agentDir, "auth.json");
		const bad = '{ "fake": { "type": "api_key", "key": "sk-x" }\n';
		writeFileSync(file, bad, { mode: 0o600 });
		sb.writeModels({ apiKey: "PI_REL_FAKE_KEY" });
		sb.fake.enqueue(textReply("works"));
		const r = await sb.run(["-p", ...MODEL, "hello"], { env: { PI_REL_FAKE_KEY: "sk-from-env" } });
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("works\n");
		expect(r.stderr).toContain(file);
		expect(r.stderr).toMatch(/line \d+, column \d+/);
		expect(readFileSync(file, "utf8")).toBe(bad);
	});

	it("settings.json: defaults are used and a later save (RPC set_auto_compaction) does not overwrite it", async () => {
		const file = join(sb.agentDir, "settings.json");
		const bad = '{ "retry": { "enabled": false }, oops }\n';
		writeFileSync(file, bad);
		pi = spawnRaw(sb);
		const state = await rpc(pi, "s", { type: "get_state" });
		expect(state.success).toBe(true);
		const res = await rpc(pi, "c", { type: "set_auto_compaction", enabled: false });
		expect(res.success).toBe(true);
		await new Promise((r) => setTimeout(r, 200)); // any deferred save would have happened
		expect(readFileSync(file, "utf8")).toBe(bad);
		expect(pi.stderr()).toContain(file);
	});
});

describe("saving settings", () => {
	it("an outside edit made while pi runs survives pi saving another key", async () => {
		const file = join(sb.agentDir, "settings.json");
		writeFileSync(file, JSON.stringify({ retry: { maxRetries: 5 } }, null, 2));
		pi = spawnRaw(sb);
		await rpc(pi, "s", { type: "get_state" });
		// Edited by the user (or another pi) after this pi loaded its settings.
		writeFileSync(
			file,
			JSON.stringify({ retry: { maxRetries: 5 }, theme: "from-outside", quietStartup: true }, null, 2),
		);
		const res = await rpc(pi, "c", { type: "set_auto_compaction", enabled: false });
		expect(res.success).toBe(true);
		let saved: Record<string, unknown> = {};
		for (let i = 0; i < 100; i++) {
			saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
			if ((saved.compaction as { enabled?: boolean } | undefined)?.enabled === false) break;
			await new Promise((r) => setTimeout(r, 20));
		}
		expect(saved).toEqual({
			retry: { maxRetries: 5 },
			theme: "from-outside",
			quietStartup: true,
			compaction: { enabled: false },
		});
	});
});

describe("credentials at rest", () => {
	it("auth.json written under umask 000 is 0600 in a 0700 directory", () => {
		const dir = join(tempDir(), "fresh-agent-dir");
		const file = join(dir, "auth.json");
		const script = bundledScript("auth-writer");
		const r = spawnSync("sh", ["-c", `umask 000; exec "${process.execPath}" "${script}" "${file}"`], {
			encoding: "utf8",
		});
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("stored\n");
		expect(spawnSync("sh", ["-c", "umask 000; umask"], { encoding: "utf8" }).stdout.trim()).toMatch(/^0+$/);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ fake: { type: "api_key", key: "sk-umask-test" } });
	});

	it("an existing auth.json at 0644 in a 0755 directory is tightened to 0600/0700 and the user is told once", async () => {
		const file = join(sb.agentDir, "auth.json");
		writeFileSync(file, JSON.stringify({ other: { type: "api_key", key: "sk-loose-file-key" } }));
		chmodSync(file, 0o644);
		chmodSync(sb.agentDir, 0o755);
		sb.fake.enqueue(textReply("hello"), textReply("again"));
		const first = await sb.run(["-p", ...MODEL, "hi"]);
		expect(first.code).toBe(0);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(statSync(sb.agentDir).mode & 0o777).toBe(0o700);
		expect(first.stderr).toContain(`${file} (credentials file) was open to other users (mode 0644)`);
		expect(first.stderr).toContain(`${sb.agentDir} (credentials directory) was open to other users (mode 0755)`);
		expect(first.stderr).not.toContain("sk-loose-file-key");
		// The content is untouched, and the next run has nothing to say.
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ other: { type: "api_key", key: "sk-loose-file-key" } });
		const second = await sb.run(["-p", ...MODEL, "hi"]);
		expect(second.stderr).not.toContain("open to other users");
	});
});
