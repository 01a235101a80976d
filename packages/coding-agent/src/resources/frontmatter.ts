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
		parsed = yaml.trim() === "" ? {} : parseYaml(yaml);
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
