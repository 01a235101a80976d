// What a script's `tools.<name>(args)` resolves to, from the tool's result:
//   - a result with `structuredContent` (tools with an output schema): that value,
//     also for an error result that carries one;
//   - an MCP tool: its complete CallToolResult (`details.result`), `isError` included;
//   - `read_mcp_resource`: `{ server, uri, contents }`;
//   - an image (e.g. `read` of a PNG): `{ type: "image", data, mimeType, note }`, which image() shows;
//   - anything else: its text content as one string.
// A failed, blocked or invalid call rejects (the Error carries the tool's text).

export interface ToolResultLike {
	content?: readonly { type: string; text?: string; data?: string; mimeType?: string }[];
	details?: unknown;
	structuredContent?: unknown;
}

export class ToolCallError extends Error {
	override name = "ToolError";
}

function textOf(result: ToolResultLike): string {
	return (result.content ?? [])
		.filter((c) => c.type === "text")
		.map((c) => c.text ?? "")
		.join("\n");
}

export function scriptValueOf(result: ToolResultLike, isError: boolean): unknown {
	if (result.structuredContent !== undefined) return result.structuredContent;
	const details = result.details as {
		kind?: unknown;
		result?: unknown;
		server?: unknown;
		uri?: unknown;
		contents?: unknown;
	};
	if (details && typeof details === "object") {
		if (details.kind === "mcp_tool_result" && details.result !== undefined) return details.result;
		if (details.kind === "mcp_resource_read" && !isError) {
			return { server: details.server, uri: details.uri, contents: details.contents };
		}
	}
	if (isError) throw new ToolCallError(textOf(result) || "The tool call failed without a message");
	const images = (result.content ?? []).filter((c) => c.type === "image");
	if (images.length === 1) {
		const [img] = images;
		return { type: "image", data: img.data, mimeType: img.mimeType, note: textOf(result) };
	}
	if (images.length > 1) return result.content;
	return textOf(result);
}
