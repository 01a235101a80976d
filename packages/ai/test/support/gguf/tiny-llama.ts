/**
 * Generates a tiny but real llama-architecture GGUF for tests and benches: a
 * few layers, a ~400-token SentencePiece-style vocabulary (bytes, letters,
 * ChatML and tool/thinking markers), a ChatML chat template with tool calls,
 * and fixed-seed random weights. Nothing is downloaded.
 *
 * Run as a script to write a file: `npx tsx packages/ai/test/support/gguf/tiny-llama.ts out.gguf`.
 */
import { writeFileSync } from "node:fs";
import {
	bool,
	f32,
	f32s,
	GgmlType,
	type GgufTensor,
	type GgufValue,
	i32s,
	str,
	strings,
	u32,
	writeGguf,
} from "./write-gguf.js";

export interface TinyLlamaOptions {
	/** Weight seed; the same seed gives the same bytes. */
	seed?: number;
	layers?: number;
	embedding?: number;
	heads?: number;
	kvHeads?: number;
	feedForward?: number;
	/** `llama.context_length` in the metadata. */
	contextLength?: number;
	/** Replaces `general.architecture` (and the key prefix), e.g. to make an unsupported model. */
	architecture?: string;
	name?: string;
	/** The `tokenizer.chat_template`; `null` leaves it out. */
	chatTemplate?: string | null;
	/**
	 * Wire the weights so that a new assistant turn starts with the tool-call syntax
	 * (`<tool_call>` then `\n{"name": "`) and ends after `</tool_call>`: the model then calls a
	 * function on its own, and node-llama-cpp's grammar picks the name and arguments.
	 */
	toolCaller?: boolean;
	/** `block_count` written in the metadata when it should disagree with the tensors (a broken file). */
	declaredLayers?: number;
	/** Wire the weights so that a turn opens with `<think>\n` (a thought segment node-llama-cpp reports). */
	thinker?: boolean;
}

/** llama.cpp token types. */
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const USER_DEFINED = 4;
const BYTE = 6;

/**
 * ChatML with Hermes-style tool calls and optional `<think>` blocks, written for
 * these tests. node-llama-cpp reads the function-call syntax out of it.
 */
export const TINY_CHAT_TEMPLATE = `{%- if tools %}<|im_start|>system
{%- if messages[0].role == 'system' %}
{{ messages[0].content }}
{%- endif %}

# Tools
You can call these functions:
<tools>
{%- for tool in tools %}
{{ tool | tojson }}
{%- endfor %}
</tools>
To call one, answer with <tool_call>
{"name": <name>, "arguments": <arguments object>}
</tool_call><|im_end|>
{%- elif messages[0].role == 'system' %}<|im_start|>system
{{ messages[0].content }}<|im_end|>
{%- endif %}
{%- for message in messages %}
{%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}
<|im_start|>{{ message.role }}
{{ message.content }}<|im_end|>
{%- elif message.role == 'assistant' %}
<|im_start|>assistant
{%- if message.reasoning_content %}
<think>
{{ message.reasoning_content }}
</think>
{%- endif %}
{%- if message.content %}
{{ message.content }}
{%- endif %}
{%- if message.tool_calls %}
{%- for tool_call in message.tool_calls %}
{%- if tool_call.function is defined %}{%- set tool_call = tool_call.function %}{%- endif %}
<tool_call>
{"name": "{{ tool_call.name }}", "arguments": {{ tool_call.arguments | tojson }}}
</tool_call>
{%- endfor %}
{%- endif %}<|im_end|>
{%- elif message.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}
<|im_start|>user
{%- endif %}
<tool_response>
{{ message.content }}
</tool_response>
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>
{%- endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
<|im_start|>assistant
{%- endif %}`;

