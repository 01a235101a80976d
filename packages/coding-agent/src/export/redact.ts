// The secret pass at the export boundary: every string that leaves for the
// page goes through one Redactor built from the secret values the caller
// knows (keys, tokens, header values). Until a project-wide redaction module
// exists this is the only one exports use; it matches literal values, in
// their raw and JSON-escaped spellings, because entries are redacted after
// serialisation.

/** Shorter values are not treated as secrets: they would blank ordinary words. */
const MIN_SECRET_LENGTH = 6;
export const REDACTED = "[redacted]";

export type Redactor = (text: string) => string;

/** A function replacing every known secret in a string. Identity when there is none. */
export function createRedactor(secrets: Iterable<string | undefined>): Redactor {
	const forms = new Set<string>();
	for (const s of secrets) {
		if (typeof s !== "string" || s.trim().length < MIN_SECRET_LENGTH) continue;
		forms.add(s);
		forms.add(JSON.stringify(s).slice(1, -1));
	}
	// Longest first, so a secret containing another is replaced whole.
	const list = [...forms].sort((a, b) => b.length - a.length);
	if (list.length === 0) return (text) => text;
	return (text) => {
		let out = text;
		for (const f of list) if (out.includes(f)) out = out.split(f).join(REDACTED);
		return out;
	};
}
