// `store()`/`load()` values across codemode calls. Each successful script
// that wrote values appends one `codemode-store` custom entry with its writes;
// the store a script sees is those entries folded along the current branch,
// so /tree, resume and fork each see the values written on their own path.

export const CODEMODE_STORE_ENTRY_TYPE = "codemode-store";

export interface CodemodeStoreEntryData {
	/** key → JSON value */
	set: Record<string, unknown>;
	delete: string[];
}

interface EntryLike {
	type: string;
	customType?: string;
	data?: unknown;
}

/** The store along a branch (oldest entry first): key → JSON text. */
export function foldStore(branch: readonly EntryLike[]): Record<string, string> {
	const store = new Map<string, string>();
	for (const entry of branch) {
		if (entry.type !== "custom" || entry.customType !== CODEMODE_STORE_ENTRY_TYPE) continue;
		const data = entry.data as Partial<CodemodeStoreEntryData> | undefined;
		if (!data || typeof data !== "object") continue;
		for (const key of Array.isArray(data.delete) ? data.delete : []) if (typeof key === "string") store.delete(key);
		if (data.set && typeof data.set === "object") {
			for (const [key, value] of Object.entries(data.set)) {
				const json = JSON.stringify(value);
				if (json !== undefined) store.set(key, json);
			}
		}
	}
	return Object.fromEntries(store);
}

/** The entry data for a script's writes (JSON text → values), or undefined when it wrote nothing. */
export function storeEntryData(changes: {
	set: Record<string, string>;
	delete: string[];
}): CodemodeStoreEntryData | undefined {
	const keys = Object.keys(changes.set);
	if (keys.length === 0 && changes.delete.length === 0) return undefined;
	return {
		set: Object.fromEntries(keys.map((k) => [k, JSON.parse(changes.set[k] ?? "null") as unknown])),
		delete: [...changes.delete],
	};
}
