// RELIABILITY.md "Session files", through the BUILT CLI (`pi -p`, `pi --mode
// rpc`) against the fake provider: empty and corrupt files given to
// --session, a second process on the same session, the file deleted during a
// run, a read-only and a full file system (real tmpfs mounts when this runs
// as root with `mount`; skipped with the reason otherwise), and legacy files
// that are migrated in memory only — existing bytes are never rewritten.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { textReply, useCliSandbox } from "../cli/support.js";
import { killRaw, type RawPi, spawnRaw } from "../rpc/support.js";
import { canMount, mountTmpfs, unmountAll } from "./tmpfs.js";

const MODEL = ["--model", "fake/fake-model"];
let pi: RawPi | undefined;

const sb = useCliSandbox({
	beforeClose: async () => {
		await killRaw(pi);
		pi = undefined;
		unmountAll();
	},
});

function jsonLines(file: string): Record<string, unknown>[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function rpcCommand(p: RawPi, id: string, cmd: Record<string, unknown>) {
	p.send(`${JSON.stringify({ id, ...cmd })}\n`);
	return p.waitFor((r) => r.type === "response" && r.id === id);
}
async function rpcPrompt(p: RawPi, id: string, message: string) {
	const before = p.records.filter((r) => r.type === "agent_settled").length;
	await rpcCommand(p, id, { type: "prompt", message });
	await p.waitFor(() => p.records.filter((r) => r.type === "agent_settled").length > before);
}

describe("session files through the CLI", () => {
	it("an empty file given to --session gets a header before any entry", async () => {
		const file = join(sb.root, "empty.jsonl");
		writeFileSync(file, "");
		sb.fake.enqueue(textReply("hello back"));
		const r = await sb.run(["--session", file, "-p", ...MODEL, "hello"]);
		expect(r.code).toBe(0);
		const lines = jsonLines(file);
		expect(lines[0]).toMatchObject({ type: "session", version: 3 });
		expect(lines.slice(1).map((l) => l.type)).toContain("message");
		expect(lines.filter((l) => l.type === "session")).toHaveLength(1);
	});

	it("a corrupt header: the file is never truncated or rewritten; the run fails clearly", async () => {
		const file = join(sb.root, "corrupt.jsonl");
		const body = `${JSON.stringify({ type: "message", id: "a1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: "kept", timestamp: 1 } })}\n`;
		const bytes = `{"type":"session","version":3,"id":"x"GARBAGE\n${body}`;
		writeFileSync(file, bytes);
		sb.fake.enqueue(textReply("should not be needed"));
		const r = await sb.run(["--session", file, "-p", ...MODEL, "hello"]);
		expect(readFileSync(file, "utf8")).toBe(bytes);
		expect(r.code).not.toBe(0);
		expect(r.stderr).toContain(file);
	});

	it("two entries glued on one line by an earlier crash: both recovered, the chain intact, the bytes kept", async () => {
		const file = join(sb.root, "glued.jsonl");
		sb.fake.enqueue(textReply("first answer"));
		expect((await sb.run(["--session", file, "-p", ...MODEL, "first question"])).code).toBe(0);
		// Glue the assistant line onto the user line (a crash lost the newline between them).
		const lines = readFileSync(file, "utf8").split("\n");
		const userAt = lines.findIndex((l) => l.includes("first question"));
		lines.splice(userAt, 2, lines[userAt] + lines[userAt + 1]);
		const glued = lines.join("\n");
		writeFileSync(file, glued);
		sb.fake.enqueue(textReply("second answer"));
		const r = await sb.run(["--session", file, "-p", ...MODEL, "second question"]);
		expect(r.code).toBe(0);
		expect(readFileSync(file, "utf8").startsWith(glued)).toBe(true);
		const sent = sb.fake.requests[1].rawBody;
		expect(sent).toContain("first question");
		expect(sent).toContain("first answer");
		const sm = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const entries = sm.getEntries();
		const ids = new Set(entries.map((e) => e.id));
		for (const e of entries) if (e.parentId !== null) expect(ids.has(e.parentId)).toBe(true);
		expect(JSON.stringify(sm.buildSessionContext().messages)).toContain("second answer");
	});

	it("a second process on the same session is refused clearly; the first keeps its file intact", async () => {
		const file = join(sb.root, "shared.jsonl");
		sb.fake.enqueue(textReply("first answer"));
		pi = spawnRaw(sb, ["--session", file]);
		await rpcPrompt(pi, "p1", "from rpc");
		const before = readFileSync(file);
		const second = await sb.run(["--session", file, "-p", ...MODEL, "from print"]);
		expect(second.code).not.toBe(0);
		expect(second.stderr).toMatch(/lock|in use|another/i);
		expect(readFileSync(file).equals(before)).toBe(true);
		sb.fake.enqueue(textReply("second answer"));
		await rpcPrompt(pi, "p2", "again from rpc");
		const lines = jsonLines(file); // every line parses: nothing torn or interleaved
		expect(JSON.stringify(lines)).not.toContain("from print");
		expect(JSON.stringify(lines)).toContain("second answer");
	});

	it("the session file deleted during a run is re-created with its header and every entry", async () => {
		const file = join(sb.root, "deleted.jsonl");
		sb.fake.enqueue(textReply("first answer"), textReply("second answer"));
		pi = spawnRaw(sb, ["--session", file]);
		await rpcPrompt(pi, "p1", "one");
		rmSync(file);
		await rpcPrompt(pi, "p2", "two");
		const lines = jsonLines(file);
		expect(lines[0].type).toBe("session");
		const text = JSON.stringify(lines);
		for (const s of ["one", "first answer", "two", "second answer"]) expect(text).toContain(s);
	});

	it("a legacy (v1) file is migrated in memory only: its bytes stay, new entries are appended", async () => {
		const file = join(sb.root, "legacy.jsonl");
		const old = [
			{
				type: "session",
				id: "0192b0c0-0000-7000-8000-000000000001",
				timestamp: "2025-01-01T00:00:00.000Z",
				cwd: sb.cwd,
			},
			{
				type: "message",
				timestamp: "2025-01-01T00:00:01.000Z",
				message: { role: "user", content: "old question", timestamp: 1 },
			},
		]
			.map((l) => JSON.stringify(l))
			.join("\n")
			.concat("\n");
		writeFileSync(file, old);
		sb.fake.enqueue(textReply("new answer"));
		const r = await sb.run(["--session", file, "-p", ...MODEL, "new question"]);
		expect(r.code).toBe(0);
		const now = readFileSync(file, "utf8");
		expect(now.startsWith(old)).toBe(true);
		expect(now.slice(old.length)).toContain("new answer");
		expect(sb.fake.requests[0].rawBody).toContain("old question");
	});

	it("compaction appends (never rewrites): the file before `compact` is a prefix of the file after", async () => {
		const file = join(sb.root, "compact.jsonl");
		sb.writeModels({ models: [{ id: "fake-model", contextWindow: 10_000 }] });
		writeFileSync(
			join(sb.agentDir, "settings.json"),
			JSON.stringify({ compaction: { enabled: true, reserveTokens: 2000, keepRecentTokens: 500 } }),
		);
		const reply = (text: string, promptTokens: number) =>
			new ChatStream()
				.role()
				.text(text)
				.finish("stop")
				.usage({ prompt_tokens: promptTokens, completion_tokens: 5 })
				.done()
				.script();
		sb.fake.enqueue(reply("a1", 3000), reply("a2", 6000), reply("## Goal\nSUMMARY", 500));
		pi = spawnRaw(sb, ["--session", file]);
		await rpcPrompt(pi, "p1", `q1 ${"x".repeat(2400)}`);
		await rpcPrompt(pi, "p2", `q2 ${"y".repeat(2400)}`);
		const before = readFileSync(file);
		const res = await rpcCommand(pi, "c1", { type: "compact" });
		expect(res.error).toBeUndefined();
		expect(res.success).toBe(true);
		const after = readFileSync(file);
		expect(after.subarray(0, before.length).equals(before)).toBe(true);
		expect(jsonLines(file).at(-1)?.type).toBe("compaction");
	});
});

describe.skipIf(!canMount)("read-only and full file systems (tmpfs mounts)", () => {
	it("a read-only session dir: a visible error, exit 1, nothing written", async () => {
		const dir = join(sb.root, "ro");
		mountTmpfs(dir, 64, true);
		sb.fake.enqueue(textReply("answer"));
		const r = await sb.run(["--session-dir", dir, "-p", ...MODEL, "hello"]);
		expect(r.code).not.toBe(0);
		expect(r.stderr).toMatch(/read-only|EROFS/i);
		expect(spawnSync("ls", ["-A", dir], { encoding: "utf8" }).stdout).toBe("");
	});

	it("a full disk: a visible error, exit 1; acknowledged entries load, existing bytes untouched", async () => {
		const dir = join(sb.root, "full");
		mountTmpfs(dir, 16);
		const file = join(dir, "s.jsonl");
		sb.fake.enqueue(textReply("small answer"));
		const ok = await sb.run(["--session", file, "-p", ...MODEL, "hello"]);
		expect(ok.code).toBe(0);
		const before = readFileSync(file);
		// A prompt bigger than what is left on the device.
		sb.fake.enqueue(textReply("never stored"));
		const r = await sb.run(["--session", file, "-p", ...MODEL, "z".repeat(40_000)]);
		expect(r.code).not.toBe(0);
		expect(r.stderr).toMatch(/ENOSPC|no space|disk full/i);
		const after = readFileSync(file);
		expect(after.subarray(0, before.length).equals(before)).toBe(true);
		// Still loadable: everything acknowledged before the failure is there.
		const sm = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const text = JSON.stringify(sm.getEntries());
		expect(text).toContain("hello");
		expect(text).toContain("small answer");
		expect(text).not.toContain("never stored");
	});
});
