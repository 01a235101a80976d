// `pi --list-models [search]`: a plain table of the models that have credentials.
import type { Model } from "@pi/ai";

function tokens(n: number): string {
	if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
	if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
	if (n >= 1000) return `${Math.round(n / 1000)}K`;
	return String(n);
}

/** Every whitespace-separated term must appear in "provider/id name" (case-insensitive). */
export function filterModels(models: readonly Model[], search: string | undefined): Model[] {
	const terms = (search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
	return models.filter((m) => {
		const hay = `${m.provider}/${m.id} ${m.name}`.toLowerCase();
		return terms.every((t) => hay.includes(t));
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
