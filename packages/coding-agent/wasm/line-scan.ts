// The byte checks a session open runs on nearly every line (src/session/scan.ts),
// in WebAssembly: reading a line's envelope without parsing it, and checking
// that a line is one well-formed JSON value. In JavaScript these loops run
// unoptimized for the first megabytes of every process (V8 tiers them up while
// the file is read) and cost more after; compiled ahead of time they do not.
// AssemblyScript, compiled by scripts/generate-line-scan.ts into
// src/session/line-scan.generated.ts. The rules are the JavaScript ones they
// replaced (test/session/line-scan-oracle.ts); line-scan.test.ts holds the two
// to the same answers.

// ---------------------------------------------------------------- memory
// [0, 256): the fields of the last envelope read (i32 each, OUT_*; a record copies them).
// [256, 512): the container stack of `isJson`.
// [1024, RECORDS): the module's own data (the compiler's memoryBase is 1024).
// [RECORDS, KEYS): the records `scanLines` writes.
// [KEYS, BUFFER_BASE): the keys the envelope reader looks for, and their Horspool shifts.
// [BUFFER_BASE, ...): the bytes being scanned (the caller reads the file into it).

const OUT_ID_START: u32 = 4;
const OUT_ID_END: u32 = 8;
const OUT_PARENT_START: u32 = 12;
const OUT_PARENT_END: u32 = 16;
const OUT_PARENT_KEY: u32 = 20;
const OUT_ROLE_START: u32 = 24;
const OUT_ROLE_END: u32 = 28;
const OUT_PROVIDER_START: u32 = 32;
const OUT_PROVIDER_END: u32 = 36;
const OUT_MODEL_START: u32 = 40;
const OUT_MODEL_END: u32 = 44;
const OUT_ID_HASH: u32 = 48;
const OUT_PARENT_HASH: u32 = 52;
const OUT_ROLE_CODE: u32 = 56;

const STACK: u32 = 256;
const MAX_DEPTH: i32 = 256;

/**
 * A line's record: [start, end, type code (0: parse the line), then the envelope's fields from
 * OUT_ID_START to OUT_ROLE_CODE: id start, id end, parent start, parent end (-1 for a root),
 * the parentId key, role start, role end, provider start, provider end, model start, model end
 * (-1 when absent), the id's hash, the parent id's hash (0 for a root: id-index.ts's FNV-1a, so the
 * JavaScript side hashes no id), the role's code (1 user, 2 assistant, 3 toolResult, 0 another or
 * none)]. Addresses are absolute.
 */
export const RECORD_INTS: i32 = 17;
/** Where `scanLines` writes its records, and how many fit. */
export const RECORDS: u32 = 16384;
export const RECORDS_CAP: i32 = 512;

/** Where the scanned bytes start: the JavaScript side puts its read buffer here. */
export const BUFFER_BASE: u32 = 65536;

// Keys, each in a 48-byte slot: its length at +0, its bytes from +16 (zero padded to 32 bytes), so
// that its first 16 bytes load as one vector (and, for a longer key, its last 16 as another).
const KEYS: u32 = 60 * 1024;
const KEY_BYTES: u32 = 16;
const K_TYPE: u32 = KEYS; // {"type":"
const K_ID: u32 = KEYS + 48; // ,"id":"
const K_PARENT: u32 = KEYS + 96; // ,"parentId":
const K_NULL: u32 = KEYS + 144; // null
const K_TIMESTAMP: u32 = KEYS + 192; // ,"timestamp":"
const K_ROLE: u32 = KEYS + 240; // ,"message":{"role":"
const K_PROVIDER: u32 = KEYS + 288; // ,"provider":"
const K_MODEL: u32 = KEYS + 336; // ,"model":"
const SHIFTS: u32 = KEYS + 512; // 256 bytes: backward Horspool shifts for K_PROVIDER

function storeKey(at: u32, text: string): void {
	memory.fill(at, 0, 48);
	store<u8>(at, <u8>text.length);
	for (let k = 0; k < text.length; k++) store<u8>(at + KEY_BYTES + <u32>k, <u8>text.charCodeAt(k));
}

