// The rules wasm/line-scan.ts implements, in plain JavaScript as scan.ts ran
// them before the module replaced them: line-scan.test.ts holds the module to
// this oracle's answers over generated and damaged lines. Kept deliberately
// simple (byte by byte, no SIMD) so it is easy to read against the rules in
// scan.ts's comment.
//
// Whether a byte range holds exactly one well-formed JSON value, checked on
// the bytes without building anything. Opening a session indexes short lines
// without parsing them (scan.ts); this check keeps that from hiding a damaged
// line until its entry is used: a line that fails it takes the parsing path,
// which recovers what it can and warns, as before. Same grammar as
// JSON.parse (RFC 8259); bytes of 0x80 and above are accepted inside strings
// (JSON.parse of the decoded text accepts them too, invalid UTF-8 becoming
// U+FFFD).

/** Open containers; deeper nesting is left to JSON.parse (reported as not checked). */
const MAX_DEPTH = 256;
const stack = new Uint8Array(MAX_DEPTH);

function isDigit(c: number): boolean {
	return c >= 48 && c <= 57;
}

function skipWs(b: Uint8Array, i: number, end: number): number {
	while (i < end) {
		const c = b[i];
		if (c === 32 || c === 9 || c === 13 || c === 10) i++;
		else break;
	}
	return i;
}

/** Index after the string whose opening quote is at `i`, or -1. */
function skipString(b: Uint8Array, i: number, end: number): number {
	i++;
	while (i < end) {
		const c = b[i++];
		if (c === 34) return i;
		if (c === 92) {
			if (i >= end) return -1;
			const e = b[i++];
			if (e === 117) {
				if (i + 4 > end) return -1;
				for (let k = 0; k < 4; k++) {
					const h = b[i++] | 32;
					if (!(isDigit(h) || (h >= 97 && h <= 102))) return -1;
				}
			} else if (e !== 34 && e !== 92 && e !== 47 && e !== 98 && e !== 102 && e !== 110 && e !== 114 && e !== 116) {
				return -1;
			}
		} else if (c < 32) return -1;
	}
	return -1;
}

function skipDigits(b: Uint8Array, i: number, end: number): number {
	if (i >= end || !isDigit(b[i])) return -1;
	do i++;
	while (i < end && isDigit(b[i]));
	return i;
}

function skipNumber(b: Uint8Array, i: number, end: number): number {
	if (b[i] === 45) i++;
	if (i < end && b[i] === 48) i++;
	else if ((i = skipDigits(b, i, end)) < 0) return -1;
	if (i < end && b[i] === 46 && (i = skipDigits(b, i + 1, end)) < 0) return -1;
	if (i < end && (b[i] | 32) === 101) {
		i++;
		if (i < end && (b[i] === 43 || b[i] === 45)) i++;
		if ((i = skipDigits(b, i, end)) < 0) return -1;
	}
	return i;
}

const TRUE = [116, 114, 117, 101];
const FALSE = [102, 97, 108, 115, 101];
const NULL = [110, 117, 108, 108];

function skipWord(b: Uint8Array, i: number, end: number, word: readonly number[]): number {
	if (i + word.length > end) return -1;
	for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
	return i + word.length;
}

/** Index after `"key":` starting at `i` (whitespace allowed around), or -1. */
function skipKey(b: Uint8Array, i: number, end: number): number {
	i = skipWs(b, i, end);
	if (i >= end || b[i] !== 34 || (i = skipString(b, i, end)) < 0) return -1;
	i = skipWs(b, i, end);
	return i < end && b[i] === 58 ? i + 1 : -1;
}

/** True when `b[start, end)` is one JSON value with optional whitespace around it. */
export function oracleIsJson(b: Uint8Array, start: number, end: number): boolean {
	let depth = 0;
	let i = start;
	for (;;) {
		// A value starts here.
		i = skipWs(b, i, end);
		if (i >= end) return false;
		let c = b[i];
		if (c === 123 || c === 91) {
			if (depth === MAX_DEPTH) return false;
			stack[depth++] = c;
			i = skipWs(b, i + 1, end);
			if (c === 123 && i < end && b[i] === 125) {
				i++;
				depth--;
			} else if (c === 91 && i < end && b[i] === 93) {
				i++;
				depth--;
			} else if (c === 123) {
				if ((i = skipKey(b, i, end)) < 0) return false;
				continue;
			} else continue;
		} else if (c === 34) i = skipString(b, i, end);
		else if (c === 116) i = skipWord(b, i, end, TRUE);
		else if (c === 102) i = skipWord(b, i, end, FALSE);
		else if (c === 110) i = skipWord(b, i, end, NULL);
		else i = skipNumber(b, i, end);
		if (i < 0) return false;
		// After a value: close containers until a comma asks for the next value.
		for (;;) {
			i = skipWs(b, i, end);
			if (depth === 0) return i === end;
			if (i >= end) return false;
			c = b[i++];
			const top = stack[depth - 1];
			if (c === 44) {
				if (top === 123 && (i = skipKey(b, i, end)) < 0) return false;
				break;
			}
			if ((top === 123 && c === 125) || (top === 91 && c === 93)) {
				depth--;
				continue;
			}
			return false;
		}
	}
}

