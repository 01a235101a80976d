// Issue 21: start-up in a hostile environment, through the BUILT CLI: the working directory was
// deleted, HOME is on a read-only file system, the disk is full at the first session write.
// Read-only and full file systems are real tmpfs mounts (root with `mount`); skipped otherwise.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, textReply, useCliSandbox } from "../cli/support.js";
import { canMount, mountTmpfs, unmountAll } from "./tmpfs.js";

const MODEL = ["--model", "fake/fake-model"];

const sb = useCliSandbox({
	beforeClose: async () => {
		unmountAll();
	},
});

describe("a deleted working directory", () => {
	it("is one clear error naming the directory, exit 1, no stack trace", async () => {
		const gone = join(sb.root, "gone");
		mkdirSync(gone);
		// A shell that stays in a deleted directory: cd, delete it, start pi from there.
		const r = spawnSync("sh", ["-c", `cd '${gone}' && rmdir '${gone}' && exec "${process.execPath}" "${CLI}" -p hi`], {
			encoding: "utf8",
			env: sb.env,
		});
		expect(r.status).toBe(1);
		expect(r.stderr).toContain("working directory");
		expect(r.stderr).toContain(gone);
		expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
		expect(r.stderr).not.toContain("uv_cwd");
	});
});

describe.skipIf(!canMount)("read-only HOME and a full disk (tmpfs mounts)", () => {
	it("a read-only HOME is reported as read-only (EROFS), naming the directory, not as ENOENT", async () => {
		const home = join(sb.root, "ro-home");
		mountTmpfs(home, 64);
		// The usual layout (~/.pi/agent with models.json), then the whole HOME turns read-only.
		const agentDir = join(home, ".pi", "agent");
		mkdirSync(agentDir, { recursive: true });
		writeFileSync(join(agentDir, "models.json"), readFileSync(join(sb.agentDir, "models.json")));
		expect(spawnSync("mount", ["-o", "remount,ro", home]).status).toBe(0);
		sb.fake.enqueue(textReply("answer"));
		const r = await sb.run(["-p", ...MODEL, "hi"], { env: { HOME: home, PI_CODING_AGENT_DIR: agentDir } });
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/read-only|EROFS/);
		expect(r.stderr).toContain(home);
		expect(r.stderr).not.toContain("ENOENT");
	});

	it("a full disk at the first session write names the session file and leaves no .lock/.tmp files", async () => {
		const dir = join(sb.root, "full");
		mountTmpfs(dir, 16);
		// Fill the device completely.
		spawnSync("sh", ["-c", `dd if=/dev/zero of='${join(dir, "filler")}' bs=1k count=64 2>/dev/null`]);
		sb.fake.enqueue(textReply("answer"));
		const r = await sb.run(["-p", ...MODEL, "--session-dir", dir, "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/ENOSPC|no space/i);
		expect(r.stderr).toContain(dir);
		expect(
			readdirSync(dir, { recursive: true })
				.map(String)
				.filter((n) => n !== "filler"),
		).toEqual([]);
	});
});
