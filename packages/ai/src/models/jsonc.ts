// A strict JSON parser that also accepts // and /* */ comments and trailing
// commas (JSONC, as models.json allows). Written out rather than stripping
// comments before JSON.parse because V8's parse errors do not reliably carry a
// position, and a config error must say where it is.

export interface JsoncError {
	/** What is wrong, e.g. `unexpected '}', expected a value`. */
	message: string;
	/** 0-based character offset into the text. */
	offset: number;
	/** 1-based line and column of `offset`. */
	line: number;
	column: number;
}

export type JsoncResult = { ok: true; value: unknown } | { ok: false; error: JsoncError };

const MAX_DEPTH = 512;

class ParseFailure {
	constructor(
		readonly message: string,
		readonly offset: number,
	) {}
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	for (let i = 0; i < offset && i < text.length; i++) {
		if (text.charCodeAt(i) === 10) {
			line++;
			lineStart = i + 1;
		}
	}
	return { line, column: offset - lineStart + 1 };
}

/** Parses JSON with comments and trailing commas. Never throws. */
export function parseJsonc(text: string): JsoncResult {
	// A leading byte-order mark is not content; skipping it keeps offsets meaningful for the rest.
	const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
	// Most files are plain JSON: the engine's parser gives the same value (last duplicate key wins,
	// "__proto__" an own property) at a fraction of the cost, cold, on every start-up. Comments,
	// trailing commas and errors (which need a position) go through the parser below.
	try {
		return { ok: true, value: JSON.parse(start ? text.slice(start) : text) };
	} catch {
		// not plain JSON
	}
	try {
		const parser = new Parser(text, start);
		return { ok: true, value: parser.document() };
	} catch (error) {
		if (!(error instanceof ParseFailure)) throw error;
		return { ok: false, error: { message: error.message, offset: error.offset, ...lineAndColumn(text, error.offset) } };
	}
}

function describe(text: string, i: number): string {
	if (i >= text.length) return "end of input";
	const ch = text[i];
	if (ch === "\n" || ch === "\r") return "line break";
	return `'${ch}'`;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Parser {
	constructor(
		private readonly text: string,
		private i: number,
	) {}

	document(): unknown {
		this.skip();
		if (this.i >= this.text.length) this.fail("empty input, expected a JSON value");
		const value = this.value(0);
		this.skip();
		if (this.i < this.text.length) this.fail(`unexpected ${describe(this.text, this.i)} after the JSON value`);
		return value;
	}

	private fail(message: string, at = this.i): never {
		throw new ParseFailure(message, at);
	}

	/** Skips whitespace and comments. */
	private skip(): void {
		const t = this.text;
		while (this.i < t.length) {
			const c = t.charCodeAt(this.i);
			if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
			else if (c === 47 && t.charCodeAt(this.i + 1) === 47) {
				const end = t.indexOf("\n", this.i);
				this.i = end < 0 ? t.length : end + 1;
			} else if (c === 47 && t.charCodeAt(this.i + 1) === 42) {
				const end = t.indexOf("*/", this.i + 2);
				if (end < 0) this.fail("unterminated /* comment");
				this.i = end + 2;
			} else return;
		}
	}

	private value(depth: number): unknown {
		if (depth > MAX_DEPTH) this.fail("nested too deeply");
		const t = this.text;
		const c = t[this.i];
		if (c === "{") return this.object(depth);
		if (c === "[") return this.array(depth);
		if (c === '"') return this.string();
		if (c === "-" || (c >= "0" && c <= "9")) return this.number();
		for (const [word, value] of [
			["true", true],
			["false", false],
			["null", null],
		] as const) {
			if (t.startsWith(word, this.i)) {
				this.i += word.length;
				return value;
			}
		}
		return this.fail(`unexpected ${describe(t, this.i)}, expected a value`);
	}

	private object(depth: number): Record<string, unknown> {
		const out: Record<string, unknown> = {};
		this.i++; // {
		this.skip();
		while (this.text[this.i] !== "}") {
			if (this.text[this.i] !== '"') {
				this.fail(`unexpected ${describe(this.text, this.i)}, expected a property name in double quotes or '}'`);
			}
			const key = this.string();
			this.skip();
			if (this.text[this.i] !== ":") this.fail(`unexpected ${describe(this.text, this.i)}, expected ':'`);
			this.i++;
			this.skip();
			const value = this.value(depth + 1);
			// "__proto__" must become an own property, as with JSON.parse, not change the prototype.
			if (key === "__proto__")
				Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
			else out[key] = value;
			this.skip();
			if (this.text[this.i] === ",") {
				this.i++;
				this.skip();
			} else if (this.text[this.i] !== "}") {
				this.fail(`unexpected ${describe(this.text, this.i)}, expected ',' or '}'`);
			}
		}
		this.i++; // }
		return out;
	}

	private array(depth: number): unknown[] {
		const out: unknown[] = [];
		this.i++; // [
		this.skip();
		while (this.text[this.i] !== "]") {
			if (this.i >= this.text.length) this.fail("unexpected end of input, expected a value or ']'");
			out.push(this.value(depth + 1));
			this.skip();
			if (this.text[this.i] === ",") {
				this.i++;
				this.skip();
			} else if (this.text[this.i] !== "]") {
				this.fail(`unexpected ${describe(this.text, this.i)}, expected ',' or ']'`);
			}
		}
		this.i++; // ]
		return out;
	}

	private string(): string {
		const t = this.text;
		const start = this.i;
		let j = start + 1;
		for (;;) {
			if (j >= t.length) this.fail("unterminated string", start);
			const c = t.charCodeAt(j);
			if (c === 34) break; // "
			if (c < 0x20) this.fail("line break or control character inside a string", j);
			if (c === 92) {
				// backslash
				const e = t[j + 1];
				if (e === "u") {
					if (!/^[0-9a-fA-F]{4}$/.test(t.slice(j + 2, j + 6))) this.fail("invalid \\u escape", j);
					j += 6;
				} else if (e !== undefined && '"\\/bfnrt'.includes(e)) j += 2;
				else this.fail(`invalid escape ${e === undefined ? "\\" : `\\${e}`}`, j);
			} else j++;
		}
		this.i = j + 1;
		// The slice is valid JSON string syntax now; let the engine decode the escapes.
		return JSON.parse(t.slice(start, j + 1)) as string;
	}

	private number(): number {
		NUMBER.lastIndex = this.i;
		const m = NUMBER.exec(this.text);
		if (!m) this.fail(`unexpected ${describe(this.text, this.i + 1)} in a number`, this.i + 1);
		this.i += m[0].length;
		return Number(m[0]);
	}
}
