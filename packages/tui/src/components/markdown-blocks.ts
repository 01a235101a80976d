/**
 * Rendering of marked tokens into terminal lines. Pure functions of
 * (token, width, theme); the Markdown component caches their results.
 */
import type { Token, Tokens } from "marked";
import { applyBackgroundToLine } from "../utils/background.js";
import { truncateToWidth } from "../utils/slice.js";
import { visibleWidth } from "../utils/width.js";
import { wrapTextWithAnsi } from "../utils/wrap.js";

/** Colour functions for markdown elements; the app's theme provides them. */
export interface MarkdownTheme {
	heading: (text: string) => string;
	link: (text: string) => string;
	linkUrl: (text: string) => string;
	code: (text: string) => string;
	codeBlock: (text: string) => string;
	codeBlockBorder: (text: string) => string;
	quote: (text: string) => string;
	quoteBorder: (text: string) => string;
	hr: (text: string) => string;
	listBullet: (text: string) => string;
	bold: (text: string) => string;
	italic: (text: string) => string;
	strikethrough: (text: string) => string;
	underline: (text: string) => string;
	/** Syntax highlighting for code blocks: returns one styled string per line. */
	highlightCode?: (code: string, lang?: string) => string[];
	/** Prefix of each code block line (default two spaces). */
	codeBlockIndent?: string;
	/** Emit OSC 8 hyperlinks for links (default true). */
	hyperlinks?: boolean;
}

/** Base style of all text that markdown formatting does not override. */
export interface DefaultTextStyle {
	color?: (text: string) => string;
	/** Background painted across the full width of every line. */
	bgColor?: (text: string) => string;
	bold?: boolean;
	italic?: boolean;
	strikethrough?: boolean;
	underline?: boolean;
}

export interface RenderContext {
	theme: MarkdownTheme;
	/** Styles a plain text run with the default text style. */
	plain: (text: string) => string;
}

export function makeContext(theme: MarkdownTheme, style?: DefaultTextStyle): RenderContext {
	const plain = (text: string) => {
		if (!style || text.length === 0) return text;
		let t = text;
		if (style.color) t = style.color(t);
		if (style.bold) t = theme.bold(t);
		if (style.italic) t = theme.italic(t);
		if (style.strikethrough) t = theme.strikethrough(t);
		if (style.underline) t = theme.underline(t);
		return t;
	};
	return { theme, plain };
}

/** Render inline tokens (emphasis, code spans, links…) into one styled string. */
export function renderInline(tokens: Token[] | undefined, ctx: RenderContext): string {
	if (!tokens) return "";
	let out = "";
	const { theme } = ctx;
	for (const t of tokens) {
		switch (t.type) {
			case "text": {
				const tt = t as Tokens.Text;
				out += tt.tokens && tt.tokens.length > 0 ? renderInline(tt.tokens, ctx) : ctx.plain(decode(tt.text));
				break;
			}
			case "escape":
				out += ctx.plain(decode((t as Tokens.Escape).text));
				break;
			case "strong":
				out += theme.bold(renderInline((t as Tokens.Strong).tokens, ctx));
				break;
			case "em":
				out += theme.italic(renderInline((t as Tokens.Em).tokens, ctx));
				break;
			case "del":
				out += theme.strikethrough(renderInline((t as Tokens.Del).tokens, ctx));
				break;
			case "codespan":
				out += theme.code(decode((t as Tokens.Codespan).text));
				break;
			case "br":
				out += "\n";
				break;
			case "link": {
				const l = t as Tokens.Link;
				const label = renderInline(l.tokens, ctx) || l.href;
				const linked = theme.hyperlinks === false ? label : `\x1b]8;;${l.href}\x1b\\${label}\x1b]8;;\x1b\\`;
				out += theme.link(linked);
				const plainLabel = l.text.replace(/^mailto:/, "");
				if (l.href !== plainLabel && l.href !== `mailto:${plainLabel}`) out += theme.linkUrl(` (${l.href})`);
				break;
			}
			case "image": {
				const im = t as Tokens.Image;
				out += theme.link(`[image: ${im.text || im.href}]`);
				break;
			}
			case "html":
				out += ctx.plain((t as Tokens.HTML).text);
				break;
			default: {
				const raw = (t as { text?: string; raw?: string }).text ?? (t as { raw?: string }).raw ?? "";
				out += ctx.plain(raw);
			}
		}
	}
	return out;
}

