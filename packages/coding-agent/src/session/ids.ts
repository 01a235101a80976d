// Identifiers: session ids are UUIDv7 (time-ordered, so file names sort by
// creation); entry ids are 8 hex chars, checked against the ids in use.
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";

export function createSessionId(): string {
	return uuidv7();
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
