// An MCP CallToolResult → what the model sees. Text and images pass through;
// audio, embedded resources and resource links become short text notes; a
// text result over 20 KB keeps its start and end around a
// `…N chars truncated…` marker, with the whole text in a temp file named in
// the result. `details` keeps the complete result for codemode scripts.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImageContent, TextContent } from "@pi/ai";
import type { McpCallToolResult, McpContentBlock, McpToolResultDetails } from "./interface.js";

export const MAX_TEXT_CHARS = 20 * 1024;

type Block = TextContent | ImageContent;

function blockToContent(block: McpContentBlock, server: string): Block {
	switch (block.type) {
		case "text":
			return { type: "text", text: String(block.text ?? "") };
		case "image":
			return { type: "image", data: String(block.data ?? ""), mimeType: String(block.mimeType ?? "image/png") };
		case "audio":
			return {
				type: "text",
				text: `[audio ${String(block.mimeType ?? "")}, ${String(block.data ?? "").length} base64 chars]`,
			};
		case "resource": {
			const r = (block.resource ?? {}) as { uri?: string; text?: string; mimeType?: string; blob?: string };
			if (typeof r.text === "string") return { type: "text", text: r.text };
			return { type: "text", text: `[binary resource ${r.uri ?? ""} (${r.mimeType ?? "unknown type"})]` };
		}
		case "resource_link":
			return {
				type: "text",
				text: `Resource link: ${String(block.uri ?? "")}${block.name ? ` (${String(block.name)})` : ""} — read it with read_mcp_resource {"server": ${JSON.stringify(server)}, "uri": ${JSON.stringify(block.uri ?? "")}}`,
			};
		default:
			return { type: "text", text: JSON.stringify(block) };
	}
}

/** Shortens text past `max` characters around a marker; writes the whole text to a temp file. */
export function shortenText(text: string, max = MAX_TEXT_CHARS): { text: string; fullOutputPath?: string } {
	if (text.length <= max) return { text };
	const dir = mkdtempSync(join(tmpdir(), "pi-mcp-"));
	const file = join(dir, "output.txt");
	writeFileSync(file, text, { mode: 0o600 });
	const keep = Math.floor(max / 2);
	const cut = text.length - 2 * keep;
	return {
		text: `${text.slice(0, keep)}\n…${cut} chars truncated…\n${text.slice(text.length - keep)}\n\n[The full output (${text.length} chars) is in ${file}]`,
		fullOutputPath: file,
	};
}

export function toToolResult(
	server: string,
	tool: string,
	result: McpCallToolResult,
): { content: Block[]; details: McpToolResultDetails; isError: boolean } {
	let content = (result.content ?? []).map((b) => blockToContent(b, server));
	if (content.length === 0 && result.structuredContent !== undefined) {
		content = [{ type: "text", text: JSON.stringify(result.structuredContent) }];
	}
	if (content.length === 0) content = [{ type: "text", text: "(no output)" }];
	let fullOutputPath: string | undefined;
	const total = content.reduce((n, b) => n + (b.type === "text" ? b.text.length : 0), 0);
	if (total > MAX_TEXT_CHARS) {
		const joined = content
			.filter((b): b is TextContent => b.type === "text")
			.map((b) => b.text)
			.join("\n");
		const short = shortenText(joined);
		fullOutputPath = short.fullOutputPath;
		content = [{ type: "text", text: short.text }, ...content.filter((b) => b.type === "image")];
	}
	return {
		content,
		details: { kind: "mcp_tool_result", server, tool, result, ...(fullOutputPath ? { fullOutputPath } : {}) },
		isError: result.isError === true,
	};
}
