// jiti's transpile cache through the built CLI: kept under
// <agentDir>/cache/jiti (0700, not the shared tmp dir), filled by the first
// run, and never serving a stale module after the source changed.
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";

const sb = useCliSandbox();

const source = (word: string) =>
	`const word: string = "${word}";\nexport default function (pi: { on: Function }) { pi.on("session_start", (_e: unknown, ctx: any) => ctx.ui.notify("ext says " + word)); }\n`;

describe("extension transpile cache", () => {
	it("lives in the agent dir (0700), is filled once, and follows an edited source", async () => {
		const ext = join(sb.cwd, "cached.ts");
		writeFileSync(ext, source("one"));
		sb.fake.enqueue(textReply("ok"), textReply("ok"));
		const first = await sb.run(["-p", "--model", "fake/fake-model", "-e", ext, "hi"]);
		expect(first.code).toBe(0);
		expect(first.stderr).toContain("ext says one");
		const cacheDir = join(sb.agentDir, "cache", "jiti");
		expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
		const entries = readdirSync(cacheDir).filter((f) => f.includes("cached"));
		expect(entries.length).toBe(1);

		writeFileSync(ext, source("two"));
		const second = await sb.run(["-p", "--model", "fake/fake-model", "-e", ext, "hi"]);
		expect(second.code).toBe(0);
		expect(second.stderr).toContain("ext says two");
		expect(second.stderr).not.toContain("ext says one");
	});
});
