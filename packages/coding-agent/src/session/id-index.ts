// Entry ids of a session tree, by row, without a string per id: the ids' bytes
// (UTF-8) in one arena and an open-addressing hash table of rows. Opening a
// 100k-entry session looks up and inserts each line's id straight from the
// bytes read (scan.ts): a Map of 100k fresh strings was a third of indexing
// a line and most of what the garbage collector then had to copy. Strings are
// made only for the ids asked for (`idAt`), and kept.
import {
	type IndexedRun,
	R_CODE,
	R_ID_END,
	R_ID_HASH,
	R_ID_START,
	R_PARENT_END,
	R_PARENT_HASH,
	R_PARENT_START,
	R_ROLE_CODE,
	R_ROLE_START,
} from "./line-scan.js";

/**
 * FNV-1a over bytes; `find(string)` hashes the string's UTF-8 bytes the same way, and the line-scan
 * module (wasm/line-scan.ts `idHash`) the ids it reads. Session index files store these values
 * (index-cache.ts): changing the function means bumping INDEX_FORMAT.
 */
export function idBytesHash(b: Uint8Array, start: number, end: number): number {
	let h = 0x811c9dc5;
	for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x01000193);
	return h | 0;
}

/** Bytes of the string being looked up (ids are short ASCII: copied by hand, no Buffer). */
let scratch = new Uint8Array(256);

/** Writes the UTF-8 bytes of `s` into `scratch`; returns their length. */
function utf8Into(s: string): number {
	if (s.length <= scratch.length) {
		let k = 0;
		for (; k < s.length; k++) {
			const c = s.charCodeAt(k);
			if (c > 0x7f) break;
			scratch[k] = c;
		}
		if (k === s.length) return k;
	}
	const buf = Buffer.from(s, "utf8");
	if (buf.length > scratch.length) scratch = new Uint8Array(buf.length * 2);
	scratch.set(buf);
	return buf.length;
}

/**
 * The table holds pairs [row + 1, hash] (row + 1: 0 empty, TOMBSTONE removed): a probe compares
 * hashes in the slot it reads (one cache line) before it reads any id bytes.
 */
const TOMBSTONE = -1;
const MIN_TABLE = 2048;
/** Longest id `appendNewRun` takes (pi's are 8 bytes, UUIDs 36); a longer one goes the usual way. */
const MAX_RUN_ID = 64;

/** The ids of rows [0, n): each row's start and length in `arena` (its UTF-8 bytes) and its hash. */
export interface IdColumns {
	starts: Int32Array<ArrayBuffer>;
	lengths: Int32Array<ArrayBuffer>;
	hashes: Int32Array<ArrayBuffer>;
	arena: Uint8Array<ArrayBuffer>;
}

export class IdIndex {
	private arena = new Uint8Array(16 * 1024);
	/** A Buffer over `arena` (made again when it grows), to decode ids without an object per call. */
	private arenaText = Buffer.from(this.arena.buffer, this.arena.byteOffset, this.arena.byteLength);
	private used = 0;
	private starts = new Int32Array(1024);
	private lengths = new Int32Array(1024);
	/** Each row's hash: a rehash or a removal reads no id bytes. */
	private hashes = new Int32Array(1024);
	private count = 0;
	private table = new Int32Array(MIN_TABLE * 2);
	/** Slots in `table` (pairs). */
	private slots = MIN_TABLE;
	/** Live rows in the table, and slots taken (live + tombstones), for resizing. */
	private live = 0;
	private taken = 0;
	/** Where `appendNewRun`'s first pass leaves what it read (kept, so the reads are not optimized away). */
	private touched = 0;
	/** Ids made into strings (asked for, or given as strings). */
	private readonly strings = new Map<number, string>();

	get size(): number {
		return this.count;
	}