let ready = false;

function init(): void {
	storeKey(K_TYPE, '{"type":"');
	storeKey(K_ID, ',"id":"');
	storeKey(K_PARENT, ',"parentId":');
	storeKey(K_NULL, "null");
	storeKey(K_TIMESTAMP, ',"timestamp":"');
	storeKey(K_ROLE, ',"message":{"role":"');
	storeKey(K_PROVIDER, ',"provider":"');
	storeKey(K_MODEL, ',"model":"');
	const n = <i32>load<u8>(K_PROVIDER);
	for (let b = 0; b < 256; b++) store<u8>(SHIFTS + <u32>b, <u8>n);
	for (let k = n - 1; k >= 1; k--) store<u8>(SHIFTS + <u32>load<u8>(K_PROVIDER + KEY_BYTES + <u32>k), <u8>k);
	ready = true;
}

function keyLength(key: u32): i32 {
	return <i32>load<u8>(key);
}

/** Whether the key's bytes are at `at`, wholly before `end` (keys of up to 32 bytes). */
function hasAt(at: i32, end: i32, key: u32): bool {
	const n = keyLength(key);
	if (at + n > end) return false;
	if (at + 16 <= end) {
		// One vector compare for the first 16 bytes, one more for the last 16 of a longer key.
		const m = i8x16.bitmask(i8x16.eq(v128.load(<usize>at), v128.load(<usize>(key + KEY_BYTES))));
		if (n <= 16) {
			const want = (1 << n) - 1;
			return (m & want) === want;
		}
		if (m !== 0xffff) return false;
		const tail = v128.load(<usize>(key + KEY_BYTES + <u32>(n - 16)));
		return i8x16.bitmask(i8x16.eq(v128.load(<usize>(at + n - 16)), tail)) === 0xffff;
	}
	for (let k = 0; k < n; k++) if (load<u8>(<u32>(at + k)) !== load<u8>(key + KEY_BYTES + <u32>k)) return false;
	return true;
}

/**
 * Index after the closing quote of a string of printable ASCII without escapes starting at `at`, or -1
 * (also for an empty string). 16 bytes at a time while they lie before `end`.
 */
function stringEnd(at: i32, end: i32): i32 {
	const quote = i8x16.splat(34);
	const backslash = i8x16.splat(92);
	const space = i8x16.splat(0x20);
	const tilde = i8x16.splat(0x7e);
	let i = at;
	while (i + 16 <= end) {
		const v = v128.load(<usize>i);
		const q = i8x16.bitmask(i8x16.eq(v, quote));
		const bad = i8x16.bitmask(v128.or(v128.or(i8x16.lt_u(v, space), i8x16.gt_u(v, tilde)), i8x16.eq(v, backslash)));
		if (q !== 0) {
			const k = ctz<i32>(q);
			if ((bad & ((1 << k) - 1)) !== 0) return -1;
			return i + k > at ? i + k + 1 : -1;
		}
		if (bad !== 0) return -1;
		i += 16;
	}
	for (; i < end; i++) {
		const c = <i32>load<u8>(<u32>i);
		if (c === 34) return i > at ? i + 1 : -1;
		if (c < 0x20 || c > 0x7e || c === 92) return -1;
	}
	return -1;
}

/** Whether `[at, end)` spells `text` (ASCII). */
function spells(at: i32, end: i32, text: string): bool {
	if (end - at !== text.length) return false;
	for (let k = 0; k < text.length; k++) if (<i32>load<u8>(<u32>(at + k)) !== text.charCodeAt(k)) return false;
	return true;
}

/** FNV-1a of the bytes [at, end): id-index.ts's hash of an id (its values are stored in index files). */
function idHash(at: i32, end: i32): i32 {
	let h: u32 = 0x811c9dc5;
	for (let i = at; i < end; i++) h = (h ^ <u32>load<u8>(<u32>i)) * 0x01000193;
	return <i32>h;
}

