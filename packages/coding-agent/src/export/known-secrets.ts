// The secret values an export must not contain, gathered from where pi gets
// credentials: provider keys and tokens in the environment, auth.json (keys,
// OAuth access and refresh tokens), models.json (provider apiKey, request
// header values) and keys given on the command line. Values written as an
// environment variable name are resolved through the environment; `!command`
// values are not run (a command's output is only known to the process that
// used it). Interim: replaced by the project-wide redaction module once it
// lands (issue 21).
import { readFileSync } from "node:fs";

export interface SecretSources {
	env?: NodeJS.ProcessEnv;
	authFile?: string;
	modelsFile?: string;
	/** Keys known at run time (--api-key, runtime overrides). */
	extra?: (string | undefined)[];
}

const SECRET_ENV_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

function readJson(file: string | undefined): unknown {
	if (!file) return undefined;
	try {
		return JSON.parse(readFileSync(file, "utf8"));
	} catch {
		return undefined;
	}
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function collectKnownSecrets(sources: SecretSources): string[] {
	const env = sources.env ?? process.env;
	const out = new Set<string>();
	const add = (v: unknown) => {
		if (typeof v !== "string" || v.trim() === "" || v.startsWith("!")) return;
		out.add(v);
		if (ENV_NAME.test(v) && env[v]) out.add(env[v] as string);
	};
	for (const [name, value] of Object.entries(env)) {
		if (value && value.length >= 8 && SECRET_ENV_NAME.test(name)) out.add(value);
	}
	const auth = readJson(sources.authFile);
	if (isObject(auth)) {
		for (const cred of Object.values(auth)) {
			if (!isObject(cred)) continue;
			if (cred.type === "api_key") add(cred.key);
			else if (cred.type === "oauth") {
				out.add(String(cred.access ?? ""));
				out.add(String(cred.refresh ?? ""));
			}
		}
	}
	const models = readJson(sources.modelsFile);
	const providers = isObject(models) && isObject(models.providers) ? models.providers : {};
	for (const p of Object.values(providers)) {
		if (!isObject(p)) continue;
		add(p.apiKey);
		if (isObject(p.headers)) for (const v of Object.values(p.headers)) add(v);
		if (Array.isArray(p.models)) {
			for (const m of p.models)
				if (isObject(m) && isObject(m.headers)) for (const v of Object.values(m.headers)) add(v);
		}
	}
	for (const v of sources.extra ?? []) add(v);
	out.delete("");
	return [...out];
}