	/**
	 * Room for `n` more rows, the table sized for `likely` of them (its slots are written all over,
	 * so each one is resident memory; rows and id bytes are written in order, their spare room is not).
	 */
	reserve(n: number, likely = n): void {
		const need = this.count + n;
		if (need > this.starts.length) this.growRows(need);
		// Room for pi's 8-byte ids and then some: growing the arena while a file is read makes V8
		// drop the optimized code of the loop that adds ids (a path it had not seen).
		if (this.used + n * 12 > this.arena.length) this.growArena(this.used + n * 12);
		if ((this.taken + likely) * 2 > this.slots) this.rehash(this.count + likely);
	}

	/** The row of the id spelled by `b[start, end)` (whose `idBytesHash` is `h`, when known), or -1. */
	findBytes(b: Uint8Array, start: number, end: number, h = idBytesHash(b, start, end)): number {
		return this.lookup(b, start, end, h);
	}

	/** Row `row`'s id hash. */
	hashAt(row: number): number {
		return this.hashes[row];
	}

	/** The row of `id`, or -1. */
	find(id: string): number {
		const length = utf8Into(id);
		return this.lookup(scratch, 0, length, idBytesHash(scratch, 0, length));
	}

	/** Whether row `row`'s id is spelled by `b[start, end)` (no lookup). */
	rowIs(row: number, b: Uint8Array, start: number, end: number): boolean {
		const len = end - start;
		if (this.lengths[row] !== len) return false;
		const a = this.arena;
		const at = this.starts[row];
		for (let k = 0; k < len; k++) if (a[at + k] !== b[start + k]) return false;
		return true;
	}

	/**
	 * Appends a row for the id spelled by `b[start, end)` (its `idBytesHash` `h`, when known) unless a
	 * row has it already (one probe for both). Returns false, adding nothing, when it does.
	 */
	pushBytesIfNew(b: Uint8Array, start: number, end: number, h = idBytesHash(b, start, end)): boolean {
		const found = this.probe(b, start, end, h);
		if (found >= 0) return false;
		this.fill(-1 - found, this.append(b, start, end, h), h);
		return true;
	}

	/**
	 * Appends rows for the ids of `run`'s records, in order, while each line is the plain case of an
	 * open: a root or the child of the row before it, an id no row has (nor shares a hash with: then
	 * the caller's slower path decides), and a role the record names by code (or none). One loop with
	 * nothing allocated and no call per line. Returns how many records it took; the caller adds their
	 * rows' other columns.
	 */
	appendNewRun(run: IndexedRun): number {
		const { records, stride, base, buf } = run;
		const n = run.to - run.from;
		// Room first: the loop has no growth path (a path V8 had not seen would cost a deoptimization).
		if (this.count + n > this.starts.length) this.growRows(this.count + n);
		if (this.used + n * MAX_RUN_ID > this.arena.length)
			this.growArena(Math.max(this.arena.length * 2, this.used + n * MAX_RUN_ID));
		if ((this.taken + n) * 2 > this.slots) this.rehash(this.count + n);
		const arena = this.arena;
		const starts = this.starts;
		const lengths = this.lengths;
		const hashes = this.hashes;
		const table = this.table;
		const mask = this.slots - 1;
		// Each new id lands in a random slot of a table of megabytes, a cache miss: reading all of
		// the run's slots first, in a loop whose loads do not wait on each other, has the memory
		// fetch them at once instead of one after another in the loop below (~5 ms of 100k lines).
		let touched = 0;
		for (let k = run.from, r = k * stride; k < run.to; k++, r += stride)
			touched |= table[(records[r + R_ID_HASH] & mask) << 1];
		this.touched = touched;
		let row = this.count;
		let used = this.used;
		let k = run.from;
		for (let r = k * stride; k < run.to; k++, r += stride) {
			if (records[r + R_CODE] === 0) break;
			if (records[r + R_ROLE_CODE] === 0 && records[r + R_ROLE_START] >= 0) break;
			const idStart = records[r + R_ID_START] - base;
			const idLength = records[r + R_ID_END] - base - idStart;
			if (idLength > MAX_RUN_ID) break;
			const parentStart = records[r + R_PARENT_START];
			if (parentStart >= 0) {
				// The parent must be the row before: its hash, then its bytes.
				const last = row - 1;
				if (last < 0 || hashes[last] !== records[r + R_PARENT_HASH]) break;
				const parentLength = records[r + R_PARENT_END] - parentStart;
				if (lengths[last] !== parentLength) break;
				const from = parentStart - base;
				const at = starts[last];
				let q = 0;
				while (q < parentLength && arena[at + q] === buf[from + q]) q++;
				if (q < parentLength) break;
			}
			const h = records[r + R_ID_HASH];
			let slot = h & mask;
			let clash = false;
			for (; ; slot = (slot + 1) & mask) {
				const v = table[2 * slot];
				if (v === 0) break;
				if (v === TOMBSTONE || table[2 * slot + 1] === h) {
					clash = true;
					break;
				}
			}
			if (clash) break;
			for (let q = 0; q < idLength; q++) arena[used + q] = buf[idStart + q];
			starts[row] = used;
			lengths[row] = idLength;
			hashes[row] = h;
			table[2 * slot] = row + 1;
			table[2 * slot + 1] = h;
			used += idLength;
			row++;
		}
		const added = row - this.count;
		this.count = row;
		this.used = used;
		this.taken += added;
		this.live += added;
		return added;
	}