/** The role's code (line-scan.ts's ROLE_NAMES, 1-based), or 0 for another role. */
function roleCode(at: i32, end: i32): i32 {
	if (spells(at, end, "user")) return 1;
	if (spells(at, end, "assistant")) return 2;
	if (spells(at, end, "toolResult")) return 3;
	return 0;
}

/** The type's code (scan.ts's LAZY_TYPES, 1-based), or 0 for a type not indexed from its envelope. */
function typeCode(at: i32, end: i32): i32 {
	if (spells(at, end, "message")) return 1;
	if (spells(at, end, "custom")) return 2;
	if (spells(at, end, "compaction")) return 3;
	if (spells(at, end, "branch_summary")) return 4;
	if (spells(at, end, "custom_message")) return 5;
	if (spells(at, end, "usage")) return 6;
	return 0;
}

/** Start of the last key wholly inside [from, to), searched backwards, or -1. */
function lastProviderKey(from: i32, to: i32): i32 {
	const n = keyLength(K_PROVIDER);
	for (let p = to - n; p >= from; p -= <i32>load<u8>(SHIFTS + <u32>load<u8>(<u32>p))) {
		if (hasAt(p, to, K_PROVIDER)) return p;
	}
	return -1;
}

/**
 * Reads the envelope of the line `[start, end)` (absolute addresses) into the result fields;
 * returns its type's code, or 0 when the line must be parsed. The rules are scan.ts's: the line
 * ends with "}", starts with `{"type":"<type>","id":"<id>","parentId":<null or "id">,"timestamp":"…"`
 * within its first 512 bytes, a message continues with its role, and an assistant message names
 * its provider and model within its last 2048 bytes.
 */
function envelope(start: i32, end: i32): i32 {
	let last = end - 1;
	while (last > start) {
		const c = load<u8>(<u32>last);
		if (c !== 13 && c !== 32) break;
		last--;
	}
	if (load<u8>(<u32>last) !== 125) return 0;
	const head = min(end, start + 512);
	let i = start;
	if (!hasAt(i, end, K_TYPE)) return 0;
	i += keyLength(K_TYPE);
	let j = stringEnd(i, head);
	if (j < 0) return 0;
	const type = typeCode(i, j - 1);
	if (type === 0 || !hasAt(j, end, K_ID)) return 0;
	i = j + keyLength(K_ID);
	j = stringEnd(i, head);
	if (j < 0) return 0;
	const idStart = i;
	const idEnd = j - 1;
	if (!hasAt(j, end, K_PARENT)) return 0;
	const parentKey = j;
	i = j + keyLength(K_PARENT);
	let parentStart = -1;
	let parentEnd = -1;
	if (hasAt(i, end, K_NULL)) {
		j = i + keyLength(K_NULL);
	} else {
		if (i >= end || load<u8>(<u32>i) !== 34) return 0;
		j = stringEnd(i + 1, head);
		if (j < 0) return 0;
		parentStart = i + 1;
		parentEnd = j - 1;
	}
	if (!hasAt(j, end, K_TIMESTAMP)) return 0;
	j = stringEnd(j + keyLength(K_TIMESTAMP), head);
	if (j < 0) return 0;
	let roleStart = -1;
	let roleEnd = -1;
	let providerStart = -1;
	let providerEnd = -1;
	let modelStart = -1;
	let modelEnd = -1;
	let role = 0;
	if (type === 1) {
		if (!hasAt(j, end, K_ROLE)) return 0;
		i = j + keyLength(K_ROLE);
		j = stringEnd(i, head);
		if (j < 0) return 0;
		roleStart = i;
		roleEnd = j - 1;
		role = roleCode(roleStart, roleEnd);
		if (role === 2) {
			const p = lastProviderKey(max(j, end - 2048), last + 1);
			if (p < 0) return 0;
			i = p + keyLength(K_PROVIDER);
			j = stringEnd(i, end);
			if (j < 0 || !hasAt(j, end, K_MODEL)) return 0;
			providerStart = i;
			providerEnd = j - 1;
			modelStart = j + keyLength(K_MODEL);
			const k = stringEnd(modelStart, end);
			if (k < 0) return 0;
			modelEnd = k - 1;
		}
	}
	store<i32>(OUT_ID_START, idStart);
	store<i32>(OUT_ID_END, idEnd);
	store<i32>(OUT_PARENT_START, parentStart);
	store<i32>(OUT_PARENT_END, parentEnd);
	store<i32>(OUT_PARENT_KEY, parentKey);
	store<i32>(OUT_ROLE_START, roleStart);
	store<i32>(OUT_ROLE_END, roleEnd);
	store<i32>(OUT_PROVIDER_START, providerStart);
	store<i32>(OUT_PROVIDER_END, providerEnd);
	store<i32>(OUT_MODEL_START, modelStart);
	store<i32>(OUT_MODEL_END, modelEnd);
	store<i32>(OUT_ID_HASH, idHash(idStart, idEnd));
	store<i32>(OUT_PARENT_HASH, parentStart < 0 ? 0 : idHash(parentStart, parentEnd));
	store<i32>(OUT_ROLE_CODE, role);
	return type;
}

