// A small POSIX shell reader for permission rules: it splits a command line
// into the simple commands that would run (across `;`, `&&`, `||`, `|`, `&`,
// newlines, `( … )`, `{ … }`, `$( … )` and backticks) and gives each one's
// words with quotes removed, leading `VAR=value` assignments set aside, and
// redirections noted (a `>` to a file is a write). It does not expand
// variables or globs: a word holding `$` or a glob stays as written, and a
// rule matches what the user reads. Anything it cannot read (an unclosed
// quote) is reported, and the caller treats the command as unknown.

export interface SimpleCommand {
	/** The words after assignments and redirections, quotes removed. */
	argv: string[];
	/** Targets of output redirections (`>`, `>>`, `&>`, `>|`), except /dev/null and fd duplications. */
	writes: string[];
	/** True when a word was not plain text (contains `$`, backticks or globs) and so may expand to anything. */
	dynamic: boolean;
}

export interface ParsedCommand {
	commands: SimpleCommand[];
	/** Set when the line could not be read (the caller must not trust `commands`). */
	error?: string;
}

const OPERATORS = ["&&", "||", ";;", "|&", ";", "&", "|", "\n", "(", ")"];
const REDIRECT = /^(\d*|&)(>>|>\||>&|<&|<<<|<<-|<<|<>|>|<)$/;

type Token = { kind: "word"; text: string; raw: string; dynamic: boolean } | { kind: "op"; text: string };

function tokenize(line: string, nested: ParsedCommand[]): Token[] | string {
	const tokens: Token[] = [];
	let i = 0;
	while (i < line.length) {
		const c = line[i] ?? "";
		if (c === " " || c === "\t" || c === "\r") {
			i++;
			continue;
		}
		if (c === "\\" && line[i + 1] === "\n") {
			i += 2;
			continue;
		}
		if (c === "#") {
			while (i < line.length && line[i] !== "\n") i++;
			continue;
		}
		const op = OPERATORS.find((o) => line.startsWith(o, i));
		if (op) {
			tokens.push({ kind: "op", text: op });
			i += op.length;
			continue;
		}
		// A word: runs until unquoted whitespace or operator.
		let text = "";
		let raw = "";
		let dynamic = false;
		while (i < line.length) {
			const ch = line[i] ?? "";
			if (ch === " " || ch === "\t" || ch === "\r" || ch === "\n") break;
			if (OPERATORS.some((o) => o !== "\n" && line.startsWith(o, i))) {
				// `2>&1` and `>&2`: the & belongs to the redirection.
				if (ch === "&" && (raw.endsWith(">") || raw.endsWith("<"))) {
					text += ch;
					raw += ch;
					i++;
					continue;
				}
				break;
			}
			if (ch === "\\") {
				text += line[i + 1] ?? "";
				raw += line.slice(i, i + 2);
				i += 2;
				continue;
			}
			if (ch === "'") {
				const end = line.indexOf("'", i + 1);
				if (end < 0) return "unclosed single quote";
				text += line.slice(i + 1, end);
				raw += line.slice(i, end + 1);
				i = end + 1;
				continue;
			}
			if (ch === '"') {
				let j = i + 1;
				let inner = "";
				while (j < line.length && line[j] !== '"') {
					if (line[j] === "\\" && j + 1 < line.length) {
						inner += line[j + 1];
						j += 2;
						continue;
					}
					if (line[j] === "$" || line[j] === "`") dynamic = true;
					if (line.startsWith("$(", j)) {
						const end = matchingParen(line, j + 1);
						if (end < 0) return "unclosed $(";
						nested.push(parseShellCommand(line.slice(j + 2, end)));
						inner += line.slice(j, end + 1);
						j = end + 1;
						continue;
					}
					inner += line[j];
					j++;
				}
				if (j >= line.length) return "unclosed double quote";
				text += inner;
				raw += line.slice(i, j + 1);
				i = j + 1;
				continue;
			}
			if (line.startsWith("$(", i)) {
				const end = matchingParen(line, i + 1);
				if (end < 0) return "unclosed $(";
				nested.push(parseShellCommand(line.slice(i + 2, end)));
				text += line.slice(i, end + 1);
				raw += line.slice(i, end + 1);
				dynamic = true;
				i = end + 1;
				continue;
			}
			if (ch === "`") {
				const end = line.indexOf("`", i + 1);
				if (end < 0) return "unclosed backtick";
				nested.push(parseShellCommand(line.slice(i + 1, end)));
				text += line.slice(i, end + 1);
				raw += line.slice(i, end + 1);
				dynamic = true;
				i = end + 1;
				continue;
			}
			if (ch === "$" || ch === "*" || ch === "?" || ch === "[" || ch === "~") dynamic = true;
			text += ch;
			raw += ch;
			i++;
		}
		tokens.push({ kind: "word", text, raw, dynamic });
	}
	return tokens;
}

/** Index of the `)` closing the `(` at `open`, honouring quotes and nesting; -1 if none. */
function matchingParen(line: string, open: number): number {
	let depth = 0;
	for (let i = open; i < line.length; i++) {
		const c = line[i];
		if (c === "\\") {
			i++;
			continue;
		}
		if (c === "'") {
			const end = line.indexOf("'", i + 1);
			if (end < 0) return -1;
			i = end;
			continue;
		}
		if (c === "(") depth++;
		else if (c === ")") {
			depth--;
			if (depth === 0) return i;
		}
	}
	return -1;
}

export function parseShellCommand(line: string): ParsedCommand {
	const nested: ParsedCommand[] = [];
	const tokens = tokenize(line, nested);
	if (typeof tokens === "string") return { commands: [], error: tokens };
	const commands: SimpleCommand[] = [];
	let current: SimpleCommand = { argv: [], writes: [], dynamic: false };
	const flush = () => {
		if (current.argv.length > 0 || current.writes.length > 0) commands.push(current);
		current = { argv: [], writes: [], dynamic: false };
	};
	for (let k = 0; k < tokens.length; k++) {
		const t = tokens[k];
		if (!t) continue;
		if (t.kind === "op") {
			flush();
			continue;
		}
		const redirect = REDIRECT.exec(t.raw) ?? REDIRECT.exec(t.raw.replace(/^(\d*|&)(>>|>\||>&|<&|>|<).+$/, "$1$2"));
		if (redirect) {
			const op = redirect[2] ?? "";
			// The target is the rest of this word, or the next word.
			let target = t.raw.slice(redirect[0].length === t.raw.length ? t.raw.length : (redirect[0].length as number));
			if (REDIRECT.test(t.raw)) {
				const next = tokens[k + 1];
				if (next?.kind === "word") {
					target = next.text;
					k++;
				}
			} else target = t.text.slice((redirect[1] ?? "").length + op.length);
			const isWrite = op.startsWith(">") || op === "<>";
			const fdDup = op === ">&" || op === "<&";
			if (isWrite && !fdDup && target !== "/dev/null") current.writes.push(target);
			if (fdDup && !/^\d+$|^-$/.test(target) && target !== "/dev/null") current.writes.push(target);
			continue;
		}
		if (current.argv.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t.raw)) continue;
		if (current.argv.length === 0 && (t.text === "{" || t.text === "}" || t.text === "!")) continue;
		current.argv.push(t.text);
		if (t.dynamic) current.dynamic = true;
	}
	flush();
	for (const n of nested) {
		if (n.error) return { commands: [], error: n.error };
		commands.push(...n.commands);
	}
	return { commands };
}
