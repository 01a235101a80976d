// Reading and writing the small JSON config files (settings.json, auth.json).
// Parse errors name file, line and column; writes go to a temp file in the same
// directory and are renamed over the target, so a crash leaves old or new.
import { randomBytes } from "node:crypto";
import {
	chmodSync,
	closeSync,
	constants,
	fstatSync,
	fsyncSync,
	openSync,
	readSync,
	renameSync,
	rmSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

export class JsonFileError extends Error {
	constructor(
		readonly file: string,
		readonly line: number,
		readonly column: number,
		readonly reason: string,
	) {
		super(`${file}:${line}:${column}: ${reason}`);
		this.name = "JsonFileError";
	}
}

export type JsonReadResult =
	| { kind: "missing" }
	| { kind: "ok"; value: unknown; text: string }
	| { kind: "malformed"; error: JsonFileError }
	/** The path exists but cannot be a config file (a directory, a device, too big, unreadable); `reason` says why. */
	| { kind: "unusable"; file: string; reason: string };

/** Config files are small; anything past this is refused before it is read, so a huge file cannot exhaust memory. */
export const MAX_CONFIG_FILE_BYTES = 16 * 1024 * 1024;
/** Deeper nesting than any real config: refused before parsing, so neither the parser nor later merges overflow the stack. */
export const MAX_CONFIG_DEPTH = 128;

export type ConfigTextResult =
	| { kind: "missing" }
	| { kind: "ok"; text: string }
	| { kind: "unusable"; file: string; reason: string };

function sizeText(bytes: number): string {
	if (bytes >= 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
	if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
	return `${bytes} bytes`;
}

const ERRNO_TEXT: Record<string, string> = {
	EACCES: "permission denied",
	EPERM: "operation not permitted",
	EISDIR: "it is a directory, not a file",
	ELOOP: "too many symbolic links",
	ENOTDIR: "a parent of it is not a directory",
	EIO: "input/output error",
};

/**
 * Reads a config file as UTF-8 text, bounded: a missing file is a result, and
 * so is anything that cannot be a config file (a directory, a FIFO or device,
 * a file over `maxBytes`, an unreadable file). Never throws for I/O.
 */
export function readConfigText(file: string, maxBytes = MAX_CONFIG_FILE_BYTES): ConfigTextResult {
	let fd: number;
	try {
		// O_NONBLOCK: opening a FIFO with no writer must not hang start-up.
		fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? "";
		if (code === "ENOENT") return { kind: "missing" };
		return { kind: "unusable", file, reason: `could not be read: ${ERRNO_TEXT[code] ?? (code || String(error))}` };
	}
	try {
		const st = fstatSync(fd);
		if (st.isDirectory()) return { kind: "unusable", file, reason: "is a directory, not a file" };
		if (!st.isFile()) return { kind: "unusable", file, reason: "is not a regular file (a device, FIFO or socket)" };
		if (st.size > maxBytes) {
			return {
				kind: "unusable",
				file,
				reason: `is ${sizeText(st.size)}, more than the ${sizeText(maxBytes)} a config file may be`,
			};
		}
		const buf = Buffer.alloc(st.size);
		let filled = 0;
		while (filled < buf.length) {
			const n = readSync(fd, buf, filled, buf.length - filled, filled);
			if (n === 0) break;
			filled += n;
		}
		return { kind: "ok", text: buf.subarray(0, filled).toString("utf8") };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? "";
		return { kind: "unusable", file, reason: `could not be read: ${ERRNO_TEXT[code] ?? (code || String(error))}` };
	} finally {
		closeSync(fd);
	}
}

/** Reads and parses a JSON file; a missing, unusable or malformed file is a result, never a throw. */
export function readJsonFile(file: string): JsonReadResult {
	const read = readConfigText(file);
	if (read.kind !== "ok") return read;
	const parsed = parseJsonWithPosition(read.text, file);
	return parsed instanceof JsonFileError
		? { kind: "malformed", error: parsed }
		: { kind: "ok", value: parsed, text: read.text };
}

/** Offset where nesting first exceeds `max` ([ and { outside strings), or -1. Linear, no recursion. */
export function findExcessiveNesting(text: string, max = MAX_CONFIG_DEPTH): number {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 0x5c) i++;
			else if (c === 0x22) inString = false;
		} else if (c === 0x22) inString = true;
		else if (c === 0x5b || c === 0x7b) {
			if (++depth > max) return i;
		} else if (c === 0x5d || c === 0x7d) depth--;
	}
	return -1;
}