// ---------------------------------------------------------------- JSON check (test/session/line-scan-oracle.ts holds them in JavaScript)

function isDigit(c: i32): bool {
	return c >= 48 && c <= 57;
}

function at(i: i32): i32 {
	return <i32>load<u8>(<u32>i);
}

function skipWs(i: i32, end: i32): i32 {
	while (i < end) {
		const c = at(i);
		if (c === 32 || c === 9 || c === 13 || c === 10) i++;
		else break;
	}
	return i;
}

/**
 * Index after the string whose opening quote is at `i`, or -1. Most of a line's bytes are string
 * content, so runs without a quote, backslash or control byte are skipped 16 bytes at a time.
 */
function skipString(i: i32, end: i32): i32 {
	const quote = i8x16.splat(34);
	const backslash = i8x16.splat(92);
	const space = i8x16.splat(32);
	i++;
	for (;;) {
		while (i + 16 <= end) {
			const v = v128.load(<usize>i);
			const m = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.lt_u(v, space)));
			if (m === 0) i += 16;
			else {
				i += ctz<i32>(m);
				break;
			}
		}
		if (i >= end) return -1;
		const c = at(i++);
		if (c === 34) return i;
		if (c === 92) {
			if (i >= end) return -1;
			const e = at(i++);
			if (e === 117) {
				if (i + 4 > end) return -1;
				for (let k = 0; k < 4; k++) {
					const h = at(i++) | 32;
					if (!(isDigit(h) || (h >= 97 && h <= 102))) return -1;
				}
			} else if (e !== 34 && e !== 92 && e !== 47 && e !== 98 && e !== 102 && e !== 110 && e !== 114 && e !== 116) {
				return -1;
			}
		} else if (c < 32) return -1;
	}
	// biome-ignore lint/correctness/noUnreachable: AssemblyScript finds no return after the endless loop without it
	return -1;
}

function skipDigits(i: i32, end: i32): i32 {
	if (i >= end || !isDigit(at(i))) return -1;
	do i++;
	while (i < end && isDigit(at(i)));
	return i;
}

function skipNumber(i: i32, end: i32): i32 {
	if (at(i) === 45) i++;
	if (i < end && at(i) === 48) i++;
	else if ((i = skipDigits(i, end)) < 0) return -1;
	if (i < end && at(i) === 46 && (i = skipDigits(i + 1, end)) < 0) return -1;
	if (i < end && (at(i) | 32) === 101) {
		i++;
		if (i < end && (at(i) === 43 || at(i) === 45)) i++;
		if ((i = skipDigits(i, end)) < 0) return -1;
	}
	return i;
}

function skipWord(i: i32, end: i32, word: string): i32 {
	if (i + word.length > end) return -1;
	for (let k = 0; k < word.length; k++) if (at(i + k) !== word.charCodeAt(k)) return -1;
	return i + word.length;
}

