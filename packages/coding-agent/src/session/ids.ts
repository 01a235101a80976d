// Identifiers: session ids are UUIDv7 (time-ordered, so file names sort by
// creation); entry ids are 8 hex chars, checked against the ids in use.
import { randomUUID } from "node:crypto";

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, the version, 74 random bits and the variant.
 * The random bits are randomUUID()'s (Node's pre-filled random pool, which entry ids use too);
 * the uuid package's v7 drew them through the Web Crypto global, whose first use loads Node's
 * webcrypto modules (~4M instructions of every run, issue 25).
 */
export function createSessionId(now: number = Date.now()): string {
	// A v4 UUID: 8-4-4-4-12 hex digits, "4" at 14, the variant (8, 9, a or b) at 19.
	const random = randomUUID();
	const time = now.toString(16).padStart(12, "0");
	return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

const VALID_SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** Caller-supplied ids end up in file names, so they are restricted to a safe alphabet. */
export function assertValidSessionId(id: string): void {
	if (!VALID_SESSION_ID.test(id)) {
		throw new Error(
			`Invalid session id "${id}": use letters, digits, '.', '_' and '-', starting and ending with a letter or digit`,
		);
	}
}

/** A fresh entry id not in `taken`; after 100 collisions (practically never) a full UUID. */
export function generateEntryId(taken: { has(id: string): boolean }): string {
	for (let i = 0; i < 100; i++) {
		const id = randomUUID().slice(0, 8);
		if (!taken.has(id)) return id;
	}
	return randomUUID();
}
