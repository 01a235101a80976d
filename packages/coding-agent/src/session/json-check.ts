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
export function isJsonText(b: Uint8Array, start: number, end: number): boolean {
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
