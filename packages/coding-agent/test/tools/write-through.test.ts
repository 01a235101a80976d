// write/edit keep what a path is: they follow symlinks, keep hard links,
// owner and mode, and refuse devices, FIFOs, sockets and directories, all on
// real file-system objects (mknod devices need root; skipped with a note
// otherwise).
import { execFileSync } from "node:child_process";
import {
	chownSync,
	linkSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../src/tools/edit.js";
import { createWriteTool } from "../../src/tools/write.js";
import { run, runError, tempDir, within } from "./helpers.js";

const isRoot = process.getuid?.() === 0;

function mkfifo(path: string): void {
	execFileSync("mkfifo", [path]);
}

describe("write/edit write through, never replace what the path is", () => {
	it("a hard link: both names see the new content; the inode and link count stay", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "a.txt"), "old text\n");
		linkSync(join(dir, "a.txt"), join(dir, "b.txt"));
		const ino = statSync(join(dir, "a.txt")).ino;
		await run(createWriteTool(dir), { path: "a.txt", content: "new text\n" });
		expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("new text\n");
		expect(statSync(join(dir, "a.txt")).ino).toBe(ino);
		expect(statSync(join(dir, "a.txt")).nlink).toBe(2);
		await run(createEditTool(dir), { path: "b.txt", edits: [{ oldText: "new", newText: "edited" }] });
		expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("edited text\n");
		expect(statSync(join(dir, "b.txt")).ino).toBe(ino);
		expect(readdirSync(dir).sort()).toEqual(["a.txt", "b.txt"]);
	});

	it("a shorter write in place is cut to length", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "a.txt"), "a long old line of text\n");
		linkSync(join(dir, "a.txt"), join(dir, "b.txt"));
		await run(createWriteTool(dir), { path: "a.txt", content: "short" });
		expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("short");
	});

	it("a symlink is followed: the target changes, the link stays a link", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "real"));
		writeFileSync(join(dir, "real", "t.txt"), "old\n");
		symlinkSync("real/t.txt", join(dir, "link.txt"));
		await run(createWriteTool(dir), { path: "link.txt", content: "new\n" });
		expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
		expect(readFileSync(join(dir, "real", "t.txt"), "utf8")).toBe("new\n");
		await run(createEditTool(dir), { path: "link.txt", edits: [{ oldText: "new", newText: "edited" }] });
		expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
		expect(readFileSync(join(dir, "real", "t.txt"), "utf8")).toBe("edited\n");
		expect(readdirSync(join(dir, "real"))).toEqual(["t.txt"]);
	});

	it("a dangling symlink (through a chain of links) gets its target created; the links stay", async () => {
		const dir = tempDir();
		symlinkSync("missing.txt", join(dir, "l1"));
		symlinkSync("l1", join(dir, "l2"));
		await run(createWriteTool(dir), { path: "l2", content: "created\n" });
		expect(lstatSync(join(dir, "l2")).isSymbolicLink()).toBe(true);
		expect(readlinkSync(join(dir, "l1"))).toBe("missing.txt");
		expect(readFileSync(join(dir, "missing.txt"), "utf8")).toBe("created\n");
	});

	it("a dangling symlink into a missing directory is refused clearly; the link stays", async () => {
		const dir = tempDir();
		symlinkSync("nodir/missing.txt", join(dir, "l"));
		const msg = await runError(createWriteTool(dir), { path: "l", content: "x" });
		expect(msg).toMatch(/^Cannot write l: /);
		expect(lstatSync(join(dir, "l")).isSymbolicLink()).toBe(true);
	});

	it("a FIFO is refused by write and edit without waiting for a reader or writer; it stays a FIFO", async () => {
		const dir = tempDir();
		mkfifo(join(dir, "pipe"));
		const w = await within(3000, runError(createWriteTool(dir), { path: "pipe", content: "x" }));
		expect(w).toBe("Cannot write pipe: it is a FIFO (named pipe), not a regular file; refusing to write it");
		const e = await within(
			3000,
			runError(createEditTool(dir), { path: "pipe", edits: [{ oldText: "a", newText: "b" }] }),
		);
		expect(e).toBe("Cannot edit pipe: it is a FIFO (named pipe), not a regular file; refusing to edit it");
		expect(lstatSync(join(dir, "pipe")).isFIFO()).toBe(true);
		expect(readdirSync(dir)).toEqual(["pipe"]);
	});

	it("a symlink to a FIFO is refused too", async () => {
		const dir = tempDir();
		mkfifo(join(dir, "pipe"));
		symlinkSync("pipe", join(dir, "to-pipe"));
		const w = await within(3000, runError(createWriteTool(dir), { path: "to-pipe", content: "x" }));
		expect(w).toMatch(/it is a FIFO \(named pipe\), not a regular file/);
		expect(lstatSync(join(dir, "pipe")).isFIFO()).toBe(true);
	});

	it("a unix socket is refused", async () => {
		const dir = tempDir();
		const sock = join(dir, "s.sock");
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(sock, resolve));
		try {
			const w = await runError(createWriteTool(dir), { path: "s.sock", content: "x" });
			expect(w).toBe("Cannot write s.sock: it is a socket, not a regular file; refusing to write it");
			expect(lstatSync(sock).isSocket()).toBe(true);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	it("edit of /dev/zero is refused at once, without reading it", async () => {
		const dir = tempDir();
		const e = await within(
			3000,
			runError(createEditTool(dir), { path: "/dev/zero", edits: [{ oldText: "a", newText: "b" }] }),
		);
		expect(e).toBe("Cannot edit /dev/zero: it is a character device, not a regular file; refusing to edit it");
	});

	it("edit of a 2 GB (sparse) file is refused by size, quickly and without reading it", async () => {
		const dir = tempDir();
		execFileSync("truncate", ["-s", "2G", join(dir, "huge.txt")]);
		const before = process.memoryUsage().rss;
		const t0 = performance.now();
		const e = await runError(createEditTool(dir), { path: "huge.txt", edits: [{ oldText: "a", newText: "b" }] });
		expect(e).toBe("Cannot edit huge.txt: it is too large (2048MB; the limit is 256MB)");
		expect(performance.now() - t0).toBeLessThan(2000);
		expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
	});

	it("character and block devices made with mknod are refused and stay devices (root only)", async (ctx) => {
		if (!isRoot) {
			console.warn("skipped: mknod needs root");
			ctx.skip();
		}
		const dir = tempDir();
		execFileSync("mknod", [join(dir, "null"), "c", "1", "3"]);
		execFileSync("mknod", [join(dir, "blk"), "b", "7", "200"]);
		for (const [name, kind] of [
			["null", "character device"],
			["blk", "block device"],
		]) {
			expect(await runError(createWriteTool(dir), { path: name, content: "x" })).toBe(
				`Cannot write ${name}: it is a ${kind}, not a regular file; refusing to write it`,
			);
			expect(await runError(createEditTool(dir), { path: name, edits: [{ oldText: "a", newText: "b" }] })).toMatch(
				`it is a ${kind}, not a regular file`,
			);
		}
		expect(lstatSync(join(dir, "null")).isCharacterDevice()).toBe(true);
		expect(lstatSync(join(dir, "blk")).isBlockDevice()).toBe(true);
		expect(readdirSync(dir).sort()).toEqual(["blk", "null"]);
	});

	it("a file owned by another user keeps its owner, group and mode (root only)", async (ctx) => {
		if (!isRoot) {
			console.warn("skipped: chown to another user needs root");
			ctx.skip();
		}
		const dir = tempDir();
		const f = join(dir, "owned.txt");
		writeFileSync(f, "old\n");
		chownSync(f, 4321, 4322);
		const { chmodSync } = await import("node:fs");
		chmodSync(f, 0o640);
		await run(createWriteTool(dir), { path: "owned.txt", content: "new\n" });
		let st = statSync(f);
		expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([4321, 4322, 0o640]);
		await run(createEditTool(dir), { path: "owned.txt", edits: [{ oldText: "new", newText: "edited" }] });
		st = statSync(f);
		expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([4321, 4322, 0o640]);
		expect(readFileSync(f, "utf8")).toBe("edited\n");
	});

	it("a file this user may write but not re-own is written in place: owner kept, no temp file left (root runs the writer as nobody)", async (ctx) => {
		if (!isRoot) {
			console.warn("skipped: needs root to create a file owned by another user");
			ctx.skip();
		}
		// As root a chown always works; the in-place path for an unowned file is
		// exercised by running the write as an unprivileged user in a child.
		const dir = tempDir();
		execFileSync("chmod", ["0777", dir]);
		const f = join(dir, "shared.txt");
		writeFileSync(f, "old\n");
		chownSync(f, 0, 0);
		execFileSync("chmod", ["0666", f]);
		const script = join(dir, "w.mjs");
		const atomic = new URL("../../src/tools/shared/atomic-write.ts", import.meta.url).pathname;
		writeFileSync(
			script,
			`const { atomicWriteFile } = await import(${JSON.stringify(atomic)}); await atomicWriteFile(${JSON.stringify(f)}, "new\\n");`,
		);
		const tsx = new URL("../../../../node_modules/tsx/dist/esm/index.mjs", import.meta.url).pathname;
		execFileSync(process.execPath, ["--import", tsx, script], { uid: 65534, gid: 65534, cwd: dir });
		const st = statSync(f);
		expect([st.uid, st.gid]).toEqual([0, 0]);
		expect(readFileSync(f, "utf8")).toBe("new\n");
		expect(readdirSync(dir).sort()).toEqual(["shared.txt", "w.mjs"]);
	});
});
