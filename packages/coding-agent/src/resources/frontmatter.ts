// YAML frontmatter of skill and prompt-template files: a leading `---` line,
// YAML, a closing `---` line, then the Markdown body. The YAML parser is
// passed in (the loader imports `yaml` lazily), so this module stays pure.

export type YamlParse = (text: string) => unknown;

export interface FrontmatterResult {
	/** The parsed mapping; {} when the file has no frontmatter. */
	data: Record<string, unknown>;
	/** The text after the frontmatter. */
	body: string;
	/** True when the file starts with a frontmatter block. */
	present: boolean;
	/** The raw YAML (for locating fields). */
	yaml: string;
}

export class FrontmatterError extends Error {
	constructor(
		message: string,
		/** 1-based line in the file. */
		readonly line: number | undefined,
	) {
		super(message);
		this.name = "FrontmatterError";
	}
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /(^|\r?\n)---[ \t]*(\r?\n|$)/g;

const FLAT_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ ]+([A-Za-z][^\t]*?)[ ]*$/;
const WORDS: Record<string, boolean | null> = {
	true: true,
	True: true,
	TRUE: true,
	false: false,
	False: false,
	FALSE: false,
	null: null,
	Null: null,
	NULL: null,
};

/**
 * The common frontmatter — one `key: plain words` per line — read without the
 * YAML parser, which costs milliseconds per file while it is cold (200 skills
 * and 200 templates spent over a second in it at start-up). Anything else
 * (quotes, comments, nesting, lists, `: ` or ` #` inside a value, a value not
 * starting with a letter, a repeated key) returns undefined and goes to the
 * real parser, so the result is always the one YAML 1.2's core schema gives.
 */
export function flatMapping(yaml: string): Record<string, unknown> | undefined {
	const out: Record<string, unknown> = {};
	for (const line of yaml.split(/\r?\n/)) {
		if (line === "") continue;
		const m = FLAT_LINE.exec(line);
		if (!m) return undefined;
		const [, key, value] = m;
		if (
			key === "__proto__" ||
			Object.hasOwn(out, key) ||
			value.includes(": ") ||
			value.includes(" #") ||
			value.endsWith(":")
		) {
			return undefined;
		}
		out[key] = Object.hasOwn(WORDS, value) ? WORDS[value] : value;
	}
	return out;
}

/** Splits and parses the frontmatter; throws FrontmatterError (with the file line) when it is malformed. */
export function parseFrontmatter(text: string, parseYaml: YamlParse): FrontmatterResult {
	const open = OPEN.exec(text);
	if (!open) return { data: {}, body: text, present: false, yaml: "" };
	const start = open[0].length;
	CLOSE.lastIndex = start;
	let close = CLOSE.exec(text);
	// An empty block: the closing line follows the opening line directly.
	if (close && close.index < start) close = null;
	if (!close) throw new FrontmatterError("frontmatter is not closed (no `---` line after it)", 1);
	const yaml = text.slice(start, close.index + close[1].length);
	const body = text.slice(close.index + close[0].length);
	let parsed: unknown;
	try {
		parsed = yaml.trim() === "" ? {} : (flatMapping(yaml) ?? parseYaml(yaml));
	} catch (error) {
		const pos = (error as { linePos?: { line: number }[] }).linePos?.[0];
		// yaml's own "at line N" counts from the block start; the diagnostic carries the file line instead.
		const message = ((error as Error).message?.split("\n")[0] ?? String(error)).replace(
			/ at line \d+, column \d+:?$/,
			"",
		);
		throw new FrontmatterError(`invalid YAML frontmatter: ${message}`, pos ? pos.line + 1 : undefined);
	}
	if (parsed === null || parsed === undefined) parsed = {};
	if (typeof parsed !== "object" || Array.isArray(parsed)) {
		throw new FrontmatterError("frontmatter must be a mapping of keys to values", 2);
	}
	return { data: parsed as Record<string, unknown>, body, present: true, yaml };
}

/** The file line of a top-level frontmatter key (the block starts on line 2); undefined when absent. */
export function frontmatterFieldLine(fm: FrontmatterResult, key: string): number | undefined {
	if (!fm.present) return undefined;
	const lines = fm.yaml.split(/\r?\n/);
	const index = lines.findIndex(
		(l) => l.startsWith(`${key}:`) || l.startsWith(`"${key}":`) || l.startsWith(`'${key}':`),
	);
	return index === -1 ? undefined : index + 2;
}
