/** Unified diff of an edit, for UIs (details.diff) and editor navigation (firstChangedLine). */
import { structuredPatch } from "diff";

export function unifiedDiff(
	path: string,
	oldText: string,
	newText: string,
	context = 3,
): { diff: string; firstChangedLine: number | undefined } {
	const a = oldText.replace(/\r\n/g, "\n");
	const b = newText.replace(/\r\n/g, "\n");
	const patch = structuredPatch(path, path, a, b, undefined, undefined, { context });
	const out: string[] = [`--- ${path}`, `+++ ${path}`];
	let firstChangedLine: number | undefined;
	for (const hunk of patch.hunks) {
		out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
		let newLine = hunk.newStart;
		for (const line of hunk.lines) {
			out.push(line);
			if (firstChangedLine === undefined && (line.startsWith("+") || line.startsWith("-"))) {
				firstChangedLine = Math.max(1, newLine);
			}
			if (line.startsWith(" ") || line.startsWith("+")) newLine++;
		}
	}
	return { diff: out.join("\n"), firstChangedLine };
}
