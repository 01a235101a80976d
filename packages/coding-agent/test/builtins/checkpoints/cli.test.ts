// builtin:checkpoints through the built CLI against the fake provider:
// print mode records checkpoints in the session file and the store outside
// the project; without git the tools still run and nothing is recorded;
// `-builtin:checkpoints` and `checkpoints.enabled: false` turn it off; over
// rpc, /rewind and fork ask with the diff summary and restore.
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RpcClientEvent } from "../../../src/modes/rpc/rpc-client.js";
import { textReply, toolReply, useCliSandbox } from "../../cli/support.js";
import { startClient } from "../../rpc/support.js";
import { fillProject, fingerprint } from "./support.js";

const sb = useCliSandbox({
	setup: (sandbox) => {
		fillProject(sandbox.cwd);
	},
});

type Entry = { type: string; customType?: string; data?: Record<string, unknown> };

/** Session files under the agent dir, oldest first. */
function sessionFiles(): string[] {
	const files: string[] = [];
	const walk = (d: string) => {
		for (const n of readdirSync(d, { withFileTypes: true })) {
			if (n.isDirectory()) walk(join(d, n.name));
			else if (n.name.endsWith(".jsonl")) files.push(join(d, n.name));
		}
	};
	walk(join(sb.agentDir, "sessions"));
	return files.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

function sessionEntries(files = sessionFiles()): Entry[] {
	return files.flatMap((f) =>
		readFileSync(f, "utf8")
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l)),
	);
}
const checkpoints = () => sessionEntries().filter((e) => e.type === "custom" && e.customType === "checkpoint");

const CHANGES = "rm b.txt && mkdir -p d && printf 'x\\000y' > d/new.bin && chmod -x run.sh && echo made";

async function runChanges(extra: string[] = [], env?: NodeJS.ProcessEnv) {
	sb.fake.enqueue(
		toolReply("edit", { path: "a.txt", edits: [{ oldText: "one", newText: "two" }] }),
		toolReply("bash", { command: CHANGES }),
		textReply("done"),
	);
	return sb.run(["-p", "--no-mcp", "--model", "fake/fake-model", ...extra, "change things"], { env });
}

describe("builtin:checkpoints (built CLI, print)", () => {
	it("records checkpoints on the branch; the store is under the agent dir", async () => {
		const r = await runChanges();
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(readFileSync(join(sb.cwd, "a.txt"), "utf8")).toBe("two\n");
		const cps = checkpoints();
		expect(cps.map((c) => c.data?.reason)).toEqual(["start", "tool", "turn", "tool", "turn"]);
		expect(cps[1]?.data).toMatchObject({ tool: "edit", detail: "a.txt" });
		expect(cps[3]?.data).toMatchObject({ tool: "bash", detail: expect.stringMatching(/^rm b\.txt/) });
		for (const c of cps) expect(c.data?.commit).toMatch(/^[0-9a-f]{40}$/);
		const stores = readdirSync(join(sb.agentDir, "checkpoints"));
		expect(stores).toHaveLength(1);
		expect(stores[0]).toMatch(/^work-[0-9a-f]{12}$/);
		expect(readdirSync(sb.cwd)).not.toContain(".git");
	});

	it("without git the tools still run and no checkpoint is recorded", async () => {
		// A PATH with a shell but no git.
		const bin = join(sb.root, "bin-nogit");
		mkdirSync(bin);
		for (const tool of ["sh", "bash", "rm", "mkdir", "printf", "chmod", "env"]) {
			for (const dir of ["/usr/bin", "/bin"]) {
				try {
					symlinkSync(join(dir, tool), join(bin, tool));
					break;
				} catch {}
			}
		}
		const r = await runChanges([], { PATH: bin, SHELL: "/bin/bash" });
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("done");
		expect(readFileSync(join(sb.cwd, "a.txt"), "utf8")).toBe("two\n");
		expect(readdirSync(join(sb.cwd, "d"))).toEqual(["new.bin"]);
		expect(checkpoints()).toEqual([]);
	});

	it("-builtin:checkpoints and checkpoints.enabled=false turn it off", async () => {
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ extensions: ["-builtin:checkpoints"] }));
		expect((await runChanges()).code).toBe(0);
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ checkpoints: { enabled: false } }));
		expect((await runChanges()).code).toBe(0);
		expect(checkpoints()).toEqual([]);
	});
});

