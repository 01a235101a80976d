// The per-line byte checks of a session open (scan.ts), run by a WebAssembly
// module compiled from wasm/line-scan.ts: a line's envelope read without
// parsing it, and the check that a line is one well-formed JSON value. The
// bytes are read straight into the module's memory, so a check is one call
// with two offsets and nothing is copied.
import { LINE_SCAN_WASM } from "./line-scan.generated.js";

/** The parts of the WebAssembly JS API used here (Node's types do not declare it; no DOM lib). */
interface WasmApi {
	Module: new (bytes: Uint8Array) => WasmModule;
	Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: object };
}
type WasmModule = { readonly kind: "wasm-module" };

interface LineScanExports {
	memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
	BUFFER_BASE: { readonly value: number };
	RECORDS: { readonly value: number };
	RECORDS_CAP: { readonly value: number };
	RECORD_INTS: { readonly value: number };
	scanLines(from: number, to: number, cap: number, fast: number): number;
	consumed(): number;
	isJson(start: number, end: number): number;
	HASH_STATE: { readonly value: number };
	HASH_STATE_BYTES: { readonly value: number };
	HASH_OUT: { readonly value: number };
	hashReset(): void;
	hashUpdate(from: number, to: number): void;
	hashDigest(): void;
}

/** The entry types a record's code names, by code - 1 (most frequent first, as the module tries them). */
export const LAZY_TYPE_NAMES: readonly string[] = [
	"message",
	"custom",
	"compaction",
	"branch_summary",
	"custom_message",
	"usage",
];

/**
 * A record's fields (wasm/line-scan.ts's `scanLines`), as i32 offsets from the record's start in
 * `LineScanner.records`. Positions are absolute in the module's memory: subtract `base` for
 * offsets into the buffer; -1 means absent.
 */
export const R_START = 0;
export const R_END = 1;
/** The type's code: 1-based in LAZY_TYPE_NAMES, 0 when the line must be parsed. */
export const R_CODE = 2;
export const R_ID_START = 3;
export const R_ID_END = 4;
export const R_PARENT_START = 5;
export const R_PARENT_END = 6;
export const R_ROLE_START = 8;
export const R_ROLE_END = 9;
export const R_PROVIDER_START = 10;
export const R_PROVIDER_END = 11;
export const R_MODEL_START = 12;
export const R_MODEL_END = 13;
/** The id's and the parent id's hash (id-index.ts's `idBytesHash`; 0 for a root). */
export const R_ID_HASH = 14;
export const R_PARENT_HASH = 15;
/** The role's code: `ROLE_NAMES[code - 1]`, 0 for another role (read from its bytes) or none. */
export const R_ROLE_CODE = 16;

/**
 * Records `[from, to)` of a scan's batch, the first of a line indexed from its envelope: a tree
 * adds rows for them in one go while they are plain lines (tree-columns.ts `appendIndexedRun`).
 */
export interface IndexedRun {
	/** The scanner's records (`LineScanner.records`) and ints per record. */
	records: Int32Array;
	stride: number;
	from: number;
	to: number;
	/** Positions in records minus `base` are offsets into `buf`, whose first byte is at `bufStart` in the file. */
	base: number;
	buf: Buffer;
	bufStart: number;
	/** 1-based line of record `from`; the others follow. */
	line: number;
}

/** Whether the bytes `[at, end)` spell the ASCII string `s`. */
export function bytesSpell(buf: Uint8Array, at: number, end: number, s: string): boolean {
	if (s.length !== end - at) return false;
	for (let k = 0; k < s.length; k++) if (buf[at + k] !== s.charCodeAt(k)) return false;
	return true;
}

/**
 * The ASCII bytes [at, end) as a string, or `known` itself when it holds the same characters: an
 * index of 100k entries would otherwise hold a copy of each provider and model name (and the tree's
 * name codes find a repeated string object without a lookup).
 */
export function asciiString(buf: Buffer, at: number, end: number, known: string | undefined): string {
	return known !== undefined && bytesSpell(buf, at, end, known) ? known : buf.toString("latin1", at, end);
}

/** The roles a record's role code names, by code - 1. */
export const ROLE_NAMES: readonly string[] = ["user", "assistant", "toolResult"];

let compiled: WasmModule | null | undefined;

function compile(): WasmModule | null {
	if (compiled === undefined) {
		// No WebAssembly (node --jitless): sessions open by parsing every line instead.
		compiled = null;
		const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
		if (api) {
			try {
				compiled = new api.Module(Buffer.from(LINE_SCAN_WASM, "base64"));
			} catch {}
		}
	}
	return compiled;
}

const PAGE = 65536;

/**
 * Bytes a scan reads at a time into a scanner's buffer (larger reads save no measurable CPU). The
 * module's memory starts with room for them (scripts/generate-line-scan.ts `initialMemory`), so it
 * grows only for a longer line: growing detaches the old ArrayBuffer, and after the first detach V8
 * checks every typed array access in the process for it.
 */
export const SCAN_READ_BYTES = 1024 * 1024;

