/**
 * Path resolution shared by the tools: a leading "@" (how users mention files)
 * is dropped, "~" expands to the home directory, relative paths resolve
 * against the tool's cwd, and look-alike Unicode spellings of an existing
 * file (as macOS writes screenshot names) are found.
 */
import { accessSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";

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
