/**
 * The cloud SDKs (the AWS SDK for Bedrock) load only for a request to their
 * api: a module-resolution hook (and, for require(), a wrapper of
 * Module._resolveFilename) records every resolution of an `@aws-sdk/` or
 * `@smithy/` package. `pi --version` and another provider's request resolve
 * none; a Bedrock request does (which shows the hook sees them).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BedrockStream } from "../../../ai/test/support/fake-provider/bedrock.js";
import { assertBuilt, createSandbox, type PiResult, type Sandbox, textReply } from "./support.js";

let sb: Sandbox;
let hook: string;
let marker: string;
beforeAll(async () => {
	assertBuilt();
	sb = await createSandbox();
	marker = join(sb.root, "resolved-cloud-sdks");
	hook = join(sb.root, "record-cloud-sdks.mjs");
	const hooks = `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
	if (/^@(aws-sdk|smithy|aws-crypto)\\//.test(specifier)) appendFileSync(${JSON.stringify(marker)}, specifier + "\\n");
	return next(specifier, context);
}`;
	// The CLI is a CommonJS bundle: a package it require()s goes through Module._resolveFilename, not the hook.
	const requires = `
import { appendFileSync } from "node:fs";
import Module from "node:module";
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
	if (/^@(aws-sdk|smithy|aws-crypto)\\//.test(request)) appendFileSync(${JSON.stringify(marker)}, request + "\\n");
	return resolveFilename.call(this, request, ...rest);
};`;
	writeFileSync(
		hook,
		`import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n${requires}\n`,
	);
	// The sandbox's fake provider, plus the built-in Bedrock provider pointed at the same fake server.
	const models = JSON.parse(readFileSync(join(sb.agentDir, "models.json"), "utf8"));
	models.providers["amazon-bedrock"] = { baseUrl: sb.fake.url };
	writeFileSync(join(sb.agentDir, "models.json"), JSON.stringify(models));
});
afterAll(async () => {
	await sb?.close();
});

const AWS = { AWS_ACCESS_KEY_ID: "AKIDLAZY", AWS_SECRET_ACCESS_KEY: "lazy-secret", AWS_REGION: "us-east-1" };

function runHooked(args: string[], env: NodeJS.ProcessEnv = {}): Promise<PiResult> {
	return sb.run(args, { env, nodeArgs: ["--import", hook] });
}

describe("cloud SDKs load lazily", () => {
	it("pi --version and another provider's request (with AWS credentials set) never resolve the AWS SDK", async () => {
		expect((await runHooked(["--version"], AWS)).code).toBe(0);
		sb.fake.enqueue(textReply("from the fake"));
		const other = await runHooked(["-p", "--no-session", "--model", "fake/fake-model", "hi"], AWS);
		expect(other.stdout).toContain("from the fake");
		expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
	});

	it("a Bedrock request loads it", async () => {
		sb.fake.enqueue(new BedrockStream().start().text("from bedrock").stop("end_turn").metadata().script());
		const r = await runHooked(["-p", "--no-session", "--provider", "amazon-bedrock", "hi"], AWS);
		expect(r.stdout).toContain("from bedrock");
		expect(readFileSync(marker, "utf8")).toContain("@aws-sdk/client-bedrock-runtime");
	});
});