const SPECIAL_CONTROL = ["<|im_start|>", "<|im_end|>", "<think>", "</think>"];
/** The rest of the template's call prefix after `<tool_call>`, as one token the tool-caller emits. */
export const CALL_PREFIX_REST = '\n{"name": "';
const SPECIAL_USER = [
	"assistant",
	"<tool_call>",
	CALL_PREFIX_REST,
	"</tool_call>",
	"<tool_response>",
	"</tool_response>",
];
const RESERVED_DIMS = 4;
const WORDS = ["the", "a", "is", "of", "and", "to", "in", "it", "file", "read", "hello", "world", "pi", "tool", "call"];

/** The vocabulary: tokens, scores and types, in id order. */
export function tinyVocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
	const tokens: string[] = ["<unk>", "<s>", "</s>"];
	const types: number[] = [UNKNOWN, CONTROL, CONTROL];
	for (let byte = 0; byte < 256; byte++) {
		tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
		types.push(BYTE);
	}
	for (const special of SPECIAL_CONTROL) {
		tokens.push(special);
		types.push(CONTROL);
	}
	for (const special of SPECIAL_USER) {
		tokens.push(special);
		types.push(USER_DEFINED);
	}
	const pieces = new Set<string>(["▁"]);
	for (let c = 33; c < 127; c++) pieces.add(String.fromCharCode(c));
	for (const letter of "abcdefghijklmnopqrstuvwxyz") pieces.add(`▁${letter}`);
	for (const word of WORDS) pieces.add(`▁${word}`);
	for (const piece of pieces) {
		tokens.push(piece);
		types.push(NORMAL);
	}
	// SentencePiece merges by score: longer pieces win.
	const scores = tokens.map((token, id) => (types[id] === NORMAL ? -1000 + [...token].length * 10 - id / 1000 : 0));
	return { tokens, scores, types };
}

