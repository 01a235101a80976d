// The system prompt as named sections, so it can be recorded as a pi-ai
// SystemMessage with `sections` and later changed by append-only patches
// (a new tool set replaces just the "tools" section). Rendering joins the
// non-empty sections with blank lines, as pi-ai's replay does.

export const PROMPT_SECTIONS = ["base", "tools", "guidelines", "append", "context", "skills", "environment"] as const;
export type PromptSectionName = (typeof PROMPT_SECTIONS)[number];
export type PromptSections = Partial<Record<PromptSectionName, string>>;

/** What the prompt says about a tool. */
export interface ToolPromptInfo {
	name: string;
	description: string;
	/** One line for the tool list; default: the first sentence of the description. */
	promptSnippet?: string;
	/** Usage rules added to the guidelines when the tool is active. */
	promptGuidelines?: string[];
}

export interface SystemPromptInput {
	/** Replaces the default base instructions (--system-prompt or SYSTEM.md). */
	customPrompt?: string;
	/** Appended texts (--append-system-prompt, APPEND_SYSTEM.md), in order. */
	appendPrompts?: string[];
	tools: ToolPromptInfo[];
	contextFiles: { path: string; content: string }[];
	/** Rendered skills block (later: skills discovery); omitted when empty. */
	skills?: string;
	cwd: string;
	/** Defaults to now. */
	date?: Date;
}

const BASE = [
	"You are an expert coding assistant working inside pi, a coding agent harness in the user's terminal.",
	"You help with software tasks by reading files, running commands, editing code and writing new files,",
	"using the tools listed below.",
].join(" ");

/** Default one-liners and rules for the built-in tools (our wording). */
const BUILTIN_TOOL_HINTS: Record<string, { snippet: string; guidelines?: string[] }> = {
	read: {
		snippet: "read a file's contents (text or image); large files are read in pages with offset/limit",
		guidelines: ["Read a file before editing it, so your edits match its current contents."],
	},
	bash: {
		snippet: "run a shell command in the working directory and see its output",
	},
	edit: {
		snippet: "replace exact text in a file; each oldText must match exactly once",
		guidelines: ["Use edit for targeted changes; keep each oldText short but unique in the file."],
	},
	write: {
		snippet: "create a file or overwrite it entirely",
		guidelines: ["Use write only for new files or complete rewrites, not for small changes."],
	},
	grep: { snippet: "search file contents for a pattern (respects .gitignore)" },
	find: { snippet: "find files by glob pattern (respects .gitignore)" },
	ls: { snippet: "list a directory's entries" },
};

function firstSentence(text: string): string {
	const line = text.trim().split("\n")[0] ?? "";
	const end = line.search(/\.(\s|$)/);
	return end > 0 ? line.slice(0, end) : line;
}

function toolsSection(tools: ToolPromptInfo[]): string {
	const lines = tools.map((t) => {
		const snippet = t.promptSnippet ?? BUILTIN_TOOL_HINTS[t.name]?.snippet ?? firstSentence(t.description);
		return `- ${t.name}: ${snippet}`;
	});
	return [
		"Available tools:",
		lines.length > 0 ? lines.join("\n") : "(none)",
		"",
		"Other tools may be added by extensions; use any tool whose description fits the task.",
	].join("\n");
}

function guidelinesSection(tools: ToolPromptInfo[]): string {
	const names = new Set(tools.map((t) => t.name));
	const rules: string[] = [];
	const add = (rule: string) => {
		if (!rules.includes(rule)) rules.push(rule);
	};
	if (names.has("bash")) {
		const dedicated = ["grep", "find", "ls"].filter((n) => names.has(n));
		if (dedicated.length > 0) add(`Prefer ${dedicated.join("/")} over bash for searching and listing files.`);
		else add("Use bash for searching and listing files (rg, find, ls).");
	}
	for (const t of tools)
		for (const rule of t.promptGuidelines ?? BUILTIN_TOOL_HINTS[t.name]?.guidelines ?? []) add(rule);
	add("Be concise in your replies.");
	add("Show file paths clearly when you talk about files.");
	return ["Guidelines:", ...rules.map((r) => `- ${r}`)].join("\n");
}

function contextSection(files: { path: string; content: string }[]): string {
	if (files.length === 0) return "";
	const body = files.map((f) => `## ${f.path}\n\n${f.content.trim()}`).join("\n\n");
	return `# Project Context\n\nProject-specific instructions and guidelines:\n\n${body}`;
}

function isoDate(date: Date): string {
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Builds the named sections. A custom prompt replaces base, tools and guidelines. */
export function buildSystemPromptSections(input: SystemPromptInput): PromptSections {
	const sections: PromptSections = {};
	if (input.customPrompt !== undefined) {
		sections.base = input.customPrompt.trim();
	} else {
		sections.base = BASE;
		sections.tools = toolsSection(input.tools);
		sections.guidelines = guidelinesSection(input.tools);
	}
	const append = (input.appendPrompts ?? []).map((t) => t.trim()).filter((t) => t !== "");
	if (append.length > 0) sections.append = append.join("\n\n");
	const context = contextSection(input.contextFiles);
	if (context) sections.context = context;
	if (input.skills && input.skills.trim() !== "") sections.skills = input.skills.trim();
	sections.environment = `Current date: ${isoDate(input.date ?? new Date())}\nCurrent working directory: ${input.cwd}`;
	return sections;
}

/** The prompt text: non-empty sections in canonical order, separated by blank lines. */
export function renderSystemPrompt(sections: PromptSections): string {
	return PROMPT_SECTIONS.map((name) => sections[name])
		.filter((s): s is string => typeof s === "string" && s !== "")
		.join("\n\n");
}

/** Sections whose text differs between two builds (null = removed), for an append-only patch. */
export function diffPromptSections(
	before: PromptSections,
	after: PromptSections,
): Partial<Record<PromptSectionName, string | null>> {
	const patch: Partial<Record<PromptSectionName, string | null>> = {};
	for (const name of PROMPT_SECTIONS) {
		if (before[name] === after[name]) continue;
		patch[name] = after[name] ?? null;
	}
	return patch;
}
