// Keeps the session's recorded system prompt and tool declarations in step
// with what the session would send: the first request records a system
// message with every section and tool; later changes append patches (changed
// sections, added/removed tools). The head is never rewritten, so provider
// prompt caches stay warm and prompt changes follow branches.
import { dirname } from "node:path";
import type { AgentTool } from "@pi/agent-core";
import type { SystemMessage, Tool } from "@pi/ai";
import type { ResourceLoader } from "../resources/resource-loader.js";
import { formatSkillsSection, type Skill } from "../resources/skills.js";
import {
	buildSystemPromptSections,
	type PromptSections,
	renderSystemPrompt,
	type ToolPromptInfo,
} from "../resources/system-prompt.js";
import type { SessionManager } from "../session/session-manager.js";
import { diffSystemState, replaySystemState } from "../session/system-state.js";

// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live side by side
type AnyTool = AgentTool<any>;

export interface PromptRecorderOptions {
	cwd: string;
	resources: ResourceLoader;
	/** Clock for the date section (tests). */
	now?: () => Date;
}

/** What the prompt is built from besides the tools (see `PromptRecorder.inputs`). */
export interface SystemPromptInputs {
	customPrompt?: string;
	appendSystemPrompt?: string;
	cwd: string;
	contextFiles: { path: string; content: string }[];
	skills: { name: string; description: string; filePath: string }[];
}

export function toToolDeclaration(tool: AnyTool): Tool {
	return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

export class PromptRecorder {
	constructor(private o: PromptRecorderOptions) {}

	/** The session moved to another folder (the prompt's working-directory line follows). */
	setCwd(cwd: string): void {
		this.o = { ...this.o, cwd };
	}

	/**
	 * The sections the session wants now, for the declared tools; `active`
	 * (default: the declared ones) also holds tools whose declarations are
	 * hidden but which stay callable (codemode "only").
	 */
	sections(tools: readonly AnyTool[], active: readonly AnyTool[] = tools): PromptSections {
		const r = this.o.resources;
		// The model reads a skill's file itself: with read, else bash; when the reader is active but not
		// declared the hint names no tool; with neither, skills are not listed.
		const names = new Set(tools.map((t) => t.name));
		const activeNames = new Set(active.map((t) => t.name));
		const reader = names.has("read")
			? "read"
			: names.has("bash")
				? "bash"
				: activeNames.has("read") || activeNames.has("bash")
					? "unnamed"
					: undefined;
		const skills: Skill[] =
			r.getSkillDetails?.() ??
			r.getSkills().map((s) => ({
				...s,
				baseDir: dirname(s.filePath),
				origin: { source: "user" },
				disableModelInvocation: false,
			}));
		return buildSystemPromptSections({
			customPrompt: r.getSystemPrompt(),
			appendPrompts: r.getAppendSystemPrompt(),
			tools: tools.map((t) => t as ToolPromptInfo),
			contextFiles: r.getContextFiles(),
			skills: reader ? formatSkillsSection(skills, reader === "unnamed" ? null : reader) : undefined,
			cwd: this.o.cwd,
			date: this.o.now?.() ?? new Date(),
		});
	}

	/**
	 * The base inputs the prompt is built from (custom prompt, appended texts,
	 * context files, skills, cwd), as fresh copies: extensions get them as
	 * `systemPromptOptions` and may change them without touching pi's.
	 */
	inputs(): SystemPromptInputs {
		const r = this.o.resources;
		const custom = r.getSystemPrompt();
		const append = r
			.getAppendSystemPrompt()
			.map((t) => t.trim())
			.filter((t) => t !== "");
		return {
			...(custom !== undefined ? { customPrompt: custom } : {}),
			...(append.length > 0 ? { appendSystemPrompt: append.join("\n\n") } : {}),
			cwd: this.o.cwd,
			contextFiles: r.getContextFiles().map((f) => ({ path: f.path, content: f.content })),
			skills: r.getSkills().map((s) => ({ name: s.name, description: s.description, filePath: s.filePath })),
		};
	}

	/** The rendered prompt text (for `agent.state.systemPrompt` and UIs). */
	render(tools: readonly AnyTool[], active: readonly AnyTool[] = tools): string {
		return renderSystemPrompt(this.sections(tools, active));
	}

	/**
	 * Appends a system message when the active branch's recorded prompt/tools
	 * differ from the wanted ones. Returns the appended message, if any.
	 */
	sync(
		session: SessionManager,
		tools: readonly AnyTool[],
		active: readonly AnyTool[] = tools,
	): SystemMessage | undefined {
		const current = replaySystemState(session.buildSessionContext().messages);
		const sections = Object.fromEntries(
			Object.entries(this.sections(tools, active)).filter((e): e is [string, string] => typeof e[1] === "string"),
		);
		const patch = diffSystemState(current, sections, tools.map(toToolDeclaration));
		if (!patch) return undefined;
		session.appendMessage(patch);
		return patch;
	}
}
