// One redaction function for every path that writes text out (error events,
// session entries, stderr, exports). It knows every secret value configured
// in this process, wherever it came from: API keys (env, auth.json, --api-key,
// `!command`), resolved header values (models.json, literal or env), and the
// password of a baseUrl with `user:pass@`. `stream()` registers the secrets of
// each request before anything is sent, so a failure on any path (an
// in-stream error event, an SDK exception quoting a header) is redacted by the
// stream writer; upper layers register what they resolve themselves and call
// `redact` on their own output.

/** Values shorter than this are not treated as secrets (they would redact ordinary words). */
const MIN_SECRET_LENGTH = 6;
const REPLACEMENT = "[redacted]";

const known = new Set<string>();
/** Longest first, so a secret containing another is replaced whole. */
let ordered: string[] = [];

/** Remembers a secret value for `redact` (process-wide). Short or empty values are ignored. */
export function registerSecret(value: string | undefined | null): void {
	if (typeof value !== "string") return;
	const variants = new Set([value, value.trim()]);
	try {
		variants.add(encodeURIComponent(value));
	} catch {
		// a lone surrogate: the raw value is enough
	}
	// JSON-escaped form, as it appears inside a serialized event or session line.
	variants.add(JSON.stringify(value).slice(1, -1));
	let changed = false;
	for (const v of variants) {
		if (v.length < MIN_SECRET_LENGTH || known.has(v)) continue;
		known.add(v);
		changed = true;
	}
	if (changed) ordered = [...known].sort((a, b) => b.length - a.length);
}

/** The credentials inside a URL (`https://user:pass@host`): the password and `user:pass`. */
export function registerUrlCredentials(url: string | undefined): void {
	// Credentials in a URL come before an "@": most base URLs have none and need no parse.
	if (!url?.includes("@")) return;
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return;
	}
	if (!parsed.password && !parsed.username) return;
	for (const part of [parsed.password, parsed.username]) {
		if (!part) continue;
		registerSecret(part);
		try {
			registerSecret(decodeURIComponent(part));
		} catch {
			// not valid percent-encoding: the raw form is registered
		}
	}
	if (parsed.username && parsed.password) registerSecret(`${parsed.username}:${parsed.password}`);
}

/** Every header value of a request (models.json headers can carry tokens under any name). */
export function registerHeaderSecrets(headers: Record<string, string | undefined> | undefined): void {
	if (!headers) return;
	for (const value of Object.values(headers)) {
		registerSecret(value);
		// "Bearer <token>" / "Basic <b64>": the token alone can be echoed too.
		const token = value?.match(/^\s*\S+\s+(\S{6,})\s*$/)?.[1];
		if (token) registerSecret(token);
	}
}

/** Forgets every registered secret (tests). */
export function clearSecrets(): void {
	known.clear();
	ordered = [];
}

/**
 * Replaces every registered secret (and `extra` ones) in `text`, then masks
 * key-shaped strings (`sk-…`, `Bearer …`, `?key=…`) it was not told about.
 */
export function redact(text: string, extra: readonly (string | undefined)[] = []): string {
	let out = text;
	for (const secret of extra) {
		if (secret && secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(REPLACEMENT);
	}
	for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(REPLACEMENT);
	return out
		.replace(/\b(sk-(?:ant-)?[A-Za-z0-9_-]{6})[A-Za-z0-9_-]{8,}/g, "$1…[redacted]")
		.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, "$1[redacted]")
		.replace(/([?&](?:key|api_key|apikey)=)[^&\s"'\\]+/gi, "$1[redacted]")
		.replace(/(\/\/[^/@\s:"'\\]+:)[^/@\s"'\\]+@/g, "$1[redacted]@");
}

/** True when `text` holds a registered secret (cheap check before copying large values). */
export function containsSecret(text: string): boolean {
	for (const secret of ordered) if (text.includes(secret)) return true;
	return false;
}
