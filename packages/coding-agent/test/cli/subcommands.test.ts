// Subcommands (`pi install …`, `pi auth …`) and unknown long options, run
// through the built CLI: neither may ever reach the model as a prompt.
import { describe, expect, it } from "vitest";
import { SUBCOMMAND_NAMES } from "../../src/cli/subcommands.js";
import { textReply, useCliSandbox } from "./support.js";

const sb = useCliSandbox();

describe("subcommands", () => {
	it("registers the documented commands", () => {
		expect([...SUBCOMMAND_NAMES].sort()).toEqual(
			["auth", "config", "fleet", "install", "list", "mcp", "models", "remove", "uninstall", "update"].sort(),
		);
	});

	it.each([
		["install", "--frob"],
		["remove", "npm:foo"],
		["uninstall", "npm:foo"],
		["update", "npm:foo"],
		["list", "extra"],
		["config"],
	])("package command `pi %s` is never a prompt", async (...argv) => {
		sb.fake.enqueue(textReply("should not be asked"));
		const r = await sb.run([...argv, "--model", "fake/fake-model"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/^Error: /);
		expect(sb.fake.requests.length).toBe(0);
	});

	it("`pi models` with an unknown command is not sent to the model and exits non-zero", async () => {
		sb.fake.enqueue(textReply("should not be asked"));
		const r = await sb.run(["models", "--model", "fake/fake-model"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("pi models pull <url> [name]");
		expect(sb.fake.requests.length).toBe(0);
	});

	it("`pi fleet status` without server URLs is not sent to the model and says what to set", async () => {
		sb.fake.enqueue(textReply("should not be asked"));
		const r = await sb.run(["fleet", "status"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/^Error: No Redis URL: set PI_FLEET_REDIS_URL/);
		expect(sb.fake.requests.length).toBe(0);
	});

	it("`pi fleet --model x` is a usage error, never a prompt", async () => {
		sb.fake.enqueue(textReply("should not be asked"));
		const r = await sb.run(["fleet", "status", "--model", "fake/fake-model"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("unknown option --model");
		expect(sb.fake.requests.length).toBe(0);
	});

	it("a subcommand word later in the arguments is an ordinary message", async () => {
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", "--model", "fake/fake-model", "install"]);
		expect(r.code).toBe(0);
		expect(sb.fake.requests.length).toBe(1);
	});

	it("--help lists the commands", async () => {
		const r = await sb.run(["--help"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("Commands:");
		for (const name of ["install", "remove", "update", "list", "config", "mcp", "auth"])
			expect(r.stdout).toContain(`pi ${name}`);
	});
});

describe("unknown long options", () => {
	it("`--frobnicate` is an error, exit 1, before any request", async () => {
		sb.fake.enqueue(textReply("should not be asked"));
		const r = await sb.run(["--frobnicate", "-p", "--model", "fake/fake-model", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("Unknown option: --frobnicate");
		expect(sb.fake.requests.length).toBe(0);
	});

	it("a typo such as --moddel does not silently run the default model", async () => {
		sb.fake.enqueue(textReply("should not be asked"));
		const r = await sb.run(["-p", "--moddel", "fake/fake-model", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("Unknown option: --moddel");
		expect(sb.fake.requests.length).toBe(0);
	});

	it("`pi -p --frob msg` does not swallow the message silently", async () => {
		sb.fake.enqueue(textReply("should not be asked"));
		const r = await sb.run(["-p", "--frob", "msg", "--model", "fake/fake-model"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("Unknown option: --frob");
		expect(sb.fake.requests.length).toBe(0);
	});
});