	/** Appends a row for `id`; the table then finds the new row for it (replacing an older row with that id). */
	push(id: string): number {
		const length = utf8Into(id);
		const h = idBytesHash(scratch, 0, length);
		const found = this.probe(scratch, 0, length, h);
		if (found >= 0) this.live--; // replaced, counted again by fill
		const row = this.append(scratch, 0, length, h);
		this.fill(found >= 0 ? found : -1 - found, row, h);
		this.strings.set(row, id);
		return row;
	}

	/**
	 * The slot holding the id `b[start, end)` (hash `h`), or `-1 - slot` for the slot a new row for it
	 * goes to (the first tombstone on the way, else the empty slot that ended the probe). Grows the
	 * table first when one more row would fill it past half.
	 */
	private probe(b: Uint8Array, start: number, end: number, h: number): number {
		if ((this.taken + 1) * 2 > this.slots) this.rehash(this.count + 1);
		const table = this.table;
		const mask = this.slots - 1;
		let free = -1;
		let s = h & mask;
		for (; ; s = (s + 1) & mask) {
			const v = table[2 * s];
			if (v === 0) break;
			if (v === TOMBSTONE) {
				if (free < 0) free = s;
			} else if (table[2 * s + 1] === h && this.rowIs(v - 1, b, start, end)) return s;
		}
		return -1 - (free < 0 ? s : free);
	}

	/** Points `slot` at `row` (hash `h`); an empty slot becomes taken. */
	private fill(slot: number, row: number, h: number): void {
		if (this.table[2 * slot] === 0) this.taken++;
		this.table[2 * slot] = row + 1;
		this.table[2 * slot + 1] = h;
		this.live++;
	}

	/** Remove the last row (its id is no longer found). */
	pop(): void {
		if (this.count === 0) return;
		const row = this.count - 1;
		const mask = this.slots - 1;
		const table = this.table;
		for (let s = this.hashes[row] & mask; table[2 * s] !== 0; s = (s + 1) & mask) {
			if (table[2 * s] === row + 1) {
				table[2 * s] = TOMBSTONE;
				this.live--;
				break;
			}
		}
		this.count--;
		this.used = this.starts[row];
		this.strings.delete(row);
	}

	/** The id columns of rows [0, n) as views (for an index file). */
	columns(n = this.count): IdColumns {
		return {
			starts: this.starts.subarray(0, n),
			lengths: this.lengths.subarray(0, n),
			hashes: this.hashes.subarray(0, n),
			arena: this.arena.subarray(0, n > 0 ? this.starts[n - 1] + this.lengths[n - 1] : 0),
		};
	}

