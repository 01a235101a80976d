import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readGgufInfo, templateSupportsThinking } from "../../src/llama-cpp/gguf-file.js";
import { TINY_CHAT_TEMPLATE, tinyLlamaGguf, tinyVocabulary } from "../support/gguf/tiny-llama.js";
import { writeTinyModelFile } from "../support/gguf/tiny-model.js";
import { toHalf } from "../support/gguf/write-gguf.js";

describe("the generated GGUF and the JavaScript header reader", () => {
	it("writes a GGUF v3 llama model the reader understands, byte-identical for the same seed", async () => {
		const file = writeTinyModelFile({ contextLength: 2048 });
		try {
			const info = await readGgufInfo(file.path);
			expect(info).toMatchObject({
				version: 3,
				architecture: "llama",
				name: "pi-tiny-llama",
				contextLength: 2048,
				chatTemplate: TINY_CHAT_TEMPLATE,
				tensorCount: 3 + 2 * 9,
			});
			expect(info.expectedSize).toBe(info.size);
			expect(info.dataOffset % 32).toBe(0);
			expect(templateSupportsThinking(info.chatTemplate)).toBe(true);
		} finally {
			file.cleanup();
		}
		const digest = (seed: number) => createHash("sha256").update(tinyLlamaGguf({ seed })).digest("hex");
		expect(digest(7)).toBe(digest(7));
		expect(digest(7)).not.toBe(digest(8));
	});

	it("has a vocabulary with bytes, ChatML markers and text pieces", () => {
		const { tokens, types } = tinyVocabulary();
		expect(tokens.slice(0, 3)).toEqual(["<unk>", "<s>", "</s>"]);
		expect(tokens).toContain("<0x0A>");
		expect(tokens).toContain("<|im_end|>");
		expect(tokens).toContain("<tool_call>");
		expect(types.length).toBe(tokens.length);
		expect(tokens.length).toBeLessThan(512);
	});

	it("converts floats to IEEE half precision", () => {
		expect(toHalf(0)).toBe(0);
		expect(toHalf(1)).toBe(0x3c00);
		expect(toHalf(-2)).toBe(0xc000);
		expect(toHalf(0.5)).toBe(0x3800);
		expect(toHalf(65504)).toBe(0x7bff);
		expect(toHalf(1e6)).toBe(0x7c00);
	});
});
