/**
 * Reads and checks a GGUF file's header, metadata and tensor table in plain
 * JavaScript, before llama.cpp sees the file: a wrong, truncated or oversized
 * file becomes an error naming it instead of a native abort that would take
 * the whole pi process (and the session) down. Also used to list local models
 * without loading the native runtime.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";

export interface GgufInfo {
	path: string;
	version: number;
	/** File size in bytes. */
	size: number;
	architecture: string;
	/** `general.name` when present. */
	name?: string;
	/** `<arch>.context_length` (the trained context window). */
	contextLength?: number;
	chatTemplate?: string;
	tensorCount: number;
	/** Byte offset where tensor data begins. */
	dataOffset: number;
	/** Bytes the tensor table says the file must hold (data offset + the last tensor's end). */
	expectedSize: number;
}

/** A file that is not a loadable GGUF; `message` names the file. */
export class GgufFileError extends Error {
	constructor(
		readonly path: string,
		readonly reason:
			| "missing"
			| "not_gguf"
			| "unsupported_version"
			| "truncated"
			| "corrupt"
			| "too_big"
			| "architecture",
		detail: string,
	) {
		super(`${path}: ${detail}`);
		this.name = "GgufFileError";
	}
}

const MAGIC = 0x46554747; // "GGUF" little-endian
/** Refuse absurd counts before allocating for them (a corrupt header must not exhaust memory). */
const MAX_COUNT = 10_000_000;
const MAX_STRING = 64 * 1024 * 1024;

/** [elements per block, bytes per block] of the ggml tensor types, for the size check. */
const GGML_TYPE_SIZES: Record<number, [number, number]> = {
	0: [1, 4], // F32
	1: [1, 2], // F16
	2: [32, 18], // Q4_0
	3: [32, 20], // Q4_1
	6: [32, 22], // Q5_0
	7: [32, 24], // Q5_1
	8: [32, 34], // Q8_0
	9: [32, 36], // Q8_1
	10: [256, 84], // Q2_K
	11: [256, 110], // Q3_K
	12: [256, 144], // Q4_K
	13: [256, 176], // Q5_K
	14: [256, 210], // Q6_K
	15: [256, 292], // Q8_K
	16: [256, 66], // IQ2_XXS
	17: [256, 74], // IQ2_XS
	18: [256, 98], // IQ3_XXS
	19: [256, 50], // IQ1_S
	20: [32, 18], // IQ4_NL
	21: [256, 110], // IQ3_S
	22: [256, 82], // IQ2_S
	23: [256, 136], // IQ4_XS
	24: [1, 1], // I8
	25: [1, 2], // I16
	26: [1, 4], // I32
	27: [1, 8], // I64
	28: [1, 8], // F64
	29: [256, 56], // IQ1_M
	30: [1, 2], // BF16
	34: [256, 54], // TQ1_0
	35: [256, 66], // TQ2_0
	39: [32, 17], // MXFP4
};

/** Sequential reader over a file handle, buffering in chunks (metadata can be many MB of vocabulary). */
class FileCursor {
	private buffer = Buffer.alloc(0);
	private bufferStart = 0;
	position = 0;

	constructor(
		private readonly fd: number,
		private readonly size: number,
		private readonly path: string,
	) {}

	private need(bytes: number): Buffer {
		if (this.position + bytes > this.size) {
			throw new GgufFileError(this.path, "truncated", "the file ends inside its GGUF header or metadata (truncated?)");
		}
		const offset = this.position - this.bufferStart;
		if (offset >= 0 && offset + bytes <= this.buffer.length) {
			this.position += bytes;
			return this.buffer.subarray(offset, offset + bytes);
		}
		const chunk = Math.max(bytes, 1 << 20);
		const buffer = Buffer.alloc(Math.min(chunk, this.size - this.position));
		readSync(this.fd, buffer, 0, buffer.length, this.position);
		this.buffer = buffer;
		this.bufferStart = this.position;
		this.position += bytes;
		return buffer.subarray(0, bytes);
	}

	u8(): number {
		return this.need(1)[0];
	}
	u32(): number {
		return this.need(4).readUInt32LE(0);
	}
	u64(): number {
		const value = this.need(8).readBigUInt64LE(0);
		if (value > BigInt(Number.MAX_SAFE_INTEGER))
			throw new GgufFileError(this.path, "corrupt", "a size in the header is out of range");
		return Number(value);
	}
	string(): string {
		const length = this.u64();
		if (length > MAX_STRING) throw new GgufFileError(this.path, "corrupt", `a metadata string claims ${length} bytes`);
		return this.need(length).toString("utf8");
	}
	skip(bytes: number): void {
		if (this.position + bytes > this.size) {
			throw new GgufFileError(this.path, "truncated", "the file ends inside its GGUF metadata (truncated?)");
		}
		this.position += bytes;
	}
}

const SCALAR_SIZES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

