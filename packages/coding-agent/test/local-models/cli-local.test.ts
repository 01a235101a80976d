/**
 * The built `pi` with embedded GGUF models (generated, see ai/test/support/gguf): the no-key
 * default, --list-models, --model <file> (and --verbose's backend line), models.json `api: "llama-cpp"`, a bad file, and a
 * grammar-constrained tool call that runs a real (extension) tool in the agent loop.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTinyLlama } from "../../../ai/test/support/gguf/tiny-llama.js";
import { assertBuilt, createSandbox, type Sandbox } from "../cli/support.js";

let sb: Sandbox;
const llamaEnv = { PI_LLAMA_THREADS: "1", PI_LLAMA_GPU: "off" };
beforeAll(async () => {
	assertBuilt();
	sb = await createSandbox();
	sb.env = { ...sb.env, ...llamaEnv };
	writeTinyLlama(join(sb.root, "tiny.gguf"), { contextLength: 2048 });
	writeTinyLlama(join(sb.root, "caller.gguf"), { toolCaller: true });
});
afterAll(async () => {
	await sb?.close();
});

/** No provider credentials: no models.json, no keys in the environment. */
function noCredentials(): void {
	rmSync(join(sb.agentDir, "models.json"), { force: true });
}

describe("embedded llama.cpp models in the CLI", () => {
	it("with no credentials and a GGUF in ~/.pi/agent/models, pi uses it and says so once", async () => {
		noCredentials();
		const models = join(sb.agentDir, "models");
		mkdirSync(models, { recursive: true });
		copyFileSync(join(sb.root, "tiny.gguf"), join(models, "tiny.gguf"));
		try {
			const r = await sb.run(["-p", "--no-tools", "hello"]);
			expect(r.stderr).toContain("No provider has credentials: using the local model local/tiny");
			expect(r.stderr.match(/using the local model/g)?.length).toBe(1);
			// The random model writes until its output limit: the answer is text and pi says it was cut.
			expect(r.stdout.trim().length).toBeGreaterThan(0);
			expect(r.stderr).not.toMatch(/No models available/);

			const list = await sb.run(["--list-models"]);
			expect(list.code).toBe(0);
			// Context from the GGUF header (2048), thinking from its template.
			expect(list.stdout).toMatch(/local\s+tiny\s+2\.0K\s+\S+\s+yes\s+no/);
		} finally {
			rmSync(models, { recursive: true, force: true });
		}
	});

	it("--model ./file.gguf runs that file; a file that is not GGUF is an error naming it", async () => {
		sb.writeModels();
		copyFileSync(join(sb.root, "tiny.gguf"), join(sb.cwd, "mine.gguf"));
		const r = await sb.run(["-p", "--no-tools", "--verbose", "--model", "./mine.gguf", "--mode", "json", "hi"]);
		expect(r.code).toBe(0);
		// --verbose says where llama.cpp computes (PI_LLAMA_GPU=off here).
		expect(r.stderr).toContain("llama.cpp: CPU");
		const end = r.stdout
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l))
			.find((e) => e.type === "message_end" && e.message.role === "assistant");
		expect(end.message).toMatchObject({ api: "llama-cpp", provider: "local", model: "mine" });
		expect(sb.fake.requests.length).toBe(0);

		writeFileSync(join(sb.cwd, "notes.gguf"), "not a model");
		const bad = await sb.run(["-p", "--model", "./notes.gguf", "hi"]);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain(`${join(sb.cwd, "notes.gguf")}: not a GGUF model file`);
	});

	it('models.json entries with api "llama-cpp" and a relative path are listed with the file\'s metadata', async () => {
		writeFileSync(
			join(sb.agentDir, "models.json"),
			JSON.stringify({
				providers: {
					mine: { api: "llama-cpp", models: [{ id: "tiny-q", path: "../../../tiny.gguf", gpuLayers: 0 }] },
				},
			}),
		);
		const r = await sb.run(["--list-models", "mine"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toBe("");
		expect(r.stdout).toMatch(/mine\s+tiny-q\s+2\.0K/);
		sb.writeModels();
	});

	it("a grammar-constrained tool call from the model runs a real tool in the agent loop", async () => {
		// The extension's tool takes an enum the random weights cannot produce except through
		// node-llama-cpp's grammar; it records its call, and stops the run after the first turn
		// (the wired model would call a tool on every turn).
		writeFileSync(
			join(sb.cwd, "fruit.ts"),
			`import { appendFileSync } from "node:fs";
import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({
		name: "pick_fruit",
		label: "Pick fruit",
		description: "Picks a fruit",
		parameters: Type.Object({ fruit: Type.Union([Type.Literal("apple"), Type.Literal("pear")]) }),
		async execute(_id, params) {
			appendFileSync(process.env.FRUIT_LOG, params.fruit + "\\n");
			return { content: [{ type: "text", text: "picked " + params.fruit }], details: {} };
		},
	});
	pi.on("turn_end", (_e, ctx) => ctx.abort());
}
`,
		);
		const log = join(sb.root, "fruit.log");
		const r = await sb.run(
			[
				"--mode",
				"json",
				"--no-session",
				"--model",
				join(sb.root, "caller.gguf"),
				"-e",
				"fruit.ts",
				"--tools",
				"pick_fruit",
				"pick",
			],
			{ env: { FRUIT_LOG: log } },
		);
		const events = r.stdout
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l));
		const start = events.find((e) => e.type === "tool_execution_start");
		expect(start).toMatchObject({ toolName: "pick_fruit" });
		expect(["apple", "pear"]).toContain(start.args.fruit);
		const end = events.find((e) => e.type === "tool_execution_end");
		expect(end.isError).toBe(false);
		expect(end.result.content[0].text).toBe(`picked ${start.args.fruit}`);
		expect(readFileSync(log, "utf8")).toBe(`${start.args.fruit}\n`);
	});
});
