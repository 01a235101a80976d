/**
 * node-llama-cpp is optional and loaded only for a llama-cpp request: a module-resolution hook
 * records every resolution of it and makes it look uninstalled. `pi --version` and a cloud
 * request never resolve it; a local model without it is a clear error saying how to install it.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTinyLlama } from "../../../ai/test/support/gguf/tiny-llama.js";
import { assertBuilt, createSandbox, type PiResult, type Sandbox, textReply } from "../cli/support.js";

let sb: Sandbox;
let hook: string;
let marker: string;
beforeAll(async () => {
	assertBuilt();
	sb = await createSandbox();
	marker = join(sb.root, "resolved-node-llama-cpp");
	hook = join(sb.root, "hide-node-llama-cpp.mjs");
	const hooks = `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
	if (specifier === "node-llama-cpp" || specifier.startsWith("node-llama-cpp/")) {
		appendFileSync(${JSON.stringify(marker)}, specifier + "\\n");
		const error = new Error("Cannot find package 'node-llama-cpp'");
		error.code = "ERR_MODULE_NOT_FOUND";
		throw error;
	}
	return next(specifier, context);
}`;
	writeFileSync(
		hook,
		`import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`,
	);
	writeTinyLlama(join(sb.cwd, "tiny.gguf"));
});
afterAll(async () => {
	await sb?.close();
});

function runHooked(args: string[]): Promise<PiResult> {
	return sb.run(args, { nodeArgs: ["--import", hook] });
}

describe("node-llama-cpp as an optional, lazily loaded dependency", () => {
	it("pi --version and a cloud-provider request never load it", async () => {
		const version = await runHooked(["--version"]);
		expect(version.code).toBe(0);
		sb.fake.enqueue(textReply("from the cloud"));
		const cloud = await runHooked(["-p", "--model", "fake/fake-model", "hi"]);
		expect(cloud.code).toBe(0);
		expect(cloud.stdout).toContain("from the cloud");
		expect(existsSync(marker)).toBe(false);
	});

	it("when it is missing, a local model fails with how to install it", async () => {
		const r = await runHooked(["-p", "--no-tools", "--model", "./tiny.gguf", "hi"]);
		expect(r.code).not.toBe(0);
		expect(r.stderr).toContain("Local GGUF models need the optional package node-llama-cpp, which is not installed");
		expect(r.stderr).toContain("npm install -g node-llama-cpp@3.21.1");
		expect(existsSync(marker)).toBe(true);
	});
});
