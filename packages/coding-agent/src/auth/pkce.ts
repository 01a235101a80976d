// PKCE (RFC 7636, S256) and the `state` value of an authorization-code login.
import { createHash, randomBytes } from "node:crypto";

export interface Pkce {
	/** Sent only with the token exchange. */
	verifier: string;
	/** base64url(SHA-256(verifier)), sent with the authorization request. */
	challenge: string;
}

export function createPkce(): Pkce {
	const verifier = randomBytes(32).toString("base64url");
	return { verifier, challenge: pkceChallenge(verifier) };
}

export function pkceChallenge(verifier: string): string {
	return createHash("sha256").update(verifier).digest("base64url");
}

/** An unguessable value the callback must echo back (CSRF protection). */
export function createState(): string {
	return randomBytes(16).toString("hex");
}
