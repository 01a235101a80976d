// Issue 21: `--session` on a device wrote a session header onto it, and on a
// FIFO without a writer it hung. Session paths must be regular files or not
// exist: the built CLI refuses the rest at once and leaves them as they were.
import { execFileSync } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";

const isRoot = process.getuid?.() === 0;
const sb = useCliSandbox({
	setup(sb) {
		sb.writeModels();
	},
});

async function refused(path: string, flag: "--session" | "--fork", kind: string): Promise<void> {
	sb.fake.enqueue(textReply("should not be asked"));
	const t0 = Date.now();
	const r = await sb.run(["-p", "--model", "fake/fake-model", flag, path, "hello"]);
	expect(Date.now() - t0).toBeLessThan(10_000);
	expect(r.code).not.toBe(0);
	expect(r.stderr).toContain(`${flag} ${path}: it is a ${kind}, not a regular file`);
	expect(sb.fake.requests).toHaveLength(0);
}

describe("--session / --fork on special files", () => {
	it("a FIFO with no writer is refused at once (no hang) and stays a FIFO", async () => {
		const fifo = join(sb.cwd, "pipe.jsonl");
		execFileSync("mkfifo", [fifo]);
		await refused(fifo, "--session", "FIFO (named pipe)");
		await refused(fifo, "--fork", "FIFO (named pipe)");
		expect(lstatSync(fifo).isFIFO()).toBe(true);
		expect(readdirSync(sb.cwd)).toEqual(["pipe.jsonl"]);
	});

	it("a directory is refused", async () => {
		await refused(sb.home, "--session", "directory");
	});

	it("character and block devices made with mknod are refused and left alone (root only)", async (ctx) => {
		if (!isRoot) {
			console.warn("skipped: mknod needs root");
			ctx.skip();
		}
		const chr = join(sb.cwd, "chr.jsonl");
		const blk = join(sb.cwd, "blk.jsonl");
		execFileSync("mknod", [chr, "c", "1", "3"]);
		execFileSync("mknod", [blk, "b", "7", "200"]);
		await refused(chr, "--session", "character device");
		await refused(blk, "--session", "block device");
		expect(lstatSync(chr).isCharacterDevice()).toBe(true);
		expect(lstatSync(blk).isBlockDevice()).toBe(true);
	});

	it("a symlink to a regular session file still works", async () => {
		const { symlinkSync } = await import("node:fs");
		sb.fake.enqueue(textReply("first"));
		expect(
			(await sb.run(["-p", "--model", "fake/fake-model", "--session", join(sb.cwd, "real.jsonl"), "one"])).code,
		).toBe(0);
		symlinkSync(join(sb.cwd, "real.jsonl"), join(sb.cwd, "link.jsonl"));
		sb.fake.enqueue(textReply("hi there"));
		const r = await sb.run(["-p", "--model", "fake/fake-model", "--session", join(sb.cwd, "link.jsonl"), "hello"]);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(lstatSync(join(sb.cwd, "real.jsonl")).isFile()).toBe(true);
	});
});
