// marked is loaded on demand, not with the TUI (its regex tables cost tens of
// ms at load; a first screen without markdown need not pay them). Before the
// load a Markdown shows its text plain and starts the load; listeners hear when
// it is done, and the next render is markdown. (A file of its own: the module
// state must be fresh.)
import { describe, expect, it } from "vitest";
import { loadMarkdown, Markdown, onMarkdownLoaded } from "../src/components/markdown.js";
import { stripAnsi } from "../src/utils/ansi.js";
import { plainMarkdownTheme } from "./helpers/themes.js";

describe("Markdown before marked is loaded", () => {
	it("renders the text plain, loads marked, tells listeners, then renders markdown", async () => {
		const md = new Markdown("# Title\n\nSome **bold** text", 0, 0, plainMarkdownTheme);
		let heard = 0;
		onMarkdownLoaded(() => heard++);
		const before = md.render(40).map(stripAnsi);
		expect(before.join("\n")).toContain("# Title");
		expect(before.join("\n")).toContain("**bold**");
		expect(heard).toBe(0);
		// The render started the load; loadMarkdown() is the same load.
		await loadMarkdown();
		expect(heard).toBe(1);
		const after = md.render(40).map(stripAnsi);
		expect(after.join("\n")).not.toContain("**");
		expect(after.join("\n")).not.toContain("# Title");
		expect(after.join("\n")).toContain("Some bold text");
		// Once loaded, a new listener runs at once.
		onMarkdownLoaded(() => heard++);
		expect(heard).toBe(2);
	});
});