function readValue(cursor: FileCursor, type: number, path: string, keep: boolean): unknown {
	switch (type) {
		case 4:
			return cursor.u32();
		case 5:
			return cursor.u32() | 0;
		case 8:
			return cursor.string();
		case 10:
			return cursor.u64();
		case 9: {
			const itemType = cursor.u32();
			const count = cursor.u64();
			if (count > MAX_COUNT) throw new GgufFileError(path, "corrupt", `a metadata array claims ${count} items`);
			const fixed = SCALAR_SIZES[itemType];
			if (fixed !== undefined && !keep) {
				cursor.skip(fixed * count);
				return undefined;
			}
			const items: unknown[] = [];
			for (let i = 0; i < count; i++) items.push(readValue(cursor, itemType, path, keep));
			return keep ? items : undefined;
		}
		default: {
			const size = SCALAR_SIZES[type];
			if (size === undefined) throw new GgufFileError(path, "corrupt", `unknown metadata value type ${type}`);
			cursor.skip(size);
			return undefined;
		}
	}
}

/**
 * Reads the header, metadata and tensor table; checks that the file is as
 * long as its tensor table says. Throws `GgufFileError`.
 */
export function readGgufInfoSync(path: string): GgufInfo {
	let fd: number;
	try {
		fd = openSync(path, "r");
	} catch {
		throw new GgufFileError(path, "missing", "no such model file");
	}
	try {
		const stats = fstatSync(fd);
		if (!stats.isFile()) throw new GgufFileError(path, "missing", "not a file");
		const size = stats.size;
		const cursor = new FileCursor(fd, size, path);
		if (size < 24 || cursor.u32() !== MAGIC) {
			throw new GgufFileError(path, "not_gguf", `not a GGUF model file (${basename(path)} does not start with "GGUF")`);
		}
		const version = cursor.u32();
		if (version < 2 || version > 3) {
			throw new GgufFileError(
				path,
				"unsupported_version",
				`GGUF version ${version} is not supported (2 or 3 expected)`,
			);
		}
		const tensorCount = cursor.u64();
		const kvCount = cursor.u64();
		if (tensorCount > MAX_COUNT || kvCount > MAX_COUNT) {
			throw new GgufFileError(path, "corrupt", "the GGUF header claims an impossible number of entries");
		}
		const metadata = new Map<string, unknown>();
		for (let i = 0; i < kvCount; i++) {
			const key = cursor.string();
			const type = cursor.u32();
			// Keep scalars and strings; skip big arrays (the vocabulary) without decoding them.
			metadata.set(key, readValue(cursor, type, path, false));
		}
		const architecture = metadata.get("general.architecture");
		if (typeof architecture !== "string" || architecture === "") {
			throw new GgufFileError(path, "corrupt", "the GGUF metadata names no architecture (general.architecture)");
		}
		const alignmentValue = metadata.get("general.alignment");
		const alignment = typeof alignmentValue === "number" && alignmentValue > 0 ? alignmentValue : 32;
		let dataEnd = 0;
		for (let i = 0; i < tensorCount; i++) {
			cursor.string();
			const dims = cursor.u32();
			if (dims > 8) throw new GgufFileError(path, "corrupt", `a tensor claims ${dims} dimensions`);
			let elements = 1;
			for (let d = 0; d < dims; d++) elements *= cursor.u64();
			const type = cursor.u32();
			const offset = cursor.u64();
			const sizes = GGML_TYPE_SIZES[type];
			const bytes = sizes ? Math.ceil(elements / sizes[0]) * sizes[1] : 0;
			dataEnd = Math.max(dataEnd, offset + bytes);
		}
		const dataOffset = Math.ceil(cursor.position / alignment) * alignment;
		const expectedSize = dataOffset + dataEnd;
		if (size < expectedSize) {
			throw new GgufFileError(
				path,
				"truncated",
				`the file is truncated: its tensors need ${expectedSize} bytes, the file has ${size} (an interrupted download?)`,
			);
		}
		const info: GgufInfo = { path, version, size, architecture, tensorCount, dataOffset, expectedSize };
		const name = metadata.get("general.name");
		if (typeof name === "string") info.name = name;
		const contextLength = metadata.get(`${architecture}.context_length`);
		if (typeof contextLength === "number") info.contextLength = contextLength;
		const template = metadata.get("tokenizer.chat_template");
		if (typeof template === "string") info.chatTemplate = template;
		return info;
	} finally {
		closeSync(fd);
	}
}

/** `readGgufInfoSync` as a promise (same checks). */
export async function readGgufInfo(path: string): Promise<GgufInfo> {
	return readGgufInfoSync(path);
}

/**
 * Refuses a model that cannot fit: the weights (memory-mapped, but read in
 * full while generating) plus a margin must fit in the machine's memory.
 */
export function checkGgufFitsMemory(info: GgufInfo, totalMemoryBytes: number): void {
	if (info.size > totalMemoryBytes * 0.9) {
		const gib = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GiB`;
		throw new GgufFileError(
			info.path,
			"too_big",
			`the model is too big for this machine's memory (${gib(info.size)} of weights, ${gib(totalMemoryBytes)} of RAM)`,
		);
	}
}

/** Whether the chat template has a thinking section (`<think>`-style reasoning). */
export function templateSupportsThinking(template: string | undefined): boolean {
	return template !== undefined && /<think>|reasoning_content|enable_thinking/.test(template);
}
