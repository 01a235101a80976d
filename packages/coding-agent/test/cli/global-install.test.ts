// `pi` is declared as the package's `bin`: a global install from a clone puts a
// working `pi` on PATH, and the packed tarball carries an executable entry point
// that starts without any other file from the repository.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt } from "./support.js";

const PACKAGE_DIR = resolve(__dirname, "../..");
const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as {
	version: string;
	bin?: Record<string, string>;
};

let root: string;
beforeAll(assertBuilt);
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-install-"));
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

/** npm with its caches and global config kept inside the test's directory. */
function npm(args: string[], cwd: string): string {
	return execFileSync("npm", [...args, "--no-audit", "--no-fund", "--offline"], {
		cwd,
		encoding: "utf8",
		env: {
			...process.env,
			npm_config_userconfig: join(root, "npmrc"),
			npm_config_globalconfig: join(root, "npmrc-global"),
			npm_config_update_notifier: "false",
		},
		timeout: 120_000,
	});
}

// npm install/pack run synchronously and may take well over vitest's default 20 s on a loaded machine.
describe("global install", { timeout: 180_000 }, () => {
	it("declares `pi` as the package's executable", () => {
		expect(pkg.bin).toEqual({ pi: "dist/cli.js" });
		const cli = join(PACKAGE_DIR, "dist/cli.js");
		expect(readFileSync(cli, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
		expect(statSync(cli).mode & 0o111).not.toBe(0);
	});

	it("`npm install -g ./packages/coding-agent` puts a working `pi` on PATH", () => {
		const prefix = join(root, "prefix");
		npm(["install", "-g", "--prefix", prefix, PACKAGE_DIR], root);
		const bin = join(prefix, "bin", "pi");
		const elsewhere = join(root, "elsewhere");
		mkdirSync(elsewhere);
		// Run by name through PATH, as a user would, from an unrelated directory.
		const r = spawnSync("pi", ["--version"], {
			cwd: elsewhere,
			encoding: "utf8",
			env: { PATH: `${join(prefix, "bin")}:${process.env.PATH}`, HOME: root },
		});
		expect(statSync(bin).isFile()).toBe(true);
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		expect(r.stdout.trim()).toBe(pkg.version);
	});

	it("the packed tarball holds an executable `pi` that starts on its own", () => {
		const out = join(root, "pack");
		mkdirSync(out);
		const [info] = JSON.parse(npm(["pack", "--json", "--pack-destination", out], PACKAGE_DIR)) as {
			filename: string;
			files: { path: string; mode: number }[];
		}[];
		const entry = info.files.find((f) => f.path === "dist/cli.js");
		expect(entry).toBeDefined();
		expect((entry?.mode ?? 0) & 0o111).not.toBe(0);
		const unpacked = join(root, "unpacked");
		mkdirSync(unpacked);
		execFileSync("tar", ["-xzf", join(out, info.filename), "-C", unpacked]);
		const manifest = JSON.parse(readFileSync(join(unpacked, "package/package.json"), "utf8"));
		expect(manifest.bin).toEqual({ pi: "dist/cli.js" });
		// No node_modules next to it: the start-up path needs nothing outside the tarball.
		const r = spawnSync(process.execPath, [join(unpacked, "package", manifest.bin.pi), "--version"], {
			cwd: root,
			encoding: "utf8",
			env: { PATH: process.env.PATH, HOME: root },
		});
		expect(r.stderr).toBe("");
		expect(r.stdout.trim()).toBe(pkg.version);
	});
});