/** mulberry32: a small seeded PRNG, so the weights are the same on every machine. */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Builds the GGUF bytes. */
export function tinyLlamaGguf(options: TinyLlamaOptions = {}): Buffer {
	const {
		seed = 1234,
		layers = 2,
		embedding = 64,
		heads = 4,
		kvHeads = 2,
		feedForward = 128,
		contextLength = 4096,
		architecture = "llama",
		name = "pi-tiny-llama",
		chatTemplate = TINY_CHAT_TEMPLATE,
		toolCaller = false,
		thinker = false,
		declaredLayers = layers,
	} = options;
	const random = prng(seed);
	const gaussian = (std: number) => {
		const u = Math.max(random(), 1e-12);
		return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random()) * std;
	};
	const { tokens, scores, types } = tinyVocabulary();
	const vocab = tokens.length;
	const headDim = embedding / heads;
	const kvDim = headDim * kvHeads;

	const matrix = (name: string, cols: number, rows: number, std: number): GgufTensor => {
		const data = new Float32Array(cols * rows);
		for (let i = 0; i < data.length; i++) data[i] = gaussian(std);
		return { name, dims: [cols, rows], type: GgmlType.F16, data };
	};
	const ones = (name: string, size: number): GgufTensor => ({
		name,
		dims: [size],
		type: GgmlType.F32,
		data: new Float32Array(size).fill(1),
	});

	const embed = matrix("token_embd.weight", embedding, vocab, 0.5);
	const output = matrix("output.weight", embedding, vocab, 0.5);
	// Dimensions 0-3 are reserved for wired transitions: no ordinary token reads or writes them.
	for (let id = 0; id < vocab; id++) {
		embed.data.fill(0, id * embedding, id * embedding + RESERVED_DIMS);
		output.data.fill(0, id * embedding, id * embedding + RESERVED_DIMS);
		// Only ordinary text pieces get a logit: greedy decoding then never picks an end-of-turn,
		// a byte fragment or a marker by chance, so a generation runs to its token limit.
		if (types[id] !== NORMAL) output.data.fill(0, id * embedding, (id + 1) * embedding);
	}
	// After token `from` (alone in reserved dimension `dim`) the model strongly prefers `to`.
	const wire = (from: string, to: string, dim: number) => {
		const a = tokens.indexOf(from);
		const b = tokens.indexOf(to);
		embed.data[a * embedding + dim] = 8;
		output.data[b * embedding + dim] = 30;
	};
	if (thinker) {
		// A turn (the prompt ends with the role name "assistant") opens a thought.
		wire("assistant", "<think>", 0);
		wire("<think>", "<0x0A>", 1);
	} else if (toolCaller) {
		// A turn opens with a call, and a closed call ends the turn.
		wire("assistant", "<tool_call>", 0);
		wire("<tool_call>", CALL_PREFIX_REST, 1);
		wire("</tool_call>", "<|im_end|>", 2);
	}
	const tensors: GgufTensor[] = [embed, ones("output_norm.weight", embedding), output];
	/** The layers write nothing into the reserved dimensions (their output rows are zero). */
	const residualWriter = (name: string, cols: number) => {
		const tensor = matrix(name, cols, embedding, 0.1);
		tensor.data.fill(0, 0, RESERVED_DIMS * cols);
		return tensor;
	};
	for (let layer = 0; layer < layers; layer++) {
		const p = `blk.${layer}`;
		tensors.push(
			ones(`${p}.attn_norm.weight`, embedding),
			matrix(`${p}.attn_q.weight`, embedding, embedding, 0.1),
			matrix(`${p}.attn_k.weight`, embedding, kvDim, 0.1),
			matrix(`${p}.attn_v.weight`, embedding, kvDim, 0.1),
			residualWriter(`${p}.attn_output.weight`, embedding),
			ones(`${p}.ffn_norm.weight`, embedding),
			matrix(`${p}.ffn_gate.weight`, embedding, feedForward, 0.1),
			matrix(`${p}.ffn_up.weight`, embedding, feedForward, 0.1),
			residualWriter(`${p}.ffn_down.weight`, feedForward),
		);
	}

	const arch = architecture;
	const metadata: Record<string, GgufValue> = {
		"general.architecture": str(arch),
		"general.name": str(name),
		"general.file_type": u32(1),
		[`${arch}.context_length`]: u32(contextLength),
		[`${arch}.embedding_length`]: u32(embedding),
		[`${arch}.block_count`]: u32(declaredLayers),
		[`${arch}.feed_forward_length`]: u32(feedForward),
		[`${arch}.attention.head_count`]: u32(heads),
		[`${arch}.attention.head_count_kv`]: u32(kvHeads),
		[`${arch}.attention.layer_norm_rms_epsilon`]: f32(1e-5),
		[`${arch}.rope.dimension_count`]: u32(headDim),
		[`${arch}.vocab_size`]: u32(vocab),
		"tokenizer.ggml.model": str("llama"),
		"tokenizer.ggml.tokens": strings(tokens),
		"tokenizer.ggml.scores": f32s(scores),
		"tokenizer.ggml.token_type": i32s(types),
		"tokenizer.ggml.bos_token_id": u32(1),
		"tokenizer.ggml.eos_token_id": u32(tokens.indexOf("<|im_end|>")),
		"tokenizer.ggml.unknown_token_id": u32(0),
		"tokenizer.ggml.add_bos_token": bool(false),
		"tokenizer.ggml.add_eos_token": bool(false),
	};
	if (chatTemplate !== null) metadata["tokenizer.chat_template"] = str(chatTemplate);
	return writeGguf(metadata, tensors);
}

/** Writes the model to `path` and returns the path. */
export function writeTinyLlama(path: string, options?: TinyLlamaOptions): string {
	writeFileSync(path, tinyLlamaGguf(options));
	return path;
}

if (process.argv[1]?.endsWith("tiny-llama.ts") && process.argv[2]) {
	writeTinyLlama(process.argv[2]);
	console.log(`wrote ${process.argv[2]}`);
}