/** Index after `"key":` starting at `i` (whitespace allowed around), or -1. */
function skipKey(i: i32, end: i32): i32 {
	i = skipWs(i, end);
	if (i >= end || at(i) !== 34 || (i = skipString(i, end)) < 0) return -1;
	i = skipWs(i, end);
	return i < end && at(i) === 58 ? i + 1 : -1;
}

/** 1 when `[start, end)` (absolute addresses) is one JSON value with optional whitespace around it, else 0. */
export function isJson(start: i32, end: i32): i32 {
	let depth = 0;
	let i = start;
	for (;;) {
		// A value starts here.
		i = skipWs(i, end);
		if (i >= end) return 0;
		let c = at(i);
		if (c === 123 || c === 91) {
			if (depth === MAX_DEPTH) return 0;
			store<u8>(STACK + <u32>depth, <u8>c);
			depth++;
			i = skipWs(i + 1, end);
			if (c === 123 && i < end && at(i) === 125) {
				i++;
				depth--;
			} else if (c === 91 && i < end && at(i) === 93) {
				i++;
				depth--;
			} else if (c === 123) {
				if ((i = skipKey(i, end)) < 0) return 0;
				continue;
			} else continue;
		} else if (c === 34) i = skipString(i, end);
		else if (c === 116) i = skipWord(i, end, "true");
		else if (c === 102) i = skipWord(i, end, "false");
		else if (c === 110) i = skipWord(i, end, "null");
		else i = skipNumber(i, end);
		if (i < 0) return 0;
		// After a value: close containers until a comma asks for the next value.
		for (;;) {
			i = skipWs(i, end);
			if (depth === 0) return i === end ? 1 : 0;
			if (i >= end) return 0;
			c = at(i++);
			const top = <i32>load<u8>(STACK + <u32>(depth - 1));
			if (c === 44) {
				if (top === 123 && (i = skipKey(i, end)) < 0) return 0;
				break;
			}
			if ((top === 123 && c === 125) || (top === 91 && c === 93)) {
				depth--;
				continue;
			}
			return 0;
		}
	}
	// biome-ignore lint/correctness/noUnreachable: AssemblyScript finds no return after the endless loop without it
	return 0;
}

// ---------------------------------------------------------------- whole reads

/** Index of the first "\n" in [i, end), or -1 (16 bytes at a time). */
function newlineFrom(i: i32, end: i32): i32 {
	const nl = i8x16.splat(10);
	while (i + 16 <= end) {
		const m = i8x16.bitmask(i8x16.eq(v128.load(<usize>i), nl));
		if (m !== 0) return i + ctz<i32>(m);
		i += 16;
	}
	while (i < end) {
		if (load<u8>(<usize>i) === 10) return i;
		i++;
	}
	return -1;
}

/**
 * Whether the key `,"parentId":` lies wholly in [from, end): found by its capital I (offset 8 in
 * the key), 16 bytes at a time, each I checked for the whole key.
 */
function hasParentKey(from: i32, end: i32): bool {
	const letter = i8x16.splat(0x49);
	let i = from + 8;
	const stop = end - 3; // the I needs the key's last three bytes, `d":`, before `end`
	while (i + 16 <= stop) {
		let m = i8x16.bitmask(i8x16.eq(v128.load(<usize>i), letter));
		while (m !== 0) {
			if (hasAt(i + ctz<i32>(m) - 8, end, K_PARENT)) return true;
			m &= m - 1;
		}
		i += 16;
	}
	for (; i < stop; i++) if (load<u8>(<usize>i) === 0x49 && hasAt(i - 8, end, K_PARENT)) return true;
	return false;
}

let consumedTo: i32 = 0;

/** Where the last `scanLines` stopped: the start of the first line it did not record. */
export function consumed(): i32 {
	return consumedTo;
}

