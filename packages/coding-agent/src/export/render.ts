// The exporter: session header + entries (the whole tree, file order) → one
// self-contained HTML page, written as chunks to a sink so a 100 MB session
// never sits in memory. Pure apart from the sink: no files, no clock, no
// environment. Session text never becomes markup: every entry is serialised
// as JSON into a non-executing data block with "<" escaped, and the page's own
// script builds the DOM from it with text nodes. A Content-Security-Policy
// allows only the page's own script (by hash) and inline images, and no
// network access at all.
import { createHash } from "node:crypto";
import { redact as redactSecrets } from "@pi/ai";
import type { SessionEntry, SessionHeader } from "../session/types.js";
import { pageAssets } from "./assets.js";
import { type PageIndex, PageIndexBuilder } from "./index-builder.js";

export type ChunkSink = (chunk: string) => void;

/** Replaces secrets in a piece of serialised session data. */
export type Redactor = (text: string) => string;

export interface ExportSource {
	header: SessionHeader;
	/** Every entry of the session, in file order. */
	entries: Iterable<SessionEntry>;
	/** The active leaf; the last entry when omitted. */
	leafId?: string | null;
}

export interface RenderOptions {
	/**
	 * Applied to every piece of session data before it is written. Default:
	 * pi-ai's `redact` (every secret registered in this process, plus
	 * key-shaped strings); callers register the configured secrets first
	 * (config/configured-secrets.ts).
	 */
	redact?: Redactor;
	/** Shown in the page footer, e.g. "pi 0.1.0". */
	generator?: string;
}

export interface RenderSummary {
	entries: number;
	chars: number;
}

/**
 * JSON that is inert inside a <script> data block: "<" can only occur inside
 * JSON strings, where "\u003c" means the same, so no "</script" or "<!--"
 * can end the block early.
 */
export function scriptSafeJson(value: unknown, redact: Redactor = redactSecrets): string {
	const json = JSON.stringify(value) ?? "null";
	return redact(json).replace(/</g, "\\u003c");
}

/** Array items per chunk when the index is written: the index never exists as one big string. */
const INDEX_CHUNK_ITEMS = 2000;

/** Writes the index as JSON in pieces (its arrays have one item per entry). */
function writeIndex(index: PageIndex, write: ChunkSink, redact?: Redactor): void {
	write("{");
	let first = true;
	for (const [key, value] of Object.entries(index)) {
		write(`${first ? "" : ","}${JSON.stringify(key)}:`);
		first = false;
		if (!Array.isArray(value)) {
			write(scriptSafeJson(value, redact));
			continue;
		}
		write("[");
		for (let i = 0; i < value.length; i += INDEX_CHUNK_ITEMS) {
			const part = scriptSafeJson(value.slice(i, i + INDEX_CHUNK_ITEMS), redact);
			write(`${i === 0 ? "" : ","}${part.slice(1, -1)}`);
		}
		write("]");
	}
	write("}");
}

const PLACEHOLDER = /\{\{([A-Z]+)\}\}/g;

function sha256Base64(text: string): string {
	return createHash("sha256").update(text, "utf8").digest("base64");
}

/** Writes the page for `source` to `sink`. */
export function renderSessionHtml(source: ExportSource, sink: ChunkSink, options: RenderOptions = {}): RenderSummary {
	let chars = 0;
	const write = (chunk: string) => {
		chars += chunk.length;
		sink(chunk);
	};
	const { template, styles, script } = pageAssets;
	const csp = [
		"default-src 'none'",
		`script-src 'sha256-${sha256Base64(script)}'`,
		"style-src 'unsafe-inline'",
		"img-src data:",
		"base-uri 'none'",
		"form-action 'none'",
	].join("; ");
	const meta = {
		header: source.header,
		generator: options.generator ?? "pi",
	};
	const index = new PageIndexBuilder();
	let count = 0;
	let last = 0;
	for (const m of template.matchAll(PLACEHOLDER)) {
		write(template.slice(last, m.index));
		last = (m.index ?? 0) + m[0].length;
		switch (m[1]) {
			case "CSP":
				write(csp);
				break;
			case "STYLES":
				write(styles);
				break;
			case "SCRIPT":
				write(script);
				break;
			case "META":
				write(scriptSafeJson(meta, options.redact));
				break;
			case "ENTRIES":
				for (const entry of source.entries) {
					index.add(entry);
					write(`${scriptSafeJson(entry, options.redact)}\n`);
					count++;
				}
				break;
			case "INDEX":
				writeIndex(index.finish(source.leafId), write, options.redact);
				break;
			default:
				throw new Error(`unknown placeholder {{${m[1]}}} in the export template`);
		}
	}
	write(template.slice(last));
	return { entries: count, chars };
}

/** The whole page as one string (small sessions, tests). */
export function renderSessionHtmlString(source: ExportSource, options: RenderOptions = {}): string {
	const parts: string[] = [];
	renderSessionHtml(source, (c) => parts.push(c), options);
	return parts.join("");
}