describe("builtin:checkpoints (built CLI, rpc)", () => {
	it("/rewind asks with the diff summary, restores and undoes; fork offers the same", async () => {
		const before = fingerprint(sb.cwd);
		const client = await startClient(sb, ["--no-mcp"]);
		const requests: Extract<RpcClientEvent, { type: "extension_ui_request" }>[] = [];
		let answer: (req: { method: string; title?: string; options?: string[] }) => string | undefined = () => undefined;
		client.onEvent((e) => {
			if (e.type !== "extension_ui_request") return;
			requests.push(e);
			if (e.method !== "select") return;
			const value = answer(e as { method: string; title?: string; options?: string[] });
			if (value === undefined) client.respondToUI({ id: e.id, cancelled: true });
			else client.respondToUI({ id: e.id, value });
		});
		try {
			sb.fake.enqueue(toolReply("bash", { command: CHANGES }), textReply("done"));
			await client.promptAndWait("change things");
			const after = fingerprint(sb.cwd);
			expect(after).not.toEqual(before);

			answer = (req) =>
				req.options?.find((o) => o.includes("before the prompt")) ??
				req.options?.find((o) => o === "Restore files to this point");
			const restored = client.waitForEvent("extension_ui_request", {
				timeoutMs: 30_000,
				predicate: (e) => e.method === "notify" && /Files restored/.test(String((e as { message?: string }).message)),
			});
			await client.prompt("/rewind");
			await restored;
			const dialogs = requests.filter((r) => r.method === "select") as { title?: string; options?: string[] }[];
			expect(dialogs[0]?.title).toBe("Restore files to which checkpoint?");
			expect(dialogs[1]?.title).toMatch(/3 files would change:/);
			expect(dialogs[1]?.title).toMatch(/restore b\.txt/);
			expect(dialogs[1]?.title).toMatch(/delete +d\/new\.bin/);
			expect(fingerprint(sb.cwd)).toEqual(before);

			// Back to the changed state with "undo the last restore".
			answer = (req) =>
				req.options?.find((o) => o.startsWith("Undo the last restore")) ??
				req.options?.find((o) => o === "Restore files to this point");
			const undone = client.waitForEvent("extension_ui_request", {
				timeoutMs: 30_000,
				predicate: (e) => e.method === "notify" && /Files restored/.test(String((e as { message?: string }).message)),
			});
			await client.prompt("/rewind");
			await undone;
			expect(fingerprint(sb.cwd)).toEqual(after);

			// Fork from the first message: asked with the summary, files go back to that point.
			answer = (req) => req.options?.find((o) => o === "Restore files to this point");
			const asked = requests.length;
			const messages = await client.getForkMessages();
			expect((await client.fork(messages[0]?.entryId ?? "")).cancelled).toBe(false);
			const forkDialog = requests.slice(asked).find((r) => r.method === "select") as { title?: string } | undefined;
			expect(forkDialog?.title).toMatch(/^Files differ from the point you are forking from\.\n3 files would change:/);
			expect(fingerprint(sb.cwd)).toEqual(before);
			// The restore is an entry of the forked session (so /rewind there can undo it), not only a journal
			// line: recorded when the extension first runs there (the fresh instance that gets session_start "fork" there records it).
			sb.fake.enqueue(textReply("forked"));
			await client.promptAndWait("go on");
			const { entries: forked } = await client.getEntries();
			const restoreInFork = (forked as Entry[]).filter(
				(e) => e.customType === "checkpoint" && e.data?.reason === "restore",
			);
			expect(restoreInFork).toHaveLength(1);
			expect(restoreInFork[0]?.data?.undo).toMatch(/^[0-9a-f]{40}$/);
		} finally {
			await client.stop();
		}
	});
});
