// Package sources (npm, git, URLs, local paths; pins and identity) and what a
// package brings (conventions, the `pi` manifest with globs and exclusions,
// settings filters).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyFilter, ManifestError, readPackage } from "../../src/packages/manifest.js";
import { isPinned, isRemoteSource, parseSource, SourceError, sourceIdentity } from "../../src/packages/source.js";
import { writePackage } from "../support/packages.js";

describe("parseSource", () => {
	it("npm names, scopes and versions", () => {
		expect(parseSource("npm:foo", "/b")).toEqual({ type: "npm", spec: "npm:foo", name: "foo" });
		expect(parseSource("npm:@s/foo@1.2.3", "/b")).toEqual({
			type: "npm",
			spec: "npm:@s/foo@1.2.3",
			name: "@s/foo",
			version: "1.2.3",
		});
		expect(isPinned(parseSource("npm:foo@^1", "/b"))).toBe(true);
		expect(isPinned(parseSource("npm:foo", "/b"))).toBe(false);
		expect(() => parseSource("npm:Bad Name", "/b")).toThrow(SourceError);
		expect(() => parseSource("npm:foo@", "/b")).toThrow(/nothing after "@"/);
	});

	it("git shorthands and URLs, with refs; the ref is not part of the identity", () => {
		expect(parseSource("git:github.com/o/r@v1", "/b")).toMatchObject({
			type: "git",
			url: "https://github.com/o/r",
			host: "github.com",
			path: "o/r",
			ref: "v1",
		});
		expect(parseSource("ssh://git@host.example/o/r.git@main", "/b")).toMatchObject({
			url: "ssh://git@host.example/o/r.git",
			ref: "main",
			path: "o/r",
		});
		expect(parseSource("git@host.example:o/r", "/b")).toMatchObject({ type: "git", url: "git@host.example:o/r" });
		expect(parseSource("file:///srv/repos/tools.git@v2", "/b")).toMatchObject({
			url: "file:///srv/repos/tools.git",
			host: "local",
			path: "srv/repos/tools",
			ref: "v2",
		});
		expect(sourceIdentity(parseSource("https://h.example/o/r@v1", "/b"))).toBe(
			sourceIdentity(parseSource("https://h.example/o/r.git", "/b")),
		);
		expect(() => parseSource("git:nohost", "/b")).toThrow(/git:host\/path/);
	});

	it("local paths resolve from the base directory", () => {
		expect(parseSource("./pkg", "/home/u/.pi/agent")).toEqual({
			type: "local",
			spec: "./pkg",
			path: "/home/u/.pi/agent/pkg",
		});
		expect(isRemoteSource("./pkg")).toBe(false);
		expect(isRemoteSource("npm:x")).toBe(true);
		expect(isRemoteSource("https://h/o/r")).toBe(true);
	});
});

describe("readPackage and filters", () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), "pi-pkg-"));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it("conventional directories", () => {
		writePackage(dir, { name: "c", version: "1.0.0", tool: "t1", skill: "s1", prompt: "p1", theme: "th1" });
		expect(readPackage(dir)).toMatchObject({
			name: "c",
			version: "1.0.0",
			items: {
				extensions: ["extensions/t1.ts"],
				skills: ["skills/s1"],
				prompts: ["prompts/p1.md"],
				themes: ["themes/th1.json"],
			},
		});
	});

	it("the pi manifest: paths, globs and exclusions; unlisted kinds bring nothing", () => {
		writePackage(dir, { name: "m", version: "1.0.0", tool: "a", skill: "s1" });
		mkdirSync(join(dir, "src"), { recursive: true });
		writeFileSync(join(dir, "src", "main.ts"), "export default () => {};");
		writeFileSync(join(dir, "src", "legacy.ts"), "export default () => {};");
		mkdirSync(join(dir, "res", "prompts"), { recursive: true });
		writeFileSync(join(dir, "res", "prompts", "one.md"), "one");
		writeFileSync(join(dir, "res", "prompts", "two.md"), "two");
		writeFileSync(
			join(dir, "package.json"),
			JSON.stringify({
				name: "m",
				pi: { extensions: ["./src/*.ts", "!src/legacy.ts"], prompts: ["res/prompts"], skills: ["./nowhere"] },
			}),
		);
		const info = readPackage(dir);
		expect(info.items).toEqual({
			extensions: ["src/main.ts"],
			skills: [],
			prompts: ["res/prompts/one.md", "res/prompts/two.md"],
			themes: [],
		});
		expect(info.notes).toEqual(['pi.skills: "./nowhere" does not exist']);
	});

	it("a bad manifest throws ManifestError naming the field", () => {
		writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "x", pi: { themes: [1] } }));
		expect(() => readPackage(dir)).toThrow(ManifestError);
		expect(() => readPackage(dir)).toThrow(/"pi.themes" must be an array of paths/);
		writeFileSync(join(dir, "package.json"), "{ nope");
		expect(() => readPackage(dir)).toThrow(/bad package.json/);
	});

	it("settings filters narrow: undefined all, [] none, globs, !globs, +path, -path", () => {
		const items = ["extensions/a.ts", "extensions/b.ts", "extensions/legacy.ts"];
		expect(applyFilter(items, undefined)).toEqual(items);
		expect(applyFilter(items, [])).toEqual([]);
		expect(applyFilter(items, ["extensions/*.ts", "!extensions/legacy.ts"])).toEqual([
			"extensions/a.ts",
			"extensions/b.ts",
		]);
		expect(applyFilter(items, ["-extensions/b.ts"])).toEqual(["extensions/a.ts", "extensions/legacy.ts"]);
		expect(applyFilter(items, ["+extensions/b.ts"])).toEqual(["extensions/b.ts"]);
		expect(applyFilter(items, ["+extensions/other.ts"])).toEqual([]);
		expect(applyFilter(["skills/review", "skills/pdf"], ["!skills/pdf/SKILL.md"])).toEqual(["skills/review"]);
	});
});
