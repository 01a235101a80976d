// A session write that fails mid-run (full disk) as RPC and json clients see it: the events name
// the cause (file, errno), not a bare "Request was aborted". Real tmpfs mounts when this runs as
// root with `mount`; skipped with the reason otherwise.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";
import { killRaw, type RawPi, spawnRaw } from "../rpc/support.js";
import { canMount, mountTmpfs, unmountAll } from "./tmpfs.js";

let pi: RawPi | undefined;

const sb = useCliSandbox({
	beforeClose: async () => {
		await killRaw(pi);
		pi = undefined;
		unmountAll();
	},
});

describe.skipIf(!canMount)("a session write that fails during an RPC run (16 KB tmpfs)", () => {
	it("the events name the session file and ENOSPC, not only 'Request was aborted'", async () => {
		const dir = join(sb.root, "full");
		mountTmpfs(dir, 16);
		const file = join(dir, "s.jsonl");
		pi = spawnRaw(sb, ["--session", file]);
		sb.fake.enqueue(textReply("small answer"));
		pi.send(`${JSON.stringify({ id: "1", type: "prompt", message: "hello" })}\n`);
		await pi.waitFor((r) => r.type === "agent_settled");
		sb.fake.enqueue(textReply("never stored"));
		const from = pi.records.length;
		pi.send(`${JSON.stringify({ id: "2", type: "prompt", message: "z".repeat(40_000) })}\n`);
		await pi.waitFor((r) => r.type === "agent_settled" && pi !== undefined && pi.records.indexOf(r) >= from);
		const after = pi.records.slice(from);
		const failure = after.find((r) => r.type === "session_write_failed");
		expect(failure).toMatchObject({ file, code: "ENOSPC" });
		expect(String(failure?.errorMessage)).toContain(file);
		expect(String(failure?.errorMessage)).toContain("ENOSPC");
		// The cause comes before the run ends, and the run is reported as stopped.
		const settled = after.findIndex((r) => r.type === "agent_settled");
		expect(after.indexOf(failure as Record<string, unknown>)).toBeLessThan(settled);
		expect(after[settled]).toMatchObject({ aborted: true });
		// The process is still usable: the next prompt (small enough) is answered or refused clearly.
		expect(pi.child.exitCode).toBeNull();
	}, 60_000);
});