function decode(text: string): string {
	if (!text.includes("&")) return text;
	return text
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, "&");
}

/** Render one block token into lines of at most `width` columns. */
export function renderBlock(token: Token, width: number, ctx: RenderContext): string[] {
	const { theme } = ctx;
	const w = Math.max(1, width);
	switch (token.type) {
		case "heading": {
			const h = token as Tokens.Heading;
			const text = renderInline(h.tokens, ctx);
			const styled =
				h.depth === 1
					? theme.heading(theme.bold(theme.underline(text)))
					: h.depth === 2
						? theme.heading(theme.bold(text))
						: theme.heading(theme.bold(`${"#".repeat(h.depth)} ${text}`));
			return wrapTextWithAnsi(styled, w);
		}
		case "paragraph":
			return wrapTextWithAnsi(renderInline((token as Tokens.Paragraph).tokens, ctx), w);
		case "text": {
			const t = token as Tokens.Text;
			return wrapTextWithAnsi(t.tokens ? renderInline(t.tokens, ctx) : ctx.plain(t.text), w);
		}
		case "code":
			return renderCode(token as Tokens.Code, w, ctx);
		case "blockquote": {
			const q = token as Tokens.Blockquote;
			const border = theme.quoteBorder("│ ");
			const inner = renderBlocks(q.tokens, Math.max(1, w - 2), ctx);
			return inner.map((l) => border + theme.quote(l));
		}
		case "list":
			return renderList(token as Tokens.List, w, ctx);
		case "table":
			return renderTable(token as Tokens.Table, w, ctx);
		case "hr":
			return [theme.hr("─".repeat(Math.min(w, 80)))];
		case "html":
			return wrapTextWithAnsi(ctx.plain((token as Tokens.HTML).text.replace(/\n+$/, "")), w);
		case "space":
		case "def":
			return [];
		default: {
			const raw = (token as { raw?: string }).raw ?? "";
			return raw.trim() ? wrapTextWithAnsi(ctx.plain(raw.replace(/\n+$/, "")), w) : [];
		}
	}
}

/** Blocks separated by one blank line. */
export function renderBlocks(tokens: Token[], width: number, ctx: RenderContext): string[] {
	const out: string[] = [];
	for (const t of tokens) {
		const lines = renderBlock(t, width, ctx);
		if (lines.length === 0) continue;
		if (out.length > 0) out.push("");
		for (const l of lines) out.push(l);
	}
	return out;
}

function renderCode(code: Tokens.Code, width: number, ctx: RenderContext): string[] {
	const { theme } = ctx;
	const indent = theme.codeBlockIndent ?? "  ";
	const indentWidth = visibleWidth(indent);
	const inner = Math.max(1, width - indentWidth);
	const lang = code.lang?.trim().split(/\s+/)[0] || undefined;
	const src = code.text.replaceAll("\t", "    ");
	const styled = theme.highlightCode ? theme.highlightCode(src, lang) : src.split("\n").map((l) => theme.codeBlock(l));
	const out = [truncateToWidth(theme.codeBlockBorder(`\`\`\`${lang ?? ""}`), width, "")];
	for (const line of styled) {
		for (const piece of visibleWidth(line) > inner ? wrapTextWithAnsi(line, inner) : [line]) out.push(indent + piece);
	}
	out.push(truncateToWidth(theme.codeBlockBorder("```"), width, ""));
	return out;
}

function renderList(list: Tokens.List, width: number, ctx: RenderContext): string[] {
	const out: string[] = [];
	const start = typeof list.start === "number" ? list.start : 1;
	list.items.forEach((item, i) => {
		let bullet = list.ordered ? `${start + i}. ` : "- ";
		if (item.task) bullet += item.checked ? "[x] " : "[ ] ";
		const bw = visibleWidth(bullet);
		const contentWidth = Math.max(1, width - bw);
		const lines = renderListItem(item, contentWidth, ctx);
		if (list.loose && i > 0) out.push("");
		if (lines.length === 0) lines.push("");
		const pad = " ".repeat(bw);
		lines.forEach((l, j) => {
			out.push(j === 0 ? ctx.theme.listBullet(bullet) + l : pad + l);
		});
	});
	return out;
}

