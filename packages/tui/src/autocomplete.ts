/**
 * Autocomplete for the editor: slash commands (and their arguments), `@` file
 * mentions with fuzzy search, and Tab path completion. File listing is
 * pluggable so the app decides how files are found (fd, git ls-files, a walk).
 */
import { type Dirent, readdir } from "node:fs";
import { homedir } from "node:os";
import { join, relative, sep } from "node:path";
import { fuzzyFilter } from "./fuzzy.js";

/**
 * A directory's entries through the callback API: importing node:fs/promises loads Node's
 * promises, watcher and readline modules (~5M instructions) when the app starts, before the first
 * screen, though nothing is completed then.
 */
function listDir(dir: string): Promise<Dirent[]> {
	return new Promise((resolve, reject) => {
		readdir(dir, { withFileTypes: true }, (error, entries) => (error ? reject(error) : resolve(entries)));
	});
}

export interface AutocompleteItem {
	value: string;
	label: string;
	description?: string;
}

type Awaitable<T> = T | Promise<T>;

export interface SlashCommand {
	name: string;
	description?: string;
	argumentHint?: string;
	getArgumentCompletions?(argumentPrefix: string): Awaitable<AutocompleteItem[] | null>;
}

export interface AutocompleteSuggestions {
	items: AutocompleteItem[];
	/** The text before the cursor that the chosen item replaces. */
	prefix: string;
}

export interface CompletionResult {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

export interface AutocompleteProvider {
	getSuggestions(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		options: { signal: AbortSignal; force?: boolean },
	): Promise<AutocompleteSuggestions | null>;
	applyCompletion(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		item: AutocompleteItem,
		prefix: string,
	): CompletionResult;
	/** Whether Tab should ask for file completion at this position. */
	shouldTriggerFileCompletion?(lines: string[], cursorLine: number, cursorCol: number): boolean;
}

/**
 * Lists candidate files for `@` mentions: paths relative to `basePath`,
 * directories ending in "/". The app may use fd, git or anything else.
 */
export type FileLister = (options: {
	basePath: string;
	query: string;
	signal: AbortSignal;
	limit: number;
}) => Promise<string[]>;

const SKIP_DIRS = new Set([".git", "node_modules", ".hg", ".svn", "dist", "build", ".next", ".cache", "target"]);

/** Default lister: a bounded breadth-first walk that skips VCS and dependency folders. */
export const walkFiles: FileLister = async ({ basePath, signal, limit }) => {
	const out: string[] = [];
	const queue = [basePath];
	const maxEntries = Math.max(limit * 50, 5000);
	while (queue.length > 0 && out.length < maxEntries) {
		if (signal.aborted) break;
		const dir = queue.shift() ?? basePath;
		let entries: Dirent[];
		try {
			entries = await listDir(dir);
		} catch {
			continue;
		}
		for (const e of entries) {
			const full = join(dir, e.name);
			const rel = relative(basePath, full).split(sep).join("/");
			if (e.isDirectory()) {
				if (SKIP_DIRS.has(e.name)) continue;
				out.push(`${rel}/`);
				queue.push(full);
			} else out.push(rel);
		}
	}
	return out;
};

const MAX_ITEMS = 50;

function isSlashItem(c: AutocompleteItem | SlashCommand): c is SlashCommand {
	return (c as SlashCommand).name !== undefined;
}

export interface CombinedAutocompleteOptions {
	/** How `@` mentions find files (default: `walkFiles`). */
	listFiles?: FileLister;
}

/** Slash commands plus file paths. */
export class CombinedAutocompleteProvider implements AutocompleteProvider {
	private readonly commands: (AutocompleteItem | SlashCommand)[];
	private readonly basePath: string;
	private readonly listFiles: FileLister;
	/** The default walk ignores the query, so its result is reused for a few seconds. */
	private walkCache: { at: number; files: string[] } | undefined;

	constructor(
		commands: (AutocompleteItem | SlashCommand)[] = [],
		basePath: string = process.cwd(),
		options: CombinedAutocompleteOptions | FileLister = {},
	) {
		this.commands = commands;
		this.basePath = basePath;
		this.listFiles = typeof options === "function" ? options : (options.listFiles ?? walkFiles);
	}

	async getSuggestions(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		options: { signal: AbortSignal; force?: boolean },
	): Promise<AutocompleteSuggestions | null> {
		const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
		// Slash commands: only at the very start of the message.
		if (cursorLine === 0 && before.startsWith("/")) {
			const space = before.indexOf(" ");
			if (space === -1) return this.commandSuggestions(before);
			return this.argumentSuggestions(before, space);
		}
		const token = lastToken(before);
		if (token.startsWith("@")) return this.mentionSuggestions(token, options.signal);
		if (options.force) return this.pathSuggestions(token);
		return null;
	}