/**
 * Splits [from, to) into lines ending in "\n" and records each (at most `cap`, up to RECORDS_CAP)
 * at RECORDS; returns how many. With `fast` set, a line of 257 bytes or more that can be indexed
 * without parsing gets its type code and envelope (scan.ts's rules): one of 512 bytes or more when
 * its envelope reads and no second `,"parentId":` key follows its own on the line (which would be
 * a second object glued on by a torn write), a shorter one when it is one well-formed JSON value
 * and its envelope reads. Every other line gets code 0 (the caller parses it).
 */
export function scanLines(from: i32, to: i32, cap: i32, fast: i32): i32 {
	if (!ready) init();
	const limit = min(cap, RECORDS_CAP);
	let n = 0;
	let start = from;
	while (n < limit) {
		const nl = newlineFrom(start, to);
		if (nl < 0) break;
		const record = RECORDS + <u32>(n * RECORD_INTS * 4);
		store<i32>(record, start);
		store<i32>(record + 4, nl);
		let code = 0;
		const length = nl - start;
		if (fast !== 0 && length >= 257) {
			if (length >= 512) {
				code = envelope(start, nl);
				if (code !== 0 && hasParentKey(load<i32>(OUT_PARENT_KEY) + keyLength(K_PARENT), nl)) code = 0;
			} else if (isJson(start, nl) !== 0) code = envelope(start, nl);
		}
		store<i32>(record + 8, code);
		if (code !== 0) memory.copy(record + 12, OUT_ID_START, OUT_ROLE_CODE + 4 - OUT_ID_START);
		n++;
		start = nl + 1;
	}
	consumedTo = start;
	return n;
}

// ---------------------------------------------------------------- content hash
// A 64-bit hash of a byte stream fed in pieces of any size (a session file as it is read), for the
// session index (src/session/content-hash.ts). The bytes are cut into 128-byte blocks; each block's
// eight 16-byte vectors go through XXH32's round, lane-wise, into eight accumulators of four u32
// lanes (32 XXH32 lanes side by side, one SIMD round per vector); the lanes, the length and the
// last partial block are merged with XXH64's 64-bit steps and avalanche. Each round is a bijection
// of the lane's value and of the input word, so a change within one aligned 4-byte word always
// changes the hash. The state (accumulators, the partial block, the length) lives at HASH_STATE so
// the caller can keep it between scanners.

// XXH32's and XXH64's primes (the 64-bit ones in two halves: a JavaScript number cannot hold them).
const PRIME32_1: u32 = 0x9e3779b1;
const PRIME32_2: u32 = 0x85ebca77;
const PRIME64_1: u64 = ((<u64>0x9e3779b1) << 32) | 0x85ebca87;
const PRIME64_2: u64 = ((<u64>0xc2b2ae3d) << 32) | 0x27d4eb4f;
const PRIME64_3: u64 = ((<u64>0x165667b1) << 32) | 0x9e3779f9;
const PRIME64_4: u64 = ((<u64>0x85ebca77) << 32) | 0xc2b2ae63;
const PRIME64_5: u64 = ((<u64>0x27d4eb2f) << 32) | 0x165667c5;

/** The hash state: 8 accumulators (128 bytes), the partial block (128), its length (i32), the bytes fed (i64). */
export const HASH_STATE: u32 = KEYS + 1024;
export const HASH_STATE_BYTES: i32 = 272;
const HASH_PARTIAL: u32 = HASH_STATE + 128;
const HASH_PARTIAL_LENGTH: u32 = HASH_STATE + 256;
const HASH_TOTAL: u32 = HASH_STATE + 264;
/** Where `hashDigest` writes the 64-bit hash. */
export const HASH_OUT: u32 = HASH_STATE + HASH_STATE_BYTES;

/** XXH32's round on four lanes at once. */
function round(acc: v128, input: v128): v128 {
	const sum = i32x4.add(acc, i32x4.mul(input, i32x4.splat(PRIME32_2)));
	return i32x4.mul(v128.or(i32x4.shl(sum, 13), i32x4.shr_u(sum, 19)), i32x4.splat(PRIME32_1));
}

