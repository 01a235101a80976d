// Registers with pi-ai's one redaction pass (`redact` in @pi/ai) every secret
// configured for this process, before anything is written that could hold
// one, on paths that make no request (a request registers its own key and
// headers): `pi --export`, /export, RPC export_html. Sources are where pi
// gets credentials: provider keys and tokens in the environment, auth.json
// (keys, OAuth access and refresh tokens), models.json (provider apiKey,
// header values, credentials in a baseUrl) and keys given on the command
// line. A value naming an environment variable is resolved through the
// environment; `!command` values are not run (only the process that used the
// command knows its output, and that process registered it).
import { parseJsonc, registerHeaderSecrets, registerSecret, registerUrlCredentials } from "@pi/ai";
import { readConfigText } from "./json-file.js";

export interface ConfiguredSecretSources {
	env?: NodeJS.ProcessEnv;
	authFile?: string;
	modelsFile?: string;
	/** Keys known at run time (--api-key, runtime overrides). */
	extra?: readonly (string | undefined)[];
}

const SECRET_ENV_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readConfig(file: string | undefined): unknown {
	if (!file) return undefined;
	const read = readConfigText(file);
	if (read.kind !== "ok") return undefined;
	const parsed = parseJsonc(read.text);
	return parsed.ok ? parsed.value : undefined;
}

/** Registers every configured secret; returns how many distinct values were found (diagnostics, tests). */
export function registerConfiguredSecrets(sources: ConfiguredSecretSources): number {
	const env = sources.env ?? process.env;
	const found = new Set<string>();
	const value = (v: unknown) => {
		if (typeof v !== "string" || v.trim() === "" || v.startsWith("!")) return;
		found.add(v);
		registerSecret(v);
		const resolved = ENV_NAME.test(v) ? env[v] : undefined;
		if (resolved) {
			found.add(resolved);
			registerSecret(resolved);
		}
	};
	const headers = (h: unknown) => {
		if (!isObject(h)) return;
		const resolved: Record<string, string> = {};
		for (const [name, v] of Object.entries(h)) {
			if (typeof v !== "string") continue;
			value(v);
			resolved[name] = ENV_NAME.test(v) && env[v] ? (env[v] as string) : v;
		}
		// "Bearer <token>" values: the token alone is registered too.
		registerHeaderSecrets(resolved);
	};
	for (const [name, v] of Object.entries(env)) {
		if (v && v.length >= 8 && SECRET_ENV_NAME.test(name)) value(v);
	}
	const auth = readConfig(sources.authFile);
	if (isObject(auth)) {
		for (const cred of Object.values(auth)) {
			if (!isObject(cred)) continue;
			if (cred.type === "api_key") value(cred.key);
			else if (cred.type === "oauth") {
				value(cred.access);
				value(cred.refresh);
			}
		}
	}
	const models = readConfig(sources.modelsFile);
	const providers = isObject(models) && isObject(models.providers) ? models.providers : {};
	for (const p of Object.values(providers)) {
		if (!isObject(p)) continue;
		value(p.apiKey);
		headers(p.headers);
		if (typeof p.baseUrl === "string") registerUrlCredentials(p.baseUrl);
		if (!Array.isArray(p.models)) continue;
		for (const m of p.models) {
			if (!isObject(m)) continue;
			headers(m.headers);
			if (typeof m.baseUrl === "string") registerUrlCredentials(m.baseUrl);
		}
	}
	for (const v of sources.extra ?? []) value(v);
	return found.size;
}