/**
 * One instance of the module with its memory: the bytes to split go in `buffer(size)`, `scan`
 * records their lines. Used by one scan at a time (`acquireLineScanner`).
 */
export class LineScanner {
	private readonly exports: LineScanExports;
	/** Where `buffer` starts in the module's memory (positions in records minus this are buffer offsets). */
	readonly base: number;
	/** Int32s per record in `records`. */
	readonly recordInts: number;
	private view: Buffer;
	private recordsView: Int32Array;

	constructor(module: WasmModule) {
		const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly as WasmApi;
		const instance = new api.Instance(module, {
			env: {
				abort: () => {
					throw new Error("line-scan.wasm aborted");
				},
			},
		});
		this.exports = instance.exports as unknown as LineScanExports;
		this.base = this.exports.BUFFER_BASE.value;
		this.recordInts = this.exports.RECORD_INTS.value;
		this.view = Buffer.alloc(0);
		this.recordsView = this.recordsOf(this.exports.memory.buffer);
	}

	private recordsOf(memory: ArrayBuffer): Int32Array {
		return new Int32Array(memory, this.exports.RECORDS.value, this.exports.RECORDS_CAP.value * this.recordInts);
	}

	/**
	 * A buffer of `size` bytes in the module's memory (its earlier bytes kept when it grows): the
	 * bytes `scan` splits. A buffer returned earlier is detached when a larger one is asked for.
	 */
	buffer(size: number): Buffer {
		const memory = this.exports.memory;
		const need = this.base + size;
		if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
		if (this.view.buffer !== memory.buffer) {
			this.view = Buffer.from(memory.buffer, this.base, memory.buffer.byteLength - this.base);
			this.recordsView = this.recordsOf(memory.buffer);
		}
		return this.view.subarray(0, size);
	}

	/** The size of the module's memory (it grows with the longest line scanned). */
	get memoryBytes(): number {
		return this.exports.memory.buffer.byteLength;
	}

	/** The records the last `scan` wrote (valid until the next one). */
	get records(): Int32Array {
		return this.recordsView;
	}

	/**
	 * Records the lines ending in "\n" in `[from, to)` of the buffer, at most `cap` (fewer when
	 * the records are full: call again from `consumed`); `fast`: read the envelopes of the lines
	 * that can be indexed without parsing. Returns the number of records.
	 */
	scan(from: number, to: number, cap: number, fast: boolean): number {
		// The module takes an i32: a larger cap would wrap (2^53 - 1 becomes -1, no line at all).
		return this.exports.scanLines(this.base + from, this.base + to, Math.min(cap, 0x7fffffff), fast ? 1 : 0);
	}

	/** Buffer offset of the first line the last `scan` did not record. */
	get consumed(): number {
		return this.exports.consumed() - this.base;
	}

	/** Whether `[start, end)` of the buffer holds one JSON value (whitespace around it allowed). */
	isJson(start: number, end: number): boolean {
		return this.exports.isJson(this.base + start, this.base + end) !== 0;
	}

	/** Puts a content hash's state (from `saveHashState`) into the module, or starts a new one (undefined). */
	loadHashState(state: Uint8Array | undefined): void {
		if (state === undefined) this.exports.hashReset();
		else new Uint8Array(this.exports.memory.buffer, this.exports.HASH_STATE.value, state.length).set(state);
	}

	/** The module's content hash state, copied into `into` when given (for `loadHashState`, maybe on another scanner). */
	saveHashState(into?: Uint8Array): Uint8Array {
		const bytes = this.exports.HASH_STATE_BYTES.value;
		const state = new Uint8Array(this.exports.memory.buffer, this.exports.HASH_STATE.value, bytes);
		const out = into ?? new Uint8Array(bytes);
		out.set(state);
		return out;
	}

	/** Feeds `[from, to)` of the buffer to the content hash, after the bytes fed before. */
	hashUpdate(from: number, to: number): void {
		this.exports.hashUpdate(this.base + from, this.base + to);
	}

	/** The content hash of the bytes fed so far, as 16 hex digits (more may be fed after). */
	hashDigest(): string {
		this.exports.hashDigest();
		const view = new DataView(this.exports.memory.buffer, this.exports.HASH_OUT.value, 8);
		return view.getBigUint64(0, true).toString(16).padStart(16, "0");
	}
}

let idle: LineScanner | undefined;

/**
 * A scanner for the caller's use until `releaseLineScanner`, or undefined without WebAssembly.
 * One is kept for the next scan; a scan started while another runs gets its own.
 */
export function acquireLineScanner(): LineScanner | undefined {
	const scanner = idle;
	if (scanner) {
		idle = undefined;
		return scanner;
	}
	const module = compile();
	return module ? new LineScanner(module) : undefined;
}

/**
 * A WebAssembly memory never shrinks: a scanner grown past this (a line of several MB) is dropped
 * for the garbage collector instead of being kept, so a long-running process holds at most this.
 */
export const IDLE_SCANNER_MAX_BYTES = 4 * 1024 * 1024;

export function releaseLineScanner(scanner: LineScanner): void {
	idle = scanner.memoryBytes <= IDLE_SCANNER_MAX_BYTES ? scanner : undefined;
}
