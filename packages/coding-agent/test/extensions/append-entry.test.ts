// pi.appendEntry writes a custom entry the model never sees and announces it
// as `entry_appended` with the entry as written (json and rpc mode, BUILT
// CLI, fake provider) — from a command and from a handler during a run, where
// it comes before the turn's turn_end (as on 1.6.0, checked against its CLI
// with this scenario). Build first.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";
import { type RawPi, responseTo, spawnRaw } from "../rpc/support.js";

const MODEL = ["--model", "fake/fake-model"];
const EXT = `export default function (pi) {
	pi.registerCommand("mark", { handler: async (args) => { pi.appendEntry("my-state", { count: Number(args) }); } });
	pi.on("turn_end", () => { pi.appendEntry("turn-note", { at: "turn_end" }); });
}
`;

let pi: RawPi | undefined;
const sb = useCliSandbox({
	setup: (sandbox) => {
		writeFileSync(join(sandbox.cwd, "ext.ts"), EXT);
	},
	beforeClose: async () => {
		if (pi && pi.child.exitCode === null) {
			pi.child.stdin.end();
			await pi.exit;
		}
		pi = undefined;
	},
});

type Rec = Record<string, unknown>;

/** The extension's custom entries in the one session file. */
function customEntries(): Rec[] {
	const root = join(sb.agentDir, "sessions");
	const files = existsSync(root)
		? readdirSync(root).flatMap((d) =>
				readdirSync(join(root, d))
					.filter((f) => f.endsWith(".jsonl"))
					.map((f) => join(root, d, f)),
			)
		: [];
	expect(files).toHaveLength(1);
	return readFileSync(files[0], "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l) as Rec)
		.filter((e) => e.type === "custom" && (e.customType === "my-state" || e.customType === "turn-note"));
}

const announced = (records: Rec[]) =>
	records
		.filter((r) => r.type === "entry_appended")
		.map((r) => r.entry as Rec)
		.filter((e) => e.customType === "my-state" || e.customType === "turn-note");

describe("pi.appendEntry announces entry_appended", () => {
	it("json mode: one event per entry, the entry as written to the session file, before the turn's turn_end", async () => {
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["--mode", "json", ...MODEL, "-e", "ext.ts", "/mark 42", "hi"]);
		expect(r.code).toBe(0);
		const records = r.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l) as Rec);
		const written = customEntries();
		expect(written.map((e) => [e.customType, e.data])).toEqual([
			["my-state", { count: 42 }],
			["turn-note", { at: "turn_end" }],
		]);
		expect(announced(records)).toEqual(written);
		expect(written[0]).toMatchObject({ id: expect.any(String), parentId: expect.any(String) });
		const at = (pred: (r: Rec) => boolean) => records.findIndex(pred);
		const noteAt = at((x) => x.type === "entry_appended" && (x.entry as Rec).customType === "turn-note");
		expect(at((x) => x.type === "entry_appended")).toBeLessThan(at((x) => x.type === "agent_start"));
		expect(noteAt).toBeGreaterThan(at((x) => x.type === "message_end" && (x.message as Rec).role === "assistant"));
		expect(noteAt).toBeLessThan(at((x) => x.type === "turn_end"));
		// Custom entries never reach the model.
		expect(JSON.stringify(sb.fake.requests[0].body)).not.toMatch(/my-state|turn-note/);
	});

	it("rpc mode: a command's appendEntry arrives as an entry_appended record", async () => {
		pi = spawnRaw(sb, ["-e", "ext.ts"]);
		pi.send(`${JSON.stringify({ id: "m1", type: "prompt", message: "/mark 7" })}\n`);
		await pi.waitFor(responseTo("m1"));
		const record = await pi.waitFor((r) => r.type === "entry_appended");
		expect(record.entry).toMatchObject({ type: "custom", customType: "my-state", data: { count: 7 } });
		expect(sb.fake.requests).toHaveLength(0);
		// The session file is written with the first answer: the announced entry is the one in it.
		sb.fake.enqueue(textReply("ok"));
		pi.send(`${JSON.stringify({ id: "p1", type: "prompt", message: "hi" })}\n`);
		await pi.waitFor((r) => r.type === "agent_settled");
		expect(customEntries()[0]).toEqual(record.entry);
		expect(announced(pi.records)).toEqual(customEntries());
	});
});
