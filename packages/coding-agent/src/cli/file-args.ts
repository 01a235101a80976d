// `@file` arguments: text files are inlined into the first message as
// `<file name="/abs/path">…</file>`, images are attached to it. Piped stdin
// and the first message join them to make the initial prompt.
import type { ImageContent } from "@pi/ai";
import { resolveUserPath } from "../config/paths.js";
import { nodeBuiltin } from "../lazy-cjs.js";
import { detectImageMime, prepareImage } from "../tools/image.js";

export class FileArgError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "FileArgError";
	}
}

export interface ProcessedFiles {
	/** Text to put in front of the first message. */
	text: string;
	images: ImageContent[];
}

export interface FileArgOptions {
	/** Downscale large images (settings `images.autoResize`, default true). */
	autoResize?: boolean;
	/** Do not attach images at all (settings `images.blockImages`). */
	blockImages?: boolean;
}

/** Reads `@file` arguments (paths relative to cwd, `~` expanded). Throws FileArgError for unusable files. */
export async function processFileArgs(
	paths: readonly string[],
	cwd: string,
	options: FileArgOptions = {},
): Promise<ProcessedFiles> {
	let text = "";
	const images: ImageContent[] = [];
	if (paths.length === 0) return { text, images };
	// Loaded here: most runs have no @file, and node:fs/promises is a module init of its own.
	const { readFile, stat } = nodeBuiltin<typeof import("node:fs/promises")>("node:fs/promises");
	for (const given of paths) {
		const path = resolveUserPath(given, cwd);
		const info = await stat(path).catch(() => undefined);
		if (!info) throw new FileArgError(`File not found: ${given}`);
		if (!info.isFile()) throw new FileArgError(`Not a file: ${given}`);
		const data = await readFile(path);
		const mime = detectImageMime(data);
		if (mime) {
			if (options.blockImages) {
				text += `<file name="${path}">[image not attached: images are blocked in the settings]</file>\n`;
				continue;
			}
			const image = await prepareImage(data, mime, options.autoResize ?? true);
			images.push({ type: "image", data: Buffer.from(image.data).toString("base64"), mimeType: image.mimeType });
			const note =
				image.resized && image.original
					? `[image resized from ${image.original.width}x${image.original.height} to ${image.resized.width}x${image.resized.height}]`
					: "";
			text += `<file name="${path}">${note}</file>\n`;
			continue;
		}
		if (data.subarray(0, 8192).includes(0)) throw new FileArgError(`Cannot include binary file: ${given}`);
		text += `<file name="${path}">\n${data.toString("utf8")}\n</file>\n`;
	}
	return { text, images };
}

/** All of stdin when it is piped; undefined when it is a terminal. */
export async function readPipedStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string | undefined> {
	if (stdin.isTTY) return undefined;
	const chunks: Buffer[] = [];
	for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
	return Buffer.concat(chunks).toString("utf8");
}

export interface InitialPrompts {
	/** The first prompt (stdin + files + first message), undefined when there is nothing to send. */
	initial?: { text: string; images: ImageContent[] };
	/** Further messages, each sent as its own prompt after the previous run. */
	rest: string[];
}

/** Joins piped stdin, @file text and the first message with no separator; later messages stay separate. */
export function buildInitialPrompts(
	messages: readonly string[],
	files: ProcessedFiles,
	stdin: string | undefined,
): InitialPrompts {
	const [first, ...rest] = messages;
	const text = `${stdin ?? ""}${files.text}${first ?? ""}`;
	if (text === "" && files.images.length === 0) return { rest };
	return { initial: { text, images: files.images }, rest };
}
