// Keeps the shadow store bounded. A checkpoint stays while a session file of
// the project names it (some branch still reaches it) or a recent restore
// can be undone with it; the rest goes, once past a grace period (a session
// that has not flushed yet must not lose its first checkpoint). If the store
// is still over its size limit, the oldest checkpoints go next.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitsInSessionText } from "./entries.js";
import { readJournal } from "./restore.js";
import type { ShadowStore } from "./store.js";

export const PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1000;
const GRACE_MS = 60 * 60 * 1000;
const JOURNAL_KEEP = 50;

export interface PruneReport {
	dropped: number;
	kept: number;
	bytesBefore: number;
	bytesAfter: number;
}

function sessionFiles(dir: string): string[] {
	const out: string[] = [];
	const walk = (d: string, depth: number) => {
		let names: string[];
		try {
			names = readdirSync(d);
		} catch {
			return;
		}
		for (const name of names) {
			const p = join(d, name);
			if (name.endsWith(".jsonl")) out.push(p);
			else if (depth > 0) {
				try {
					if (statSync(p).isDirectory()) walk(p, depth - 1);
				} catch {}
			}
		}
	};
	walk(dir, 1);
	return out;
}

/** True when the last prune is older than the interval (or never happened). */
export function pruneDue(store: ShadowStore, now = Date.now()): boolean {
	const stamp = join(store.dir, "last-prune");
	if (!existsSync(stamp)) return true;
	try {
		return now - statSync(stamp).mtimeMs > PRUNE_INTERVAL_MS;
	} catch {
		return true;
	}
}

export async function prune(
	store: ShadowStore,
	sessionDirs: string[],
	maxBytes: number,
	now = Date.now(),
	graceMs = GRACE_MS,
): Promise<PruneReport> {
	const referenced = new Set<string>();
	for (const dir of sessionDirs) {
		for (const file of sessionFiles(dir)) {
			try {
				for (const c of commitsInSessionText(readFileSync(file, "utf8"))) referenced.add(c);
			} catch {}
		}
	}
	for (const j of readJournal(store).slice(-JOURNAL_KEEP)) {
		referenced.add(j.from);
		referenced.add(j.to);
	}
	const bytesBefore = await store.sizeBytes();
	const all = await store.list();
	const old = (c: { time: number }) => now - c.time > graceMs;
	const unreached = all.filter((c) => !referenced.has(c.commit) && old(c)).map((c) => c.commit);
	await store.drop(unreached);
	let remaining = all.filter((c) => !unreached.includes(c.commit));
	let dropped = unreached.length;
	let bytes = await store.sizeBytes();
	// Still too big: the oldest reached checkpoints go, a quarter at a time.
	for (let round = 0; bytes > maxBytes && round < 4; round++) {
		const candidates = remaining.filter(old);
		if (candidates.length === 0) break;
		const batch = candidates.slice(0, Math.max(1, Math.ceil(candidates.length / 4))).map((c) => c.commit);
		await store.drop(batch);
		remaining = remaining.filter((c) => !batch.includes(c.commit));
		dropped += batch.length;
		bytes = await store.sizeBytes();
	}
	writeFileSync(join(store.dir, "last-prune"), `${new Date(now).toISOString()}\n`);
	return { dropped, kept: remaining.length, bytesBefore, bytesAfter: bytes };
}