/** JSON.parse, but a failure comes back as a JsonFileError with 1-based line and column. */
export function parseJsonWithPosition(text: string, file: string): unknown | JsonFileError {
	const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	if (body.trim() === "") return new JsonFileError(file, 1, 1, "empty file, expected a JSON value");
	const deep = findExcessiveNesting(body);
	if (deep >= 0) {
		const { line, column } = lineColumn(body, deep);
		return new JsonFileError(file, line, column, `nested more than ${MAX_CONFIG_DEPTH} levels deep`);
	}
	try {
		return JSON.parse(body);
	} catch {
		// V8's messages do not always carry a position, so find it ourselves.
		const { offset, reason } = findJsonError(body);
		const { line, column } = lineColumn(body, offset);
		return new JsonFileError(file, line, column, reason);
	}
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
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

/** Locates the first syntax error of invalid JSON with a small recursive-descent scan. */
export function findJsonError(text: string): { offset: number; reason: string } {
	let i = 0;
	class Stop {
		constructor(
			readonly offset: number,
			readonly reason: string,
		) {}
	}
	const fail = (reason: string): never => {
		throw new Stop(i, i >= text.length ? "unexpected end of input" : reason);
	};
	const ws = () => {
		while (i < text.length && " \t\n\r".includes(text[i])) i++;
	};
	const literal = (word: string) => {
		for (const ch of word) {
			if (text[i] !== ch) fail(`unexpected character '${text[i]}'`);
			i++;
		}
	};
	const string = () => {
		i++;
		while (i < text.length) {
			const ch = text[i];
			if (ch === '"') {
				i++;
				return;
			}
			if (ch === "\\") {
				i++;
				if (text[i] === "u") {
					i++;
					for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail("bad unicode escape");
				} else if ('"\\/bfnrt'.includes(text[i] ?? "")) i++;
				else fail("bad escape sequence");
				continue;
			}
			if (ch.charCodeAt(0) < 0x20) fail("control character in string");
			i++;
		}
		fail("unterminated string");
	};
	const number = () => {
		const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
		if (!m || m[0] === "" || m[0] === "-") fail(`unexpected character '${text[i]}'`);
		i += m![0].length;
	};
	const value = (): void => {
		ws();
		const ch = text[i];
		if (ch === "{") {
			i++;
			ws();
			if (text[i] === "}") {
				i++;
				return;
			}
			for (;;) {
				ws();
				if (text[i] !== '"') fail(text[i] === "}" ? "trailing comma" : "expected a property name in double quotes");
				string();
				ws();
				if (text[i] !== ":") fail("expected ':' after property name");
				i++;
				value();
				ws();
				if (text[i] === ",") {
					i++;
					continue;
				}
				if (text[i] === "}") {
					i++;
					return;
				}
				fail("expected ',' or '}'");
			}
		}
		if (ch === "[") {
			i++;
			ws();
			if (text[i] === "]") {
				i++;
				return;
			}
			for (;;) {
				ws();
				if (text[i] === "]") fail("trailing comma");
				value();
				ws();
				if (text[i] === ",") {
					i++;
					continue;
				}
				if (text[i] === "]") {
					i++;
					return;
				}
				fail("expected ',' or ']'");
			}
		}
		if (ch === '"') string();
		else if (ch === "t") literal("true");
		else if (ch === "f") literal("false");
		else if (ch === "n") literal("null");
		else if (ch === "-" || (ch >= "0" && ch <= "9")) number();
		else fail(`unexpected character '${ch}'`);
	};
	try {
		value();
		ws();
		if (i < text.length) fail(`unexpected content after the JSON value`);
		return { offset: 0, reason: "invalid JSON" };
	} catch (stop) {
		if (stop instanceof Stop) return { offset: stop.offset, reason: stop.reason };
		throw stop;
	}
}

/**
 * Writes `text` to `file` via a temp file in the same directory + rename.
 * `mode` is applied explicitly (not left to the umask).
 */
export function writeFileAtomic(file: string, text: string, mode = 0o644): void {
	const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
	const fd = openSync(tmp, "w", mode);
	try {
		writeSync(fd, text);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	try {
		chmodSync(tmp, mode);
		renameSync(tmp, file);
	} catch (error) {
		rmSync(tmp, { force: true });
		throw error;
	}
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
