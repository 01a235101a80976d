// UUIDv7 (RFC 9562): a 48-bit Unix millisecond timestamp, then random bits,
// so ids sort by creation time. Upstream pi-ai exports `uuidv7` and published
// extensions use it (custom-compaction's `sessionId`), so it is part of the
// surface extensions get as `@earendil-works/pi-ai`.
import { randomBytes } from "node:crypto";

/** A time-ordered UUIDv7; `timestampMs` (default now) is kept in the id's first 48 bits. */
export function uuidv7(timestampMs: number = Date.now()): string {
	if (!Number.isInteger(timestampMs) || timestampMs < 0 || timestampMs > 0xffff_ffff_ffff) {
		throw new RangeError(`uuidv7: timestamp must be an integer millisecond count in 48 bits, got ${timestampMs}`);
	}
	const bytes = randomBytes(16);
	// 48 bits of time, big-endian (split: bitwise operators are 32-bit).
	const high = Math.floor(timestampMs / 2 ** 16);
	bytes.writeUInt32BE(high, 0);
	bytes.writeUInt16BE(timestampMs % 2 ** 16, 4);
	bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
	bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10
	const hex = bytes.toString("hex");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
