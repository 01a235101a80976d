// Prompt-template expansion: `/name args` becomes the template's text with
// the arguments substituted. Pure (no I/O): the loader reads the files, the
// input pipeline calls `expandPromptTemplate` at its template stage.
//
// Argument splitting is shell-like, as the prompt-templates docs describe:
// whitespace separates arguments; a quote (' or ") opens a quoted run only at
// the start of an argument and only when a matching close exists, so
// apostrophes inside words stay text and an unmatched quote is kept as typed;
// inside a quoted run a backslash before the same quote keeps that quote as
// text; every other backslash is kept as typed. Text right after a closing
// quote continues the same argument (`"a b"c` is `a bc`).

/** What expansion needs to know about a template. */
export interface PromptTemplateLike {
	name: string;
	content: string;
}

function isSpace(ch: string): boolean {
	return ch === " " || ch === "\t" || ch === "\n" || ch === "\r";
}

/** Index of the quote that closes a run opened at `open`, or -1 when there is none. */
function findClosingQuote(text: string, open: number): number {
	const quote = text[open];
	for (let i = open + 1; i < text.length; i++) {
		if (text[i] === "\\" && text[i + 1] === quote) {
			i++;
			continue;
		}
		if (text[i] === quote) return i;
	}
	return -1;
}

/** Splits an argument string into arguments with the documented quoting rules. */
export function parseCommandArgs(input: string): string[] {
	const args: string[] = [];
	let i = 0;
	while (i < input.length) {
		while (i < input.length && isSpace(input[i])) i++;
		if (i >= input.length) break;
		let arg = "";
		let atStart = true;
		while (i < input.length && !isSpace(input[i])) {
			const ch = input[i];
			if (atStart && (ch === '"' || ch === "'")) {
				const close = findClosingQuote(input, i);
				if (close !== -1) {
					for (let j = i + 1; j < close; j++) {
						if (input[j] === "\\" && input[j + 1] === ch) j++;
						arg += input[j];
					}
					i = close + 1;
					atStart = false;
					continue;
				}
			}
			arg += ch;
			atStart = false;
			i++;
		}
		args.push(arg);
	}
	return args;
}

function isDigit(ch: string | undefined): boolean {
	return ch !== undefined && ch >= "0" && ch <= "9";
}

/** Reads a run of digits at `at`; undefined when there is none. */
function readNumber(text: string, at: number): { value: number; end: number } | undefined {
	let end = at;
	while (isDigit(text[end])) end++;
	return end === at ? undefined : { value: Number.parseInt(text.slice(at, end), 10), end };
}

type Braced =
	| { kind: "default"; target: "all" | number; fallback: string }
	| { kind: "slice"; start: number; length?: number };

/** Parses the inside of `${…}`; undefined when it is not one of the documented forms (left as typed). */
function parseBraced(inner: string): Braced | undefined {
	const dash = inner.indexOf(":-");
	if (dash > 0) {
		const target = inner.slice(0, dash);
		const fallback = inner.slice(dash + 2);
		if (target === "@" || target === "ARGUMENTS") return { kind: "default", target: "all", fallback };
		if (/^\d+$/.test(target)) return { kind: "default", target: Number.parseInt(target, 10), fallback };
		return undefined;
	}
	const slice = /^@:(\d+)(?::(\d+))?$/.exec(inner);
	if (slice) {
		return {
			kind: "slice",
			start: Number.parseInt(slice[1], 10),
			length: slice[2] === undefined ? undefined : Number.parseInt(slice[2], 10),
		};
	}
	return undefined;
}

/**
 * Substitutes `$1…`, `$@`, `$ARGUMENTS`, `${N:-default}`, `${@:-default}`
 * (also `${ARGUMENTS:-default}`), `${@:N}` and `${@:N:L}` in one left-to-right
 * pass over the template: substituted values are never scanned again, so an
 * argument containing `$1` stays `$1`. Missing positions become empty; a
 * default applies when the value is missing or empty; slice positions count
 * from 1 (0 is treated as 1).
 */
export function substituteArgs(content: string, args: readonly string[]): string {
	const all = args.join(" ");
	let out = "";
	let i = 0;
	while (i < content.length) {
		const ch = content[i];
		if (ch !== "$") {
			out += ch;
			i++;
			continue;
		}
		const next = content[i + 1];
		if (next === "{") {
			const close = content.indexOf("}", i + 2);
			const braced = close === -1 ? undefined : parseBraced(content.slice(i + 2, close));
			if (braced && close !== -1) {
				if (braced.kind === "default") {
					const value = braced.target === "all" ? all : args[braced.target - 1];
					out += value ? value : braced.fallback;
				} else {
					const from = Math.max(0, braced.start - 1);
					const to = braced.length === undefined ? undefined : from + braced.length;
					out += args.slice(from, to).join(" ");
				}
				i = close + 1;
				continue;
			}
		} else if (next === "@") {
			out += all;
			i += 2;
			continue;
		} else if (content.startsWith("ARGUMENTS", i + 1)) {
			out += all;
			i += 1 + "ARGUMENTS".length;
			continue;
		} else {
			const n = readNumber(content, i + 1);
			if (n) {
				out += args[n.value - 1] ?? "";
				i = n.end;
				continue;
			}
		}
		out += ch;
		i++;
	}
	return out;
}

/** Splits `/name rest` into the command name and its argument text; undefined when `text` is no command. */
export function splitSlashCommand(text: string): { name: string; args: string } | undefined {
	if (!text.startsWith("/")) return undefined;
	let end = 1;
	while (end < text.length && !isSpace(text[end])) end++;
	if (end === 1) return undefined;
	let rest = end;
	while (rest < text.length && isSpace(text[rest])) rest++;
	return { name: text.slice(1, end), args: text.slice(rest) };
}

/**
 * `/name args` → the named template with the arguments substituted. Text that
 * is not a command, or names no template, comes back unchanged.
 */
export function expandPromptTemplate(text: string, templates: readonly PromptTemplateLike[]): string {
	const command = splitSlashCommand(text);
	if (!command) return text;
	const template = templates.find((t) => t.name === command.name);
	if (!template) return text;
	return substituteArgs(template.content, parseCommandArgs(command.args));
}