	/**
	 * Become the ids of rows [0, n) of `c` (an empty index only): the arrays are kept as given (with
	 * room for more rows, as an index file is read), the table rebuilt from the stored hashes. The
	 * rows' ids must be distinct (they come from a tree that held them).
	 */
	restore(c: IdColumns, n: number): void {
		if (this.count !== 0) throw new Error("IdIndex.restore: not empty");
		this.starts = c.starts;
		this.lengths = c.lengths;
		this.hashes = c.hashes;
		this.arena = c.arena;
		this.arenaText = Buffer.from(c.arena.buffer, c.arena.byteOffset, c.arena.byteLength);
		this.used = n > 0 ? c.starts[n - 1] + c.lengths[n - 1] : 0;
		this.count = n;
		let size = MIN_TABLE;
		while (size < n * 2 + 2) size *= 2;
		const table = new Int32Array(size * 2);
		const mask = size - 1;
		const hashes = c.hashes;
		for (let row = 0; row < n; row++) {
			const h = hashes[row];
			let t = h & mask;
			while (table[2 * t] !== 0) t = (t + 1) & mask;
			table[2 * t] = row + 1;
			table[2 * t + 1] = h;
		}
		this.table = table;
		this.slots = size;
		this.live = n;
		this.taken = n;
	}

	idAt(row: number): string {
		let s = this.strings.get(row);
		if (s === undefined) {
			const at = this.starts[row];
			s = this.arenaText.toString("utf8", at, at + this.lengths[row]);
			this.strings.set(row, s);
		}
		return s;
	}

	private lookup(b: Uint8Array, start: number, end: number, h: number): number {
		const table = this.table;
		const mask = this.slots - 1;
		for (let s = h & mask; ; s = (s + 1) & mask) {
			const v = table[2 * s];
			if (v === 0) return -1;
			if (v !== TOMBSTONE && table[2 * s + 1] === h && this.rowIs(v - 1, b, start, end)) return v - 1;
		}
	}

	/** Stores the id bytes of a new row; returns the row. */
	private append(b: Uint8Array, start: number, end: number, h: number): number {
		const len = end - start;
		if (this.used + len > this.arena.length) this.growArena(Math.max(this.arena.length * 2, this.used + len));
		if (this.count === this.starts.length) this.growRows(this.count * 2);
		const row = this.count++;
		// By hand: `subarray` makes a Buffer object per id, costlier than copying 8-36 bytes.
		const arena = this.arena;
		for (let k = 0, at = this.used; k < len; k++) arena[at + k] = b[start + k];
		this.starts[row] = this.used;
		this.lengths[row] = len;
		this.hashes[row] = h;
		this.used += len;
		return row;
	}

	private growArena(size: number): void {
		const bigger = new Uint8Array(size);
		bigger.set(this.arena.subarray(0, this.used));
		this.arena = bigger;
		this.arenaText = Buffer.from(bigger.buffer, 0, bigger.byteLength);
	}

	private growRows(cap: number): void {
		const grow = (a: Int32Array) => {
			const b = new Int32Array(cap);
			b.set(a.subarray(0, this.count));
			return b;
		};
		this.starts = grow(this.starts);
		this.lengths = grow(this.lengths);
		this.hashes = grow(this.hashes);
	}

	/** A table with room for `rows` rows at most half full, without tombstones. */
	private rehash(rows: number): void {
		let size = this.slots;
		while (size < Math.max(rows, this.live + 1) * 2) size *= 2;
		const old = this.table;
		const oldSlots = this.slots;
		const table = new Int32Array(size * 2);
		const mask = size - 1;
		for (let s = 0; s < oldSlots; s++) {
			const v = old[2 * s];
			if (v <= 0) continue;
			const h = old[2 * s + 1];
			let t = h & mask;
			while (table[2 * t] !== 0) t = (t + 1) & mask;
			table[2 * t] = v;
			table[2 * t + 1] = h;
		}
		this.table = table;
		this.slots = size;
		this.taken = this.live;
	}
}
