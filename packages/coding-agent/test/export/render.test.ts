// The pure exporter: session entries → page text, without a browser.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clearSecrets } from "@pi/ai/internal";
import { describe, expect, it } from "vitest";
import { registerConfiguredSecrets } from "../../src/config/configured-secrets.js";
import { PageIndexBuilder } from "../../src/export/index-builder.js";
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

	it("redacts secrets registered with pi-ai (config files, env, --api-key) in entries, header and index", () => {
		const root = mkdtempSync(join(tmpdir(), "pi-export-secrets-"));
		try {
			const key = 'zz-test-"quoted"-9f8e7d6c5b4a';
			const envKey = "envkey-0a1b2c3d4e5f";
			const header = "hdr-value-77aa88bb99cc";
			writeFileSync(join(root, "auth.json"), JSON.stringify({ p: { type: "api_key", key } }));
			writeFileSync(
				join(root, "models.json"),
				// JSONC, as models.json may be written; the apiKey names an env var.
				`{ // comment\n "providers": { "x": { "apiKey": "MY_PROVIDER_KEY", "headers": { "x-t": "Bearer ${header}" } } } }`,
			);
			const found = registerConfiguredSecrets({
				env: { MY_PROVIDER_KEY: envKey },
				authFile: join(root, "auth.json"),
				modelsFile: join(root, "models.json"),
				extra: ["cli-key-445566778899", "abc"],
			});
			expect(found).toBeGreaterThanOrEqual(4);
			const s = richSession();
			(s.entries[2] as { message: { content: { type: string; text: string }[] } }).message.content[0].text =
				`my keys: ${key} ${envKey} ${header} cli-key-445566778899 abc`;
			s.header.cwd = `/home/${envKey}`;
			const html = renderSessionHtmlString(s);
			for (const secret of [JSON.stringify(key).slice(1, -1), envKey, header, "cli-key-445566778899"]) {
				expect(html).not.toContain(secret);
			}
			expect(html).toContain("[redacted]");
			// Too-short values are not treated as secrets.
			expect(html).toContain("my keys: [redacted] [redacted] [redacted] [redacted] abc");
		} finally {
			clearSecrets();
			rmSync(root, { recursive: true, force: true });
		}
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