function renderListItem(item: Tokens.ListItem, width: number, ctx: RenderContext): string[] {
	const out: string[] = [];
	for (const t of item.tokens) {
		// Task checkboxes are drawn by the bullet.
		if (t.type === "checkbox") continue;
		const lines = renderBlock(t, width, ctx);
		if (lines.length === 0) continue;
		if (out.length > 0 && item.loose && t.type !== "list") out.push("");
		for (const l of lines) out.push(l);
	}
	return out;
}

function renderTable(table: Tokens.Table, width: number, ctx: RenderContext): string[] {
	const { theme } = ctx;
	const cols = table.header.length;
	if (cols === 0) return [];
	const header = table.header.map((c) => theme.bold(renderInline(c.tokens, ctx)));
	const rows = table.rows.map((r) => r.map((c) => renderInline(c.tokens, ctx)));
	const natural = new Array(cols).fill(1);
	const minimal = new Array(cols).fill(1);
	for (const row of [header, ...rows]) {
		row.forEach((cell, i) => {
			if (i >= cols) return;
			for (const line of cell.split("\n")) natural[i] = Math.max(natural[i], visibleWidth(line));
			for (const word of cell.split(/\s+/)) minimal[i] = Math.max(minimal[i], Math.min(visibleWidth(word), 12));
		});
	}
	// Borders take cols + 1 columns plus one space of padding each side of a cell.
	const avail = width - (cols + 1) - cols * 2;
	if (avail < cols) return wrapTextWithAnsi(ctx.plain(table.raw.trimEnd()), width);
	let widths = natural.slice();
	const total = widths.reduce((a, b) => a + b, 0);
	if (total > avail) {
		widths = minimal.map((m) => Math.min(m, Math.floor(avail / cols)) || 1);
		let left = avail - widths.reduce((a, b) => a + b, 0);
		// Hand out the rest in proportion to what each column still wants.
		const wants = natural.map((n, i) => Math.max(0, n - widths[i]));
		const wantTotal = wants.reduce((a, b) => a + b, 0);
		if (wantTotal > 0 && left > 0) {
			const extra = wants.map((x) => Math.floor((x * left) / wantTotal));
			extra.forEach((e, i) => {
				widths[i] += e;
			});
			left -= extra.reduce((a, b) => a + b, 0);
			for (let i = 0; left > 0 && i < cols; i++) {
				if (widths[i] < natural[i]) {
					widths[i]++;
					left--;
				}
			}
		}
	}
	const border = (l: string, m: string, r: string) => theme.hr(l + widths.map((cw) => "─".repeat(cw + 2)).join(m) + r);
	const renderRow = (cells: string[]): string[] => {
		const wrapped = widths.map((cw, i) => wrapTextWithAnsi(cells[i] ?? "", cw));
		const height = Math.max(...wrapped.map((c) => c.length));
		const lines: string[] = [];
		const bar = theme.hr("│");
		for (let r = 0; r < height; r++) {
			let line = bar;
			widths.forEach((cw, i) => {
				const cell = wrapped[i][r] ?? "";
				const align = table.align[i];
				const space = Math.max(0, cw - visibleWidth(cell));
				const left = align === "right" ? space : align === "center" ? Math.floor(space / 2) : 0;
				line += ` ${" ".repeat(left)}${cell}${" ".repeat(space - left)} ${bar}`;
			});
			lines.push(line);
		}
		return lines;
	};
	const out = [border("┌", "┬", "┐"), ...renderRow(header), border("├", "┼", "┤")];
	for (const row of rows) out.push(...renderRow(row));
	out.push(border("└", "┴", "┘"));
	return out;
}

/** Pad and paint the lines of a block: horizontal padding and the default background. */
export function frameLines(lines: string[], width: number, paddingX: number, bg?: (text: string) => string): string[] {
	if (paddingX === 0 && !bg) return lines;
	const pad = " ".repeat(paddingX);
	return lines.map((l) => {
		const line = pad + l;
		return bg ? applyBackgroundToLine(line, width, bg) : line;
	});
}
