/**
 * The headers of a Chat Completions request, as the official `openai` SDK
 * assembles them: its user agent and platform headers, the key as a bearer
 * token, `OpenAI-Organization` / `OpenAI-Project` from the environment (the
 * SDK's defaults), then the model's and the caller's headers, then the body's
 * content type. Later sources win, names compare case-insensitively, and a
 * null value removes a header. The adapter sends the request itself (see
 * openai-completions.ts); a test holds these headers to the SDK's own.
 */
import { VERSION } from "openai/version";

type HeaderValues = Record<string, string | null | undefined> | undefined;

const ARCH: Record<string, string> = {
	x32: "x32",
	x64: "x64",
	x86_64: "x64",
	arm: "arm",
	arm64: "arm64",
	aarch64: "arm64",
};
const PLATFORM: Record<string, string> = {
	android: "Android",
	darwin: "MacOS",
	win32: "Windows",
	freebsd: "FreeBSD",
	openbsd: "OpenBSD",
	linux: "Linux",
};

function platformHeaders(): Record<string, string> {
	const platform = process.platform.toLowerCase();
	return {
		"X-Stainless-Lang": "js",
		"X-Stainless-Package-Version": VERSION,
		"X-Stainless-OS": platform.includes("ios") ? "iOS" : (PLATFORM[platform] ?? `Other:${platform}`),
		"X-Stainless-Arch": ARCH[process.arch] ?? `other:${process.arch}`,
		"X-Stainless-Runtime": "node",
		"X-Stainless-Runtime-Version": process.version,
	};
}

function envValue(name: string): string | undefined {
	return process.env[name]?.trim();
}

/** The request's headers, names lowercase. */
export function chatCompletionsHeaders(apiKey: string, ...extra: HeaderValues[]): Record<string, string> {
	const out: Record<string, string> = {};
	const merge = (values: HeaderValues) => {
		for (const [key, value] of Object.entries(values ?? {})) {
			const name = key.toLowerCase();
			if (value === null) delete out[name];
			else if (value !== undefined) out[name] = value;
		}
	};
	merge({
		Accept: "application/json",
		"User-Agent": `OpenAI/JS ${VERSION}`,
		"X-Stainless-Retry-Count": "0",
		...platformHeaders(),
		"OpenAI-Organization": envValue("OPENAI_ORG_ID"),
		"OpenAI-Project": envValue("OPENAI_PROJECT_ID"),
	});
	merge({ Authorization: `Bearer ${apiKey}` });
	for (const values of extra) merge(values);
	merge({ "Content-Type": "application/json" });
	return out;
}
