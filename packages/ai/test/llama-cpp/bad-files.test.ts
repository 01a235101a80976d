/**
 * Files that must not take the process down: each becomes an `error` event naming the file,
 * and the same process then still runs a good model.
 */
import { closeSync, ftruncateSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { totalmem } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGgufInfo } from "../../src/llama-cpp/gguf-file.js";
import { unloadLlamaCppModels } from "../../src/llama-cpp/runtime.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage } from "../../src/types.js";
import { tinyLlamaGguf } from "../support/gguf/tiny-llama.js";
import { type TinyModelFile, tinyLlamaModel, writeTinyModelFile } from "../support/gguf/tiny-model.js";

let good: TinyModelFile;
beforeAll(() => {
	good = writeTinyModelFile();
});
afterAll(async () => {
	await unloadLlamaCppModels();
	good.cleanup();
});

function run(path: string): Promise<AssistantMessage> {
	return stream(
		tinyLlamaModel(path),
		{ messages: [{ role: "user", content: "hi", timestamp: 1 }] },
		{ maxTokens: 4 },
	).result();
}

function expectBadFile(message: AssistantMessage, path: string, detail: RegExp): void {
	expect(message.stopReason).toBe("error");
	expect(message.errorInfo).toEqual({ kind: "bad_request", code: "bad_model_file", retryable: false });
	expect(message.errorMessage).toContain(path);
	expect(message.errorMessage).toMatch(detail);
}

describe("llama-cpp: bad model files are errors naming the file, never a native crash", () => {
	it("a file that is not GGUF", async () => {
		const path = join(good.dir, "notes.gguf");
		writeFileSync(path, "just some text, not a model\n");
		expectBadFile(await run(path), path, /not a GGUF model file/);
	});

	it("a missing file", async () => {
		const path = join(good.dir, "absent.gguf");
		expectBadFile(await run(path), path, /no such model file/);
	});

	it("a truncated download: header fine, tensor data cut short", async () => {
		const path = join(good.dir, "cut.gguf");
		const bytes = readFileSync(good.path);
		writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
		expectBadFile(await run(path), path, /truncated: its tensors need \d+ bytes, the file has \d+/);
	});

	it("a file cut inside its metadata", async () => {
		const path = join(good.dir, "cut-early.gguf");
		writeFileSync(path, readFileSync(good.path).subarray(0, 300));
		expectBadFile(await run(path), path, /ends inside its GGUF header or metadata/);
	});

	it("a model bigger than this machine's memory (a sparse file past RAM)", async () => {
		const path = join(good.dir, "huge.gguf");
		writeFileSync(path, readFileSync(good.path));
		const fd = openSync(path, "r+");
		ftruncateSync(fd, Math.ceil(totalmem() * 1.5));
		closeSync(fd);
		expectBadFile(await run(path), path, /too big for this machine's memory/);
	});

	it("an architecture llama.cpp does not know", async () => {
		const path = join(good.dir, "alien.gguf");
		writeFileSync(path, tinyLlamaGguf({ architecture: "pi-alien" }));
		expect((await readGgufInfo(path)).architecture).toBe("pi-alien");
		expectBadFile(await run(path), path, /architecture "pi-alien" is not supported/);
	});

	it("metadata that disagrees with the tensors: llama.cpp's own load error, reported, process alive", async () => {
		const path = join(good.dir, "broken.gguf");
		writeFileSync(path, tinyLlamaGguf({ declaredLayers: 3 }));
		expectBadFile(await run(path), path, /llama\.cpp could not load the model/);
	});

	it("after all of that, the same process still runs a good model", async () => {
		const message = await run(good.path);
		expect(message.stopReason).toBe("length");
		expect(message.usage.output).toBe(4);
	});
});
