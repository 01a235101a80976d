// Small HTTP helpers shared by the login flows. Error messages name the
// endpoint and status and quote the server's error code, never a token.
import { LoginCancelledError, LoginError } from "./interaction.js";

export interface JsonResponse {
	status: number;
	ok: boolean;
	body: unknown;
}

export async function requestJson(
	url: string,
	init: { method?: string; headers?: Record<string, string>; form?: Record<string, string>; json?: unknown },
	signal: AbortSignal | undefined,
	what: string,
): Promise<JsonResponse> {
	const headers: Record<string, string> = { accept: "application/json", ...init.headers };
	let body: string | undefined;
	if (init.form) {
		headers["content-type"] = "application/x-www-form-urlencoded";
		body = new URLSearchParams(init.form).toString();
	} else if (init.json !== undefined) {
		headers["content-type"] = "application/json";
		body = JSON.stringify(init.json);
	}
	let response: Response;
	try {
		response = await fetch(url, { method: init.method ?? (body ? "POST" : "GET"), headers, body, signal });
	} catch (error) {
		if (signal?.aborted) throw new LoginCancelledError();
		const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
		throw new LoginError(`${what}: could not reach ${new URL(url).host} (${cause})`);
	}
	const text = await response.text().catch(() => "");
	let parsed: unknown;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		parsed = undefined;
	}
	return { status: response.status, ok: response.ok, body: parsed };
}

export function asRecord(value: unknown): Record<string, unknown> {
	return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The OAuth error code of a failed response (`error` or `error.code`), for messages and decisions. */
export function oauthErrorCode(body: unknown): string | undefined {
	const error = asRecord(body).error;
	if (typeof error === "string") return error;
	const code = asRecord(error).code;
	return typeof code === "string" ? code : undefined;
}

/** "HTTP 400 invalid_grant" — status plus the server's error code, nothing else from the body. */
export function describeFailure(response: JsonResponse): string {
	const code = oauthErrorCode(response.body);
	return `HTTP ${response.status}${code ? ` ${code}` : ""}`;
}