	private commandSuggestions(prefix: string): AutocompleteSuggestions | null {
		const query = prefix.slice(1);
		const items: AutocompleteItem[] = this.commands.map((c) =>
			isSlashItem(c)
				? { value: c.name, label: c.name, description: c.description }
				: { value: c.value, label: c.label, description: c.description },
		);
		const matched = query ? fuzzyFilter(items, query, (i) => i.value) : items;
		if (matched.length === 0) return null;
		return { items: matched.slice(0, MAX_ITEMS), prefix };
	}

	private async argumentSuggestions(before: string, space: number): Promise<AutocompleteSuggestions | null> {
		const name = before.slice(1, space);
		const command = this.commands.find((c) => isSlashItem(c) && c.name === name) as SlashCommand | undefined;
		if (!command?.getArgumentCompletions) return null;
		const argPrefix = before.slice(space + 1);
		const items = await command.getArgumentCompletions(argPrefix);
		if (!items || items.length === 0) return null;
		return { items, prefix: argPrefix };
	}

	private async mentionSuggestions(token: string, signal: AbortSignal): Promise<AutocompleteSuggestions | null> {
		const query = token.slice(1).replace(/^"/, "");
		let files: string[];
		try {
			const cached = this.walkCache;
			if (this.listFiles === walkFiles && cached && Date.now() - cached.at < 5000) files = cached.files;
			else {
				files = await this.listFiles({ basePath: this.basePath, query, signal, limit: MAX_ITEMS });
				if (this.listFiles === walkFiles && !signal.aborted) this.walkCache = { at: Date.now(), files };
			}
		} catch {
			return null;
		}
		if (signal.aborted) return null;
		const matched = query ? fuzzyFilter(files, query, (f) => f) : files.slice().sort(byDepthThenName);
		if (matched.length === 0) return null;
		const items = matched.slice(0, MAX_ITEMS).map((f) => ({ value: `@${quoteIfNeeded(f)}`, label: f }));
		return { items, prefix: token };
	}

	private async pathSuggestions(token: string): Promise<AutocompleteSuggestions | null> {
		const expanded = token.startsWith("~/") ? homedir() + token.slice(1) : token;
		const slash = expanded.lastIndexOf("/");
		const dirPart = slash === -1 ? "" : expanded.slice(0, slash + 1);
		const namePrefix = slash === -1 ? expanded : expanded.slice(slash + 1);
		const dir = dirPart.startsWith("/") ? dirPart : join(this.basePath, dirPart);
		let entries: Dirent[];
		try {
			entries = await listDir(dir || ".");
		} catch {
			return null;
		}
		const shownDir = slash === -1 ? "" : token.slice(0, token.lastIndexOf("/") + 1);
		const items = entries
			.filter((e) => e.name.startsWith(namePrefix) && (namePrefix.startsWith(".") || !e.name.startsWith(".")))
			.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
			.slice(0, MAX_ITEMS)
			.map((e) => {
				const name = e.isDirectory() ? `${e.name}/` : e.name;
				return { value: shownDir + name, label: name };
			});
		if (items.length === 0) return null;
		return { items, prefix: token };
	}

	applyCompletion(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		item: AutocompleteItem,
		prefix: string,
	): CompletionResult {
		const line = lines[cursorLine] ?? "";
		const start = Math.max(0, cursorCol - prefix.length);
		const isCommand = cursorLine === 0 && prefix.startsWith("/") && start === 0;
		let insert: string;
		if (isCommand) insert = `/${item.value} `;
		else if (item.value.endsWith("/")) insert = item.value;
		else insert = `${item.value} `;
		// Do not double a space that already follows the cursor; step over it instead.
		let skip = 0;
		if (insert.endsWith(" ") && line[cursorCol] === " ") {
			insert = insert.slice(0, -1);
			skip = 1;
		}
		const newLine = line.slice(0, start) + insert + line.slice(cursorCol);
		const out = lines.slice();
		out[cursorLine] = newLine;
		return { lines: out, cursorLine, cursorCol: start + insert.length + skip };
	}

	shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
		const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
		return !(cursorLine === 0 && before.startsWith("/") && !before.includes(" "));
	}
}

/** The whitespace-delimited token that ends at the cursor. */
function lastToken(before: string): string {
	const m = /(?:^|[\s])(\S*)$/.exec(before);
	return m ? m[1] : "";
}

function quoteIfNeeded(path: string): string {
	return /\s/.test(path) ? `"${path}"` : path;
}

function byDepthThenName(a: string, b: string): number {
	const da = a.split("/").length;
	const db = b.split("/").length;
	return da - db || a.localeCompare(b);
}
