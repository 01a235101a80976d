// What a user pastes when the browser cannot reach pi's loopback callback
// (pi on another machine over SSH, a busy port): the final redirect URL, its
// query string, `code#state`, or the bare code. Used by the provider logins
// and, through the public extension API, by the MCP sign-in.

/**
 * The code (and state, when present) from a pasted redirect URL, `code#state`,
 * query string, or bare code; `iss` too when the redirect carried the
 * authorization server's issuer (RFC 9207).
 */
export function parsePastedAuthorization(input: string): { code?: string; state?: string; iss?: string } {
	const value = input.trim();
	if (!value) return {};
	try {
		return fromParams(new URL(value).searchParams);
	} catch {
		// not a URL
	}
	if (value.includes("code=")) {
		return fromParams(new URLSearchParams(value.replace(/^\?/, "")));
	}
	if (value.includes("#")) {
		const [code, state] = value.split("#", 2);
		return { code, state };
	}
	return { code: value };
}

function fromParams(params: URLSearchParams): { code?: string; state?: string; iss?: string } {
	const iss = params.get("iss");
	return {
		code: params.get("code") ?? undefined,
		state: params.get("state") ?? undefined,
		...(iss ? { iss } : {}),
	};
}
