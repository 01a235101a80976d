// Where the session's resources come from. The interface is the seam: the
// SDK can pass its own loader, and later skills, prompt templates, themes and
// extensions join context files and system-prompt pieces here.
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { agentPaths, projectPaths } from "../config/paths.js";
import { type ContextFile, loadContextFiles } from "./context-files.js";

/** A skill as listed in the system prompt (discovery comes with the skills issue). */
export interface SkillInfo {
	name: string;
	description: string;
	/** Absolute path of the skill file. */
	filePath: string;
}

export interface ResourceLoader {
	/** (Re)discovers everything; call before the getters. */
	reload(): Promise<void>;
	getContextFiles(): ContextFile[];
	/** A replacement for the default base instructions, or undefined for the default. */
	getSystemPrompt(): string | undefined;
	/** Texts appended to the system prompt, in order. */
	getAppendSystemPrompt(): string[];
	getSkills(): SkillInfo[];
	/** Problems found while loading (unreadable files …), for the caller to show. */
	getDiagnostics(): string[];
}

export interface DefaultResourceLoaderOptions {
	cwd: string;
	agentDir: string;
	/** --system-prompt: text, or a path to a file with the text. Beats SYSTEM.md. */
	systemPrompt?: string;
	/** --append-system-prompt values (text or file path). Replace APPEND_SYSTEM.md discovery when given. */
	appendSystemPrompt?: string[];
	/** -nc: no AGENTS.md / CLAUDE.md. */
	noContextFiles?: boolean;
	/** Whether project-local files (.pi/SYSTEM.md …, project context files) may be read. Default true. */
	loadProjectResources?: boolean;
	contextFilesOverride?: (found: ContextFile[]) => ContextFile[];
	systemPromptOverride?: (found: string | undefined) => string | undefined;
}

/** A value that names an existing file is replaced by the file's text. */
export function readTextOrFile(value: string, cwd: string): string {
	const path = resolve(cwd, value);
	try {
		if (value.length < 4096 && existsSync(path) && statSync(path).isFile()) return readFileSync(path, "utf8");
	} catch {
		// Not a readable file: the value is the text.
	}
	return value;
}

export class DefaultResourceLoader implements ResourceLoader {
	private contextFiles: ContextFile[] = [];
	private systemPrompt: string | undefined;
	private appendSystemPrompt: string[] = [];
	private diagnostics: string[] = [];

	constructor(private readonly options: DefaultResourceLoaderOptions) {}

	async reload(): Promise<void> {
		const { cwd, agentDir } = this.options;
		const project = this.options.loadProjectResources !== false;
		this.diagnostics = [];

		let files: ContextFile[] = [];
		if (!this.options.noContextFiles) {
			files = loadContextFiles({ cwd, agentDir });
			if (!project) files = files.filter((f) => f.path.startsWith(resolve(agentDir)));
		}
		this.contextFiles = this.options.contextFilesOverride ? this.options.contextFilesOverride(files) : files;

		const global = agentPaths(agentDir);
		const local = projectPaths(cwd);
		const pick = (projectFile: string, globalFile: string): string | undefined => {
			for (const file of project ? [projectFile, globalFile] : [globalFile]) {
				const text = this.readOptional(file);
				if (text !== undefined) return text;
			}
			return undefined;
		};

		const base =
			this.options.systemPrompt !== undefined
				? readTextOrFile(this.options.systemPrompt, cwd)
				: pick(local.systemPrompt, global.systemPrompt);
		this.systemPrompt = this.options.systemPromptOverride ? this.options.systemPromptOverride(base) : base;

		if (this.options.appendSystemPrompt && this.options.appendSystemPrompt.length > 0) {
			this.appendSystemPrompt = this.options.appendSystemPrompt.map((v) => readTextOrFile(v, cwd));
		} else {
			const text = pick(local.appendSystemPrompt, global.appendSystemPrompt);
			this.appendSystemPrompt = text === undefined ? [] : [text];
		}
	}

	private readOptional(file: string): string | undefined {
		try {
			return readFileSync(file, "utf8");
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code !== "ENOENT" && code !== "ENOTDIR") this.diagnostics.push(`Could not read ${file}: ${code}`);
			return undefined;
		}
	}

	getContextFiles(): ContextFile[] {
		return this.contextFiles;
	}
	getSystemPrompt(): string | undefined {
		return this.systemPrompt;
	}
	getAppendSystemPrompt(): string[] {
		return this.appendSystemPrompt;
	}
	getSkills(): SkillInfo[] {
		return [];
	}
	getDiagnostics(): string[] {
		return [...this.diagnostics];
	}
}
