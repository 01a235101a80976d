// What a user pastes when the browser cannot reach pi's loopback callback
// (pi on another machine over SSH, a busy port): the final redirect URL, its
// query string, `code#state`, or the bare code. Used by the provider logins
// and, through the public extension API, by the MCP sign-in.

/** The code (and state, when present) from a pasted redirect URL, `code#state`, query string, or bare code. */
export function parsePastedAuthorization(input: string): { code?: string; state?: string } {
	const value = input.trim();
	if (!value) return {};
	try {
		const url = new URL(value);
		return { code: url.searchParams.get("code") ?? undefined, state: url.searchParams.get("state") ?? undefined };
	} catch {
		// not a URL
	}
	if (value.includes("code=")) {
		const params = new URLSearchParams(value.replace(/^\?/, ""));
		return { code: params.get("code") ?? undefined, state: params.get("state") ?? undefined };
	}
	if (value.includes("#")) {
		const [code, state] = value.split("#", 2);
		return { code, state };
	}
	return { code: value };
}