const K_TYPE = Buffer.from('{"type":"');
const K_ID = Buffer.from(',"id":"');
const K_PARENT = Buffer.from(',"parentId":');
const K_NULL = Buffer.from("null");
const K_TIMESTAMP = Buffer.from(',"timestamp":"');
const K_ROLE = Buffer.from(',"message":{"role":"');
const K_PROVIDER = Buffer.from(',"provider":"');
const K_MODEL = Buffer.from(',"model":"');
const LAZY_TYPES = ["message", "custom", "compaction", "branch_summary", "custom_message", "usage"];

function hasAt(buf: Uint8Array, at: number, end: number, key: Uint8Array): boolean {
	if (at + key.length > end) return false;
	for (let i = 0; i < key.length; i++) if (buf[at + i] !== key[i]) return false;
	return true;
}

function stringEnd(buf: Uint8Array, at: number, end: number): number {
	for (let i = at; i < end; i++) {
		const c = buf[i];
		if (c === 34) return i > at ? i + 1 : -1;
		if (c < 0x20 || c > 0x7e || c === 92) return -1;
	}
	return -1;
}

function latin1(buf: Uint8Array, at: number, end: number): string {
	return Buffer.from(buf.buffer, buf.byteOffset + at, end - at).toString("latin1");
}

/** What a line is indexed as, with its fields as strings; `undefined`: the line is parsed. */
export interface OracleEnvelope {
	type: string;
	id: string;
	parentId: string | null;
	role?: string;
	provider?: string;
	model?: string;
}

/** The envelope of `buf[start, end)` by scan.ts's former rules, and where its own parentId key is. */
function envelope(buf: Uint8Array, start: number, end: number): { env: OracleEnvelope; parentKey: number } | undefined {
	let last = end - 1;
	while (last > start && (buf[last] === 13 || buf[last] === 32)) last--;
	if (buf[last] !== 125) return undefined;
	const head = Math.min(end, start + 512);
	let i = start;
	if (!hasAt(buf, i, end, K_TYPE)) return undefined;
	i += K_TYPE.length;
	let j = stringEnd(buf, i, head);
	if (j < 0) return undefined;
	const type = latin1(buf, i, j - 1);
	if (!LAZY_TYPES.includes(type) || !hasAt(buf, j, end, K_ID)) return undefined;
	i = j + K_ID.length;
	j = stringEnd(buf, i, head);
	if (j < 0) return undefined;
	const id = latin1(buf, i, j - 1);
	if (!hasAt(buf, j, end, K_PARENT)) return undefined;
	const parentKey = j;
	i = j + K_PARENT.length;
	let parentId: string | null = null;
	if (hasAt(buf, i, end, K_NULL)) j = i + K_NULL.length;
	else {
		if (buf[i] !== 34) return undefined;
		j = stringEnd(buf, i + 1, head);
		if (j < 0) return undefined;
		parentId = latin1(buf, i + 1, j - 1);
	}
	if (!hasAt(buf, j, end, K_TIMESTAMP)) return undefined;
	j = stringEnd(buf, j + K_TIMESTAMP.length, head);
	if (j < 0) return undefined;
	const env: OracleEnvelope = { type, id, parentId };
	if (type === "message") {
		if (!hasAt(buf, j, end, K_ROLE)) return undefined;
		i = j + K_ROLE.length;
		j = stringEnd(buf, i, head);
		if (j < 0) return undefined;
		env.role = latin1(buf, i, j - 1);
		if (env.role === "assistant") {
			// The last provider key wholly inside the line's last 2048 bytes (and after the role).
			let p = -1;
			for (let q = last + 1 - K_PROVIDER.length; q >= Math.max(j, end - 2048); q--) {
				if (hasAt(buf, q, last + 1, K_PROVIDER)) {
					p = q;
					break;
				}
			}
			if (p < 0) return undefined;
			i = p + K_PROVIDER.length;
			j = stringEnd(buf, i, end);
			if (j < 0 || !hasAt(buf, j, end, K_MODEL)) return undefined;
			env.provider = latin1(buf, i, j - 1);
			const m = j + K_MODEL.length;
			const k = stringEnd(buf, m, end);
			if (k < 0) return undefined;
			env.model = latin1(buf, m, k - 1);
		}
	}
	return { env, parentKey };
}

/**
 * How scan.ts indexes the line `buf[start, end)` (no newline) once the header is read: from its
 * envelope without parsing, or (undefined) by parsing it.
 */
export function oracleLine(buf: Uint8Array, start: number, end: number): OracleEnvelope | undefined {
	const length = end - start;
	if (length < 257) return undefined;
	if (length >= 512) {
		const found = envelope(buf, start, end);
		if (!found) return undefined;
		// A second `,"parentId":` key on the line after its own: maybe a glued object.
		for (let q = found.parentKey + K_PARENT.length; q + K_PARENT.length <= end; q++) {
			if (hasAt(buf, q, end, K_PARENT)) return undefined;
		}
		return found.env;
	}
	return oracleIsJson(buf, start, end) ? envelope(buf, start, end)?.env : undefined;
}
