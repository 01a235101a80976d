import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DefaultResourceLoader } from "../../src/resources/resource-loader.js";
import {
	buildSystemPromptSections,
	diffPromptSections,
	renderSystemPrompt,
} from "../../src/resources/system-prompt.js";

const date = new Date(2026, 10, 29, 12);
const tools = [
	{ name: "read", description: "Read a file." },
	{ name: "bash", description: "Run a command." },
	{ name: "my_tool", description: "Does a custom thing. More words.", promptGuidelines: ["Call my_tool first."] },
];

describe("system prompt sections", () => {
	it("default prompt: base, tools, guidelines, append, context, environment in order", () => {
		const sections = buildSystemPromptSections({
			tools,
			appendPrompts: ["Extra rule."],
			contextFiles: [{ path: "/p/AGENTS.md", content: "Use tabs.\n" }],
			cwd: "/p",
			date,
		});
		expect(Object.keys(sections)).toEqual(["base", "tools", "guidelines", "append", "context", "environment"]);
		expect(sections.tools).toContain("- my_tool: Does a custom thing\n");
		expect(sections.tools).toContain("- read: read a file's contents");
		expect(sections.guidelines).toContain("- Use bash for searching and listing files (rg, find, ls).");
		expect(sections.guidelines).toContain("- Call my_tool first.");
		expect(sections.append).toBe("Extra rule.");
		expect(sections.context).toBe(
			"# Project Context\n\nProject-specific instructions and guidelines:\n\n## /p/AGENTS.md\n\nUse tabs.",
		);
		expect(sections.environment).toBe("Current date: 2026-11-29\nCurrent working directory: /p");
		const text = renderSystemPrompt(sections);
		expect(text.indexOf("Available tools:")).toBeLessThan(text.indexOf("Guidelines:"));
		expect(text.endsWith("Current working directory: /p")).toBe(true);
	});

	it("a custom prompt replaces base, tools and guidelines; context and environment stay", () => {
		const sections = buildSystemPromptSections({
			customPrompt: "You are a pirate.\n",
			tools,
			contextFiles: [{ path: "/a", content: "c" }],
			cwd: "/w",
			date,
		});
		expect(renderSystemPrompt(sections)).toBe(
			"You are a pirate.\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n## /a\n\nc\n\nCurrent date: 2026-11-29\nCurrent working directory: /w",
		);
	});

	it("diff gives only changed sections (null for removed)", () => {
		const a = buildSystemPromptSections({ tools, contextFiles: [], cwd: "/w", date, appendPrompts: ["x"] });
		const b = buildSystemPromptSections({ tools: tools.slice(0, 1), contextFiles: [], cwd: "/w", date });
		expect(Object.keys(diffPromptSections(a, b))).toEqual(["tools", "guidelines", "append"]);
		expect(diffPromptSections(a, b).append).toBeNull();
	});
});

describe("DefaultResourceLoader", () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), "pi-res-"));
		mkdirSync(join(root, "agent"));
		mkdirSync(join(root, "w", ".pi"), { recursive: true });
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("SYSTEM.md / APPEND_SYSTEM.md: project beats global; CLI flags beat both; file paths are read", async () => {
		const agentDir = join(root, "agent");
		const cwd = join(root, "w");
		writeFileSync(join(agentDir, "SYSTEM.md"), "global system");
		writeFileSync(join(agentDir, "APPEND_SYSTEM.md"), "global append");
		writeFileSync(join(cwd, ".pi", "APPEND_SYSTEM.md"), "project append");
		const l1 = new DefaultResourceLoader({ cwd, agentDir });
		await l1.reload();
		expect(l1.getSystemPrompt()).toBe("global system");
		expect(l1.getAppendSystemPrompt()).toEqual(["project append"]);

		writeFileSync(join(cwd, "extra.md"), "from file");
		const l2 = new DefaultResourceLoader({
			cwd,
			agentDir,
			systemPrompt: "cli system",
			appendSystemPrompt: ["extra.md", "literal text"],
		});
		await l2.reload();
		expect(l2.getSystemPrompt()).toBe("cli system");
		expect(l2.getAppendSystemPrompt()).toEqual(["from file", "literal text"]);
	});

	it("-nc drops context files; untrusted projects only get global resources", async () => {
		const agentDir = join(root, "agent");
		const cwd = join(root, "w");
		writeFileSync(join(agentDir, "AGENTS.md"), "g");
		writeFileSync(join(cwd, "AGENTS.md"), "p");
		writeFileSync(join(cwd, ".pi", "SYSTEM.md"), "project system");
		const none = new DefaultResourceLoader({ cwd, agentDir, noContextFiles: true });
		await none.reload();
		expect(none.getContextFiles()).toEqual([]);
		const untrusted = new DefaultResourceLoader({ cwd, agentDir, loadProjectResources: false });
		await untrusted.reload();
		expect(untrusted.getContextFiles().map((f) => f.content)).toEqual(["g"]);
		expect(untrusted.getSystemPrompt()).toBeUndefined();
	});
});
