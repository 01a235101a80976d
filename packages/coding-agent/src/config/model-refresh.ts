// Dynamic model lists: providers whose catalog comes from a live service (an
// extension's `refreshModels`) register a refresher here; `refresh()` runs
// them concurrently, each failure kept per provider (never thrown), and a
// generation per provider so a slower, older refresh cannot publish over a
// newer one. Snapshots a provider chooses to persist live in
// `provider-models.json` next to models.json (in memory for in-memory registries).
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { isPlainObject, readJsonFile, writeFileAtomic } from "./json-file.js";

export interface ModelRefreshRun {
	/** The provider's persisted snapshot, as it was when this refresh began. */
	stored: Readonly<Record<string, unknown>> | undefined;
	/** False when a newer refresh of the same provider has started since. */
	isCurrent(): boolean;
	/** Persists (`null` deletes) the provider's snapshot; ignored when not current. */
	persist(entry: Record<string, unknown> | null): boolean;
	allowNetwork: boolean;
	force: boolean;
	signal: AbortSignal;
}

export type ModelRefresher = (run: ModelRefreshRun) => Promise<void>;

export interface ModelRefreshOptions {
	/** Only these providers (unknown ones and providers without a refresher are skipped). */
	providers?: readonly string[];
	allowNetwork?: boolean;
	force?: boolean;
	signal?: AbortSignal;
}

export interface ModelRefreshResult {
	aborted: boolean;
	/** Failures by provider id. */
	errors: Map<string, Error>;
}

export class ModelRefreshers {
	private readonly refreshers = new Map<string, ModelRefresher>();
	private readonly generations = new Map<string, number>();
	private memory: Record<string, Record<string, unknown>> = {};

	/** `file`: where persisted snapshots live; undefined keeps them in memory. */
	constructor(private readonly file: string | undefined) {}

	set(provider: string, refresher: ModelRefresher | undefined): void {
		if (refresher) this.refreshers.set(provider, refresher);
		else this.refreshers.delete(provider);
	}

	has(provider: string): boolean {
		return this.refreshers.has(provider);
	}

	/** Providers with a refresher. */
	ids(): string[] {
		return [...this.refreshers.keys()];
	}

	async refresh(options: ModelRefreshOptions = {}): Promise<ModelRefreshResult> {
		const errors = new Map<string, Error>();
		const signal = options.signal ?? new AbortController().signal;
		const wanted = [...this.refreshers].filter(([p]) => !options.providers || options.providers.includes(p));
		const snapshots = this.read();
		const runs = wanted.map(async ([provider, refresher]) => {
			const generation = (this.generations.get(provider) ?? 0) + 1;
			this.generations.set(provider, generation);
			const isCurrent = () => this.generations.get(provider) === generation && !signal.aborted;
			try {
				await refresher({
					stored: snapshots[provider],
					isCurrent,
					persist: (entry) => {
						if (!isCurrent()) return false;
						this.write(provider, entry);
						return true;
					},
					allowNetwork: options.allowNetwork ?? true,
					force: options.force ?? false,
					signal,
				});
			} catch (error) {
				errors.set(provider, error instanceof Error ? error : new Error(String(error)));
			}
		});
		// The caller's signal stops the wait even when a refresher ignores it.
		const aborted = new Promise<void>((resolve) => {
			if (signal.aborted) resolve();
			signal.addEventListener("abort", () => resolve(), { once: true });
		});
		await Promise.race([Promise.all(runs), aborted]);
		return { aborted: signal.aborted, errors };
	}

	private read(): Record<string, Record<string, unknown>> {
		if (!this.file) return structuredClone(this.memory);
		if (!existsSync(this.file)) return {};
		const read = readJsonFile(this.file);
		if (read.kind !== "ok" || !isPlainObject(read.value)) return {};
		return read.value as Record<string, Record<string, unknown>>;
	}

	private write(provider: string, entry: Record<string, unknown> | null): void {
		const all = this.read();
		if (entry === null) delete all[provider];
		else all[provider] = structuredClone(entry);
		if (!this.file) {
			this.memory = all;
			return;
		}
		mkdirSync(dirname(this.file), { recursive: true });
		writeFileAtomic(this.file, `${JSON.stringify(all, null, 2)}\n`, 0o600);
	}
}