/** Starts a new hash (XXH32's lane seeds, with the accumulator's number as the seed). */
export function hashReset(): void {
	for (let j: u32 = 0; j < 8; j++) {
		const seed = j;
		const lanes = i32x4.replace_lane(
			i32x4.replace_lane(i32x4.replace_lane(i32x4.splat(seed + PRIME32_1 + PRIME32_2), 1, seed + PRIME32_2), 2, seed),
			3,
			seed - PRIME32_1,
		);
		v128.store(HASH_STATE + j * 16, lanes);
	}
	store<i32>(HASH_PARTIAL_LENGTH, 0);
	store<u64>(HASH_TOTAL, 0);
}

/** Feeds the whole 128-byte blocks of [at, end) to the accumulators; returns where the rest starts. */
function hashBlocks(at: u32, end: u32): u32 {
	let a0 = v128.load(HASH_STATE);
	let a1 = v128.load(HASH_STATE + 16);
	let a2 = v128.load(HASH_STATE + 32);
	let a3 = v128.load(HASH_STATE + 48);
	let a4 = v128.load(HASH_STATE + 64);
	let a5 = v128.load(HASH_STATE + 80);
	let a6 = v128.load(HASH_STATE + 96);
	let a7 = v128.load(HASH_STATE + 112);
	while (at + 128 <= end) {
		a0 = round(a0, v128.load(at));
		a1 = round(a1, v128.load(at + 16));
		a2 = round(a2, v128.load(at + 32));
		a3 = round(a3, v128.load(at + 48));
		a4 = round(a4, v128.load(at + 64));
		a5 = round(a5, v128.load(at + 80));
		a6 = round(a6, v128.load(at + 96));
		a7 = round(a7, v128.load(at + 112));
		at += 128;
	}
	v128.store(HASH_STATE, a0);
	v128.store(HASH_STATE + 16, a1);
	v128.store(HASH_STATE + 32, a2);
	v128.store(HASH_STATE + 48, a3);
	v128.store(HASH_STATE + 64, a4);
	v128.store(HASH_STATE + 80, a5);
	v128.store(HASH_STATE + 96, a6);
	v128.store(HASH_STATE + 112, a7);
	return at;
}

/** Feeds the bytes [from, to) (absolute addresses), after those fed since `hashReset`. */
export function hashUpdate(from: i32, to: i32): void {
	let at = <u32>from;
	const end = <u32>to;
	store<u64>(HASH_TOTAL, load<u64>(HASH_TOTAL) + <u64>(end - at));
	let partial = <u32>load<i32>(HASH_PARTIAL_LENGTH);
	if (partial > 0) {
		const take = min(128 - partial, end - at);
		memory.copy(HASH_PARTIAL + partial, at, take);
		partial += take;
		at += take;
		if (partial < 128) {
			store<i32>(HASH_PARTIAL_LENGTH, <i32>partial);
			return;
		}
		hashBlocks(HASH_PARTIAL, HASH_PARTIAL + 128);
		partial = 0;
	}
	at = hashBlocks(at, end);
	memory.copy(HASH_PARTIAL, at, end - at);
	store<i32>(HASH_PARTIAL_LENGTH, <i32>(end - at));
}

function merge(h: u64, value: u64): u64 {
	return rotl<u64>(h ^ (value * PRIME64_2), 31) * PRIME64_1;
}

/** Writes the hash of the bytes fed so far at HASH_OUT (the state is left as it is: more may follow). */
export function hashDigest(): void {
	let h = load<u64>(HASH_TOTAL) * PRIME64_5 + PRIME64_4;
	for (let k: u32 = 0; k < 32; k++) h = merge(h, <u64>load<u32>(HASH_STATE + k * 4));
	const partial = <u32>load<i32>(HASH_PARTIAL_LENGTH);
	for (let k: u32 = 0; k < partial; k++)
		h = rotl<u64>(h ^ (<u64>load<u8>(HASH_PARTIAL + k) * PRIME64_5), 11) * PRIME64_1;
	h ^= h >> 33;
	h *= PRIME64_2;
	h ^= h >> 29;
	h *= PRIME64_3;
	h ^= h >> 32;
	store<u64>(HASH_OUT, h);
}
