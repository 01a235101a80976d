// The codemode tool result the model reads, from a script's outcome:
//   Script completed in 0.4 s            (or "Script failed after …")
//   ==> text 1/2 <==                      (only when there is more than one text item)
//   …text and images, in the order the script made them…
//   <console_output> one line per console call </console_output>
//   Script error: …                       (a failed script keeps its partial output)
// Output past `max_output_tokens` (≈ 4 characters a token) keeps its start and
// end around a marker; the full text goes to a temp file named in the result.
// Each image is also saved to a temp file, named on the line before it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScriptOutcome } from "./sandbox/run-script.js";

export type ResultBlock = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export interface FormattedOutcome {
	content: ResultBlock[];
	/** The full text, when the model-facing text was shortened. */
	fullOutputPath?: string;
	imagePaths: string[];
}

const EXTENSIONS: Record<string, string> = {
	"image/png": "png",
	"image/jpeg": "jpg",
	"image/gif": "gif",
	"image/webp": "webp",
};

let outputDir: string | undefined;
function tempFile(name: string): string {
	outputDir ??= mkdtempSync(join(tmpdir(), "pi-codemode-"));
	return join(outputDir, name);
}

let counter = 0;
function saveImage(data: string, mimeType: string): string {
	const path = tempFile(`image-${process.pid}-${++counter}.${EXTENSIONS[mimeType] ?? "bin"}`);
	writeFileSync(path, Buffer.from(data, "base64"), { mode: 0o600 });
	return path;
}

function seconds(ms: number): string {
	return ms < 10_000 ? (ms / 1000).toFixed(2) : (ms / 1000).toFixed(1);
}

export function formatOutcome(outcome: ScriptOutcome, maxOutputTokens: number): FormattedOutcome {
	const header = outcome.ok
		? `Script completed in ${seconds(outcome.durationMs)} s`
		: `Script failed after ${seconds(outcome.durationMs)} s`;
	const textCount = outcome.items.filter((i) => i.kind === "text").length;
	const imagePaths: string[] = [];
	// Parts in order; an image part keeps its block, text parts are joined by newlines.
	const parts: ({ text: string } | { image: { data: string; mimeType: string }; line: string })[] = [];
	let n = 0;
	for (const item of outcome.items) {
		if (item.kind === "text") {
			n++;
			parts.push({ text: textCount > 1 ? `==> text ${n}/${textCount} <==\n${item.text}` : item.text });
		} else {
			const path = saveImage(item.data, item.mimeType);
			imagePaths.push(path);
			parts.push({
				image: { data: item.data, mimeType: item.mimeType },
				line: `[image ${imagePaths.length}: ${path}]`,
			});
		}
	}
	if (outcome.console.length > 0)
		parts.push({ text: `<console_output>\n${outcome.console.join("\n")}\n</console_output>` });
	if (!outcome.ok) parts.push({ text: `Script error: ${outcome.error ?? "unknown error"}` });

	const fullText = [header, ...parts.map((p) => ("text" in p ? p.text : p.line))].join("\n");
	const budget = maxOutputTokens * 4;
	if (fullText.length > budget) {
		const fullOutputPath = tempFile(`output-${process.pid}-${++counter}.txt`);
		writeFileSync(fullOutputPath, fullText, { mode: 0o600 });
		const keep = Math.max(0, Math.floor(budget / 2));
		const omitted = fullText.length - 2 * keep;
		const text = `${fullText.slice(0, keep)}\n…${omitted} characters omitted (max_output_tokens ${maxOutputTokens}); the full output is in ${fullOutputPath}…\n${fullText.slice(fullText.length - keep)}`;
		const content: ResultBlock[] = [{ type: "text", text }];
		for (const p of parts) {
			if ("image" in p) content.push({ type: "text", text: p.line }, { type: "image", ...p.image });
		}
		return { content, fullOutputPath, imagePaths };
	}

	const content: ResultBlock[] = [];
	let pending = header;
	for (const p of parts) {
		if ("text" in p) {
			pending += `\n${p.text}`;
			continue;
		}
		content.push({ type: "text", text: `${pending}\n${p.line}` });
		content.push({ type: "image", ...p.image });
		pending = "";
	}
	if (pending !== "") content.push({ type: "text", text: pending.replace(/^\n/, "") });
	return { content, imagePaths };
}
