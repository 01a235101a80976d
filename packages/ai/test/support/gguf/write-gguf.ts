/**
 * A minimal GGUF v3 writer (ggml docs/gguf.md): header, typed metadata, tensor
 * infos, padding to `general.alignment`, tensor data. Enough to produce small
 * but real llama.cpp models for tests; it knows nothing about architectures.
 */

export const GGUF_MAGIC = "GGUF";
export const GGUF_VERSION = 3;
export const GGUF_ALIGNMENT = 32;

/** GGUF metadata value types. */
export enum GgufType {
	UINT8 = 0,
	INT8 = 1,
	UINT16 = 2,
	INT16 = 3,
	UINT32 = 4,
	INT32 = 5,
	FLOAT32 = 6,
	BOOL = 7,
	STRING = 8,
	ARRAY = 9,
	UINT64 = 10,
	INT64 = 11,
	FLOAT64 = 12,
}

/** ggml tensor types this writer can store. */
export enum GgmlType {
	F32 = 0,
	F16 = 1,
}

export type GgufValue =
	| { type: GgufType.STRING; value: string }
	| { type: GgufType.UINT32 | GgufType.INT32 | GgufType.FLOAT32 | GgufType.UINT64; value: number }
	| { type: GgufType.BOOL; value: boolean }
	| { type: GgufType.ARRAY; itemType: GgufType.STRING; value: string[] }
	| { type: GgufType.ARRAY; itemType: GgufType.FLOAT32 | GgufType.INT32; value: number[] };

export interface GgufTensor {
	name: string;
	/** ggml order: dims[0] is the fastest-varying (row length). */
	dims: number[];
	type: GgmlType;
	data: Float32Array;
}

export const str = (value: string): GgufValue => ({ type: GgufType.STRING, value });
export const u32 = (value: number): GgufValue => ({ type: GgufType.UINT32, value });
export const f32 = (value: number): GgufValue => ({ type: GgufType.FLOAT32, value });
export const bool = (value: boolean): GgufValue => ({ type: GgufType.BOOL, value });
export const strings = (value: string[]): GgufValue => ({ type: GgufType.ARRAY, itemType: GgufType.STRING, value });
export const f32s = (value: number[]): GgufValue => ({ type: GgufType.ARRAY, itemType: GgufType.FLOAT32, value });
export const i32s = (value: number[]): GgufValue => ({ type: GgufType.ARRAY, itemType: GgufType.INT32, value });

/** Growable little-endian byte buffer. */
class ByteWriter {
	private buf = Buffer.alloc(1 << 16);
	length = 0;

	private ensure(extra: number): void {
		if (this.length + extra <= this.buf.length) return;
		let size = this.buf.length * 2;
		while (size < this.length + extra) size *= 2;
		const next = Buffer.alloc(size);
		this.buf.copy(next, 0, 0, this.length);
		this.buf = next;
	}
	u32(v: number): void {
		this.ensure(4);
		this.buf.writeUInt32LE(v, this.length);
		this.length += 4;
	}
	i32(v: number): void {
		this.ensure(4);
		this.buf.writeInt32LE(v, this.length);
		this.length += 4;
	}
	u64(v: number): void {
		this.ensure(8);
		this.buf.writeBigUInt64LE(BigInt(v), this.length);
		this.length += 8;
	}
	f32(v: number): void {
		this.ensure(4);
		this.buf.writeFloatLE(v, this.length);
		this.length += 4;
	}
	u8(v: number): void {
		this.ensure(1);
		this.buf[this.length++] = v;
	}
	string(s: string): void {
		const bytes = Buffer.from(s, "utf8");
		this.u64(bytes.length);
		this.bytes(bytes);
	}
	bytes(b: Uint8Array): void {
		this.ensure(b.length);
		this.buf.set(b, this.length);
		this.length += b.length;
	}
	pad(alignment: number): void {
		const rest = this.length % alignment;
		if (rest !== 0) this.bytes(new Uint8Array(alignment - rest));
	}
	result(): Buffer {
		return this.buf.subarray(0, this.length);
	}
}

function writeValue(w: ByteWriter, value: GgufValue): void {
	w.u32(value.type);
	switch (value.type) {
		case GgufType.STRING:
			w.string(value.value);
			return;
		case GgufType.UINT32:
			w.u32(value.value);
			return;
		case GgufType.INT32:
			w.i32(value.value);
			return;
		case GgufType.FLOAT32:
			w.f32(value.value);
			return;
		case GgufType.UINT64:
			w.u64(value.value);
			return;
		case GgufType.BOOL:
			w.u8(value.value ? 1 : 0);
			return;
		case GgufType.ARRAY:
			w.u32(value.itemType);
			w.u64(value.value.length);
			for (const item of value.value) {
				if (value.itemType === GgufType.STRING) w.string(item as string);
				else if (value.itemType === GgufType.FLOAT32) w.f32(item as number);
				else w.i32(item as number);
			}
			return;
	}
}

function tensorBytes(tensor: GgufTensor): Uint8Array {
	const count = tensor.dims.reduce((a, b) => a * b, 1);
	if (count !== tensor.data.length) throw new Error(`${tensor.name}: ${tensor.data.length} values for ${count}`);
	if (tensor.type === GgmlType.F32) return new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, count * 4);
	const out = Buffer.alloc(count * 2);
	for (let i = 0; i < count; i++) out.writeUInt16LE(toHalf(tensor.data[i]), i * 2);
	return out;
}

/** IEEE 754 binary16 from a float (round to nearest; enough for small random weights). */
export function toHalf(value: number): number {
	const f = new Float32Array([value]);
	const bits = new Uint32Array(f.buffer)[0];
	const sign = (bits >>> 16) & 0x8000;
	const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
	let mantissa = bits & 0x7fffff;
	if (exponent <= 0) {
		if (exponent < -10) return sign;
		mantissa = (mantissa | 0x800000) >> (1 - exponent);
		return sign | ((mantissa + 0x1000) >> 13);
	}
	if (exponent >= 31) return sign | 0x7c00;
	const half = sign | (exponent << 10) | (mantissa >> 13);
	return (mantissa & 0x1000) !== 0 ? half + 1 : half;
}

/** Serialises a whole GGUF v3 file. */
export function writeGguf(metadata: Record<string, GgufValue>, tensors: GgufTensor[]): Buffer {
	const w = new ByteWriter();
	w.bytes(Buffer.from(GGUF_MAGIC, "ascii"));
	w.u32(GGUF_VERSION);
	w.u64(tensors.length);
	const entries = Object.entries({ "general.alignment": u32(GGUF_ALIGNMENT), ...metadata });
	w.u64(entries.length);
	for (const [key, value] of entries) {
		w.string(key);
		writeValue(w, value);
	}
	const blobs = tensors.map(tensorBytes);
	let offset = 0;
	tensors.forEach((tensor, i) => {
		w.string(tensor.name);
		w.u32(tensor.dims.length);
		for (const dim of tensor.dims) w.u64(dim);
		w.u32(tensor.type);
		w.u64(offset);
		offset += blobs[i].length;
		offset += (GGUF_ALIGNMENT - (offset % GGUF_ALIGNMENT)) % GGUF_ALIGNMENT;
	});
	w.pad(GGUF_ALIGNMENT);
	for (const blob of blobs) {
		w.bytes(blob);
		w.pad(GGUF_ALIGNMENT);
	}
	return w.result();
}
