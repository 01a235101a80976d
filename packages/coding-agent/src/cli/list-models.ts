// `pi --list-models [search]`: a plain table of the models that have credentials.
import { llamaBackendInfo, type Model } from "@pi/ai";

/** 200000 → "200K", 16384 → "16.4K", 1000000 → "1M" (one decimal unless whole, as the reference prints). */
function tokens(n: number): string {
	const scaled = (value: number, unit: string) => `${value % 1 === 0 ? value : value.toFixed(1)}${unit}`;
	if (n >= 1_000_000) return scaled(n / 1_000_000, "M");
	if (n >= 1000) return scaled(n / 1000, "K");
	return String(n);
}

/** Letters of `query` appear in `text` in order (not necessarily adjacent). */
function subsequence(query: string, text: string): boolean {
	let at = 0;
	for (let i = 0; i < text.length && at < query.length; i++) if (text[i] === query[at]) at++;
	return at === query.length;
}

/** Fuzzy term match as the reference's picker does it; "sonnet45" also matches "45sonnet" swapped. */
function termMatches(term: string, text: string): boolean {
	if (subsequence(term, text)) return true;
	const split = /^([a-z]+)([0-9]+)$/.exec(term) ?? /^([0-9]+)([a-z]+)$/.exec(term);
	return split !== null && subsequence(split[2] + split[1], text);
}

/** Every whitespace-separated term must fuzzy-match "provider/id" (case-insensitive). */
export function filterModels(models: readonly Model[], search: string | undefined): Model[] {
	const terms = (search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
	return models.filter((m) => {
		const hay = `${m.provider}/${m.id}`.toLowerCase();
		return terms.every((t) => termMatches(t, hay));
	});
}

export function formatModelTable(models: readonly Model[]): string {
	const rows = [...models]
		.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id))
		.map((m) => [
			m.provider,
			m.id,
			tokens(m.contextWindow),
			tokens(m.maxTokens),
			m.reasoning ? "yes" : "no",
			m.input.includes("image") ? "yes" : "no",
		]);
	const header = ["provider", "model", "context", "max-out", "thinking", "images"];
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		cells
			.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
			.join("  ")
			.trimEnd();
	return [line(header), ...rows.map(line)].join("\n");
}

/** For `--verbose` with an embedded model: where llama.cpp computes (loads the native runtime). */
export async function describeLlamaBackend(): Promise<string> {
	try {
		const { gpu, devices } = await llamaBackendInfo();
		return gpu
			? `llama.cpp: GPU (${gpu}${devices.length > 0 ? `: ${devices.join(", ")}` : ""})`
			: "llama.cpp: CPU (no GPU found by the prebuilt binaries)";
	} catch (error) {
		return `llama.cpp: unavailable (${error instanceof Error ? error.message : String(error)})`;
	}
}
