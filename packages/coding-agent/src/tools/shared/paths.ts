/**
 * Path resolution shared by the tools: a leading "@" (how users mention files)
 * is dropped, "~" expands to the home directory, relative paths resolve
 * against the tool's cwd, and look-alike Unicode spellings of an existing
 * file (as macOS writes screenshot names) are found.
 */
import { accessSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const NARROW_NBSP = "\u202F";

export function expandPath(input: string): string {
	let p = input.startsWith("@") ? input.slice(1) : input;
	p = p.replace(UNICODE_SPACES, " ");
	if (p === "~") return homedir();
	if (p.startsWith("~/")) return homedir() + p.slice(1);
	return p;
}

export function resolveToCwd(input: string, cwd: string): string {
	const p = expandPath(input);
	return isAbsolute(p) ? p : resolve(cwd, p);
}

function exists(p: string): boolean {
	try {
		accessSync(p);
		return true;
	} catch {
		return false;
	}
}

/** Spellings to try, in order, when the path as written does not exist. */
export function lookAlikeVariants(p: string): string[] {
	const amPm = p.replace(/ (AM|PM)\./gi, `${NARROW_NBSP}$1.`);
	const nfd = p.normalize("NFD");
	const curly = p.replace(/'/g, "\u2019");
	const nfdCurly = nfd.replace(/'/g, "\u2019");
	const nfc = p.normalize("NFC");
	return [amPm, nfd, curly, nfdCurly, nfc].filter((v, i, all) => v !== p && all.indexOf(v) === i);
}

/** Like resolveToCwd, but finds an existing look-alike file when the exact name is missing. */
export function resolveExistingPath(input: string, cwd: string): string {
	const resolved = resolveToCwd(input, cwd);
	if (exists(resolved)) return resolved;
	for (const variant of lookAlikeVariants(resolved)) {
		if (exists(variant)) return variant;
	}
	return resolved;
}

const REPLACEMENT = "\uFFFD";

/**
 * File names that are not valid UTF-8 reach the model decoded lossily (each
 * bad byte run becomes U+FFFD), and a path spelled that way names no file.
 * This maps such an absolute path back to the bytes on disk: each component
 * holding U+FFFD is looked up among its directory's raw names. Undefined when
 * the path exists as written, holds no U+FFFD, or some component matches no
 * name; throws when two names decode alike (guessing could touch the wrong file).
 */
export function rawPathFor(p: string): Buffer | undefined {
	if (!p.includes(REPLACEMENT) || !isAbsolute(p) || exists(p)) return undefined;
	let current: Buffer = Buffer.alloc(0);
	for (const part of p.split("/")) {
		if (part === "") continue;
		let bytes: Buffer = Buffer.from(part, "utf8");
		if (part.includes(REPLACEMENT)) {
			let names: Buffer[];
			try {
				names = readdirSync(current.length > 0 ? current : "/", { encoding: "buffer" });
			} catch {
				return undefined;
			}
			const hits = names.filter((n) => n.toString("utf8") === part);
			if (hits.length === 0) return undefined;
			if (hits.length > 1) {
				throw new Error(
					`${hits.length} files in ${current.toString("utf8") || "/"} are shown as "${part}" (their names are not valid UTF-8 and differ only in those bytes); use bash to tell them apart.`,
				);
			}
			bytes = hits[0];
		}
		current = Buffer.concat([current, Buffer.from("/"), bytes]);
	}
	return current;
}

/** The path to hand to fs calls: the raw bytes for a lossily decoded name (see rawPathFor), else the path itself. */
export function onDisk(p: string): string | Buffer {
	return rawPathFor(p) ?? p;
}

/** `join` for a directory that may be raw bytes (a name that is not valid UTF-8 somewhere in it). */
export function joinOnDisk(dir: string | Buffer, name: string | Buffer): string | Buffer {
	if (typeof dir === "string" && typeof name === "string") return join(dir, name);
	const d = typeof dir === "string" ? Buffer.from(dir) : dir;
	const sep = d.length > 0 && d[d.length - 1] === 0x2f ? Buffer.alloc(0) : Buffer.from("/");
	return Buffer.concat([d, sep, typeof name === "string" ? Buffer.from(name) : name]);
}
