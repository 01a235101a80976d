// `pi update` for pi itself, the pure parts: how pi was installed (judged by
// the folder the CLI runs from) and which configured command wins. The runs
// against a registry are in npm-registry.test.ts.
import { describe, expect, it } from "vitest";
import { configuredCommand, detectInstallMethod } from "../../src/cli/commands/self-update.js";

describe("detectInstallMethod", () => {
	it("recognises the global folders of npm, pnpm, yarn and bun", () => {
		const cli = "node_modules/@pi/coding-agent/dist/cli.js";
		expect(detectInstallMethod(`/usr/local/lib/${cli}`)).toBe("npm");
		expect(detectInstallMethod(`/home/me/.nvm/versions/node/v20.1.0/lib/${cli}`)).toBe("npm");
		expect(detectInstallMethod(`/home/me/.local/share/pnpm/global/5/${cli}`)).toBe("pnpm");
		expect(detectInstallMethod(`/home/me/.local/share/pnpm/global/5/.pnpm/@pi+coding-agent@1.0.0/${cli}`)).toBe("pnpm");
		expect(detectInstallMethod(`/home/me/.config/yarn/global/${cli}`)).toBe("yarn");
		expect(detectInstallMethod(`/home/me/.bun/install/global/${cli}`)).toBe("bun");
	});
	it("a source checkout or a project's own node_modules is not a global install", () => {
		expect(detectInstallMethod("/work/pi/packages/coding-agent/dist/cli.js")).toBeUndefined();
		expect(detectInstallMethod("/home/me/app/node_modules/@pi/coding-agent/dist/cli.js")).toBeUndefined();
		expect(detectInstallMethod("/usr/local/lib/node_modules/other/cli.js")).toBeUndefined();
	});
});

describe("configuredCommand", () => {
	it("PI_SELF_UPDATE_COMMAND (split on whitespace) wins over the setting (an argv array)", () => {
		expect(configuredCommand({ PI_SELF_UPDATE_COMMAND: "mise  use -g npm:{installSpec}" }, ["x"])).toEqual([
			"mise",
			"use",
			"-g",
			"npm:{installSpec}",
		]);
		expect(configuredCommand({}, ["nix", "profile", "upgrade", "pi"])).toEqual(["nix", "profile", "upgrade", "pi"]);
		expect(configuredCommand({ PI_SELF_UPDATE_COMMAND: "  " }, [])).toBeUndefined();
		expect(configuredCommand({}, ["ok", 3])).toBeUndefined();
	});
});
