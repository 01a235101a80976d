// The pure exporter: session entries → page text, without a browser.
import { describe, expect, it } from "vitest";
import { PageIndexBuilder } from "../../src/export/index-builder.js";
import { createRedactor, REDACTED } from "../../src/export/redact.js";
import { renderSessionHtml, renderSessionHtmlString, scriptSafeJson } from "../../src/export/render.js";
import type { SessionEntry } from "../../src/session/types.js";
import { INJECT_PROMPT, LABEL, richSession, SESSION_NAME } from "./fixtures.js";

/** The text of the data block with this id. */
function block(html: string, id: string): string {
	const start = html.indexOf(`id="${id}">`);
	expect(start).toBeGreaterThan(0);
	const from = start + `id="${id}">`.length;
	return html.slice(from, html.indexOf("</script>", from));
}

describe("renderSessionHtml", () => {
	it("writes every entry as one JSON line, with '<' escaped so no data can close its block", () => {
		const s = richSession();
		const html = renderSessionHtmlString(s);
		const lines = block(html, "pi-entries").split("\n").filter(Boolean);
		expect(lines).toHaveLength(s.entries.length);
		expect(lines.map((l) => JSON.parse(l))).toEqual(s.entries);
		// Hostile text never appears raw anywhere in the page.
		expect(html).not.toContain(INJECT_PROMPT);
		expect(html).not.toContain("<script>window");
		expect(html).not.toContain("</title>.ts");
		// Exactly the template's four script elements.
		expect(html.match(/<script[\s>]/g)).toHaveLength(4);
		expect(html.match(/<\/script>/g)).toHaveLength(4);
	});

	it("keeps U+2028, lone surrogates and '</script' inert and round-trippable", () => {
		const nasty = "a\u2028b \ud800 </script><!-- </SCRIPT >";
		const json = scriptSafeJson({ t: nasty });
		expect(json).not.toMatch(/<\/script/i);
		expect(json).not.toContain("<!--");
		expect(JSON.parse(json).t).toBe(nasty);
	});

	it("indexes the tree: parents, active leaf, labels, name, totals", () => {
		const s = richSession();
		const html = renderSessionHtmlString(s);
		const index = JSON.parse(block(html, "pi-index"));
		expect(index.ids).toEqual(s.entries.map((e) => e.id));
		expect(index.leaf).toBe(s.entries.length - 1);
		for (let i = 0; i < s.entries.length; i++) {
			const p = s.entries[i].parentId;
			expect(index.parents[i]).toBe(p === null ? -1 : index.ids.indexOf(p));
		}
		expect(Object.values(index.labels)).toEqual([LABEL]);
		expect(index.name).toBe(SESSION_NAME);
		expect(index.totals.cost).toBeCloseTo(0.0123 * 4, 6);
		// An explicit leaf is honoured.
		const other = renderSessionHtmlString({ ...s, leafId: s.entries[3].id });
		expect(JSON.parse(block(other, "pi-index")).leaf).toBe(3);
	});

	it("streams: chunks are bounded by the largest entry, entries are pulled one at a time", () => {
		const s = richSession();
		let pulled = 0;
		let maxChunk = 0;
		let chunks = 0;
		function* entries(): Generator<SessionEntry> {
			for (let i = 0; i < 2000; i++) {
				pulled++;
				yield { ...s.entries[2], id: `x${i}`, parentId: i === 0 ? null : `x${i - 1}` } as SessionEntry;
			}
		}
		const summary = renderSessionHtml({ header: s.header, entries: entries() }, (c) => {
			chunks++;
			maxChunk = Math.max(maxChunk, c.length);
		});
		expect(pulled).toBe(2000);
		expect(summary.entries).toBe(2000);
		expect(chunks).toBeGreaterThan(2000);
		expect(maxChunk).toBeLessThan(200_000); // the template parts (styles, script), not the session
	});

	it("redacts known secrets in entries, header and index, raw or JSON-escaped", () => {
		const s = richSession();
		const key = 'sk-test-"quoted"-9f8e7d6c5b4a';
		(s.entries[2] as { message: { content: { type: string; text: string }[] } }).message.content[0].text =
			`my key is ${key} and sk-plain-123456789`;
		s.header.cwd = "/home/sk-plain-123456789";
		const html = renderSessionHtmlString(s, { redact: createRedactor([key, "sk-plain-123456789", "abc"]) });
		expect(html).not.toContain("sk-plain-123456789");
		expect(html).not.toContain(JSON.stringify(key).slice(1, -1));
		expect(html).toContain(REDACTED);
		// Too-short values are not treated as secrets.
		expect(createRedactor(["abc"])("abc")).toBe("abc");
	});

	it("carries a CSP that allows only its own script and inline images", () => {
		const html = renderSessionHtmlString(richSession());
		const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? "";
		expect(csp).toContain("default-src 'none'");
		expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
		expect(csp).toContain("img-src data:");
		expect(csp).not.toContain("unsafe-inline'; script");
		expect(html).not.toMatch(/(src|href)="https?:/);
	});
});

describe("PageIndexBuilder", () => {
	it("applies label clears and the last session name", () => {
		const b = new PageIndexBuilder();
		const base = { timestamp: "2026-01-01T00:00:00.000Z" };
		b.add({ ...base, type: "session_info", id: "a", parentId: null, name: "first" } as SessionEntry);
		b.add({ ...base, type: "label", id: "b", parentId: "a", targetId: "a", label: "x" } as SessionEntry);
		b.add({ ...base, type: "label", id: "c", parentId: "b", targetId: "a", label: undefined } as SessionEntry);
		b.add({ ...base, type: "session_info", id: "d", parentId: "c", name: "  second " } as SessionEntry);
		const index = b.finish();
		expect(index.labels).toEqual({});
		expect(index.name).toBe("second");
		expect(index.leaf).toBe(3);
	});
});
