// `pi auth login|logout|check|print-api-key|print-bearer-token`: credentials
// without starting a session. Flags and outputs follow pi 1.6.0: `check`
// prints ready / not_ready / invalid (exit 0 / 1 / 2), `--json` prints
// {status, provider, authType | reason[, credentials]}. Secrets go to stdout
// only from the commands whose job is to print them.
import { loginWithApiKey, saveApiKey } from "../../auth/api-key.js";
import { findLoginFlow, loadLoginFlows, withLoginFlows } from "../../auth/flows.js";
import { LoginCancelledError } from "../../auth/interaction.js";
import { AuthStorage } from "../../config/auth.js";
import { ModelRegistry } from "../../config/model-registry.js";
import { findExactModel } from "../../config/model-resolver.js";
import { agentPaths, getAgentDir } from "../../config/paths.js";
import { CATALOG_REFRESH_TIMEOUT_MS } from "../../modes/interactive/model-catalog-refresh.js";
import type { CommandIo } from "./io.js";
import { terminalLogin } from "./terminal-login.js";

const USAGE = `Usage:
  pi auth login <provider> [--api-key] [--no-browser] [-e <extension>]
  pi auth logout <provider>
  pi auth print-api-key [--provider <provider>] [--model <model>]
  pi auth print-bearer-token [--provider <provider>] [--model <model>] [--min-expiry <duration>]
  pi auth check [--provider <provider>] [--model <model>] [--json] [--credentials] [--no-refresh]

Log in to and out of model providers, print their credentials for other tools,
or check that they are ready. Credentials are stored in <agent dir>/auth.json (mode 0600).

Commands:
  login <provider>        Sign in with an account (browser or device code), or save an API key
  logout <provider>       Remove the stored credentials; environment variables and models.json stay
  print-api-key           Print the resolved API key
  print-bearer-token      Print the OAuth access token (refreshed when expired)
  check                   Print ready, not_ready or invalid; exit with 0, 1 or 2

Options:
  --provider <provider>   Resolve credentials for a provider
  --model <model>         Resolve credentials from a model (provider/id or id)
  --api-key               login: save an API key instead of signing in with an account
  --no-browser            login: do not open a browser; use a device code where the provider has one
  -e, --extension <path>  login, check, print-*: load this extension (repeatable); a provider an
                          extension registers with an oauth block logs in with the extension's flow.
                          Your extensions (agent dir, settings) load too when pi has no login for it
  --json                  check: print the result as JSON
  --credentials           check: print the credential when ready (or include it in the JSON)
  --no-refresh            check: do not refresh an expired OAuth login
  --min-expiry <duration> print-bearer-token: required remaining lifetime, e.g. 30m or 1h
`;

class UsageError extends Error {}

interface Parsed {
	positional: string[];
	provider?: string;
	model?: string;
	apiKey: boolean;
	noBrowser: boolean;
	json: boolean;
	credentials: boolean;
	noRefresh: boolean;
	minExpiryMs?: number;
	help: boolean;
	extensions: string[];
	/** Set once the extensions were loaded (they load at most once per command). */
	extensionsLoaded?: boolean;
}

const ONLY: Record<string, string[]> = {
	"--api-key": ["login"],
	"--no-browser": ["login"],
	"--json": ["check"],
	"--credentials": ["check"],
	"--no-refresh": ["check"],
	"--min-expiry": ["print-bearer-token"],
	"--provider": ["check", "print-api-key", "print-bearer-token"],
	"--model": ["check", "print-api-key", "print-bearer-token"],
	"--extension": ["login", "check", "print-api-key", "print-bearer-token"],
	"-e": ["login", "check", "print-api-key", "print-bearer-token"],
};

function parse(command: string, argv: readonly string[]): Parsed {
	const p: Parsed = {
		positional: [],
		apiKey: false,
		noBrowser: false,
		json: false,
		credentials: false,
		noRefresh: false,
		help: false,
		extensions: [],
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === "-h" || arg === "--help") {
			p.help = true;
			continue;
		}
		if (!arg.startsWith("-")) {
			p.positional.push(arg);
			continue;
		}
		const allowed = ONLY[arg];
		if (!allowed) throw new UsageError(`Unknown option ${arg} for "pi auth ${command}".`);
		if (!allowed.includes(command)) throw new UsageError(`${arg} is not an option of "pi auth ${command}".`);
		const value = () => {
			const v = argv[++i];
			if (v === undefined || v.startsWith("-")) throw new UsageError(`${arg} needs a value`);
			return v;
		};
		if (arg === "--api-key") p.apiKey = true;
		else if (arg === "--no-browser") p.noBrowser = true;
		else if (arg === "--json") p.json = true;
		else if (arg === "--credentials") p.credentials = true;
		else if (arg === "--no-refresh") p.noRefresh = true;
		else if (arg === "--provider") p.provider = value().trim();
		else if (arg === "--model") p.model = value().trim();
		else if (arg === "-e" || arg === "--extension") p.extensions.push(value());
		else if (arg === "--min-expiry") {
			const m = /^(\d+)(ms|s|m|h)$/i.exec(value());
			if (!m) throw new UsageError("--min-expiry takes a duration such as 30m or 1h");
			const unit = m[2].toLowerCase();
			p.minExpiryMs = Number(m[1]) * (unit === "ms" ? 1 : unit === "s" ? 1000 : unit === "m" ? 60_000 : 3_600_000);
		}
	}
	return p;
}

function open(io: CommandIo) {
	const agentDir = getAgentDir(io.env);
	const paths = agentPaths(agentDir);
	const auth = AuthStorage.create(paths.auth, withLoginFlows({ env: io.env }));
	const registry = ModelRegistry.create(auth, paths.models, { env: io.env });
	return { auth, registry, agentDir };
}

/**
 * Providers that extensions register (with their logins): loaded when `-e`
 * names extensions, or when pi has no login of its own for `provider` and
 * the user's extensions may have one. Project extensions load only in a
 * trusted folder (nobody is asked here).
 */
async function loadExtensionProviders(
	io: CommandIo,
	p: Parsed,
	registry: ModelRegistry,
	agentDir: string,
	provider: string | undefined,
): Promise<void> {
	if (p.extensionsLoaded) return;
	if (p.extensions.length === 0 && (provider === undefined || findLoginFlow(provider))) return;
	p.extensionsLoaded = true;
	const [{ createSessionServices }, { applyLoadedRegistrations }, { formatExtensionError }] = await Promise.all([
		import("../../runtime/services.js"),
		import("../../agent-session/extension-virtual-models.js"),
		import("../../runtime/extension-setup.js"),
	]);
	const services = await createSessionServices({
		cwd: io.cwd,
		agentDir,
		mode: "print",
		extensions: { cliPaths: p.extensions },
	});
	const loaded = services.extensions;
	for (const e of loaded.errors) io.stderr.write(`Error: ${e.message}\n`);
	if (loaded.errors.length > 0 && p.extensions.length > 0) throw new Error("an extension could not load");
	if (loaded.runner) {
		await applyLoadedRegistrations(loaded.runner, registry, (e) => io.stderr.write(`${formatExtensionError(e)}\n`));
	}
}

/** The provider named by --provider or --model (a model reference resolves to its provider). */
function targetProvider(p: Parsed, registry: ModelRegistry, command: string): string {
	if (p.positional.length > 0) throw new UsageError(`"pi auth ${command}" takes no positional arguments`);
	if (p.model) {
		const pool = p.provider ? registry.getAll().filter((m) => m.provider === p.provider) : registry.getAll();
		const model = findExactModel(p.model, pool);
		if (!model) throw new UsageError(`Unknown model "${p.model}"${p.provider ? ` for provider ${p.provider}` : ""}`);
		return model.provider;
	}
	if (p.provider) return p.provider;
	throw new UsageError(`"pi auth ${command}" needs --provider <provider> or --model <model>`);
}

function knownProvider(provider: string, registry: ModelRegistry, auth: AuthStorage): boolean {
	return (
		registry.getAll().some((m) => m.provider === provider) ||
		findLoginFlow(provider) !== undefined ||
		auth.get(provider) !== undefined
	);
}

export async function runAuthCommand(argv: readonly string[], io: CommandIo): Promise<number> {
	const command = argv[0];
	if (command === undefined || command === "help" || command === "-h" || command === "--help") {
		io.stdout.write(USAGE);
		return command === undefined ? 1 : 0;
	}
	const known = ["login", "logout", "check", "print-api-key", "print-bearer-token"];
	try {
		if (!known.includes(command)) {
			throw new UsageError(`Unknown auth command "${command}". Use one of: ${known.join(", ")}.`);
		}
		// Every auth command asks which providers pi itself can log in to.
		await loadLoginFlows();
		const p = parse(command, argv.slice(1));
		if (p.help) {
			io.stdout.write(USAGE);
			return 0;
		}
		if (command === "login") return await login(p, io);
		if (command === "logout") return await logout(p, io);
		if (command === "check") return await check(p, io);
		return await printCredential(command, p, io);
	} catch (error) {
		if (error instanceof UsageError) {
			io.stderr.write(`Error: ${error.message}\nSee "pi auth --help".\n`);
			return command === "check" ? 2 : 1;
		}
		io.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
		return command === "check" ? 2 : 1;
	}
}

async function login(p: Parsed, io: CommandIo): Promise<number> {
	const provider = p.positional[0];
	if (!provider || p.positional.length > 1) throw new UsageError('"pi auth login" takes one provider');
	if (p.apiKey && p.noBrowser) throw new UsageError("--no-browser cannot be combined with --api-key");
	const { auth, registry, agentDir } = open(io);
	if (!p.apiKey) await loadExtensionProviders(io, p, registry, agentDir, provider);
	const flow = p.apiKey ? undefined : findLoginFlow(provider);
	const interaction = terminalLogin(io, { browser: !p.noBrowser });
	try {
		if (!flow) {
			// --api-key asks for a plain key; otherwise a provider's own key login (auth.apiKey.login) runs.
			if (p.apiKey) {
				const key = await interaction.prompt({ type: "secret", message: `API key for ${provider}:` });
				await saveApiKey(auth, provider, key);
				io.stderr.write(`Saved an API key for ${provider} in ${auth.file}.\n`);
			} else {
				const saved = await loginWithApiKey(auth, provider, interaction);
				io.stderr.write(`${saved.replace(/\.$/, "")} in ${auth.file}.\n`);
			}
			return await refreshAfterLogin(io, registry, provider);
		}
		io.stderr.write(`Logging in to ${flow.name}…\n`);
		const credential = await flow.login(interaction);
		await auth.set(provider, credential);
		io.stderr.write(`Logged in to ${flow.name}. Credentials saved in ${auth.file}.\n`);
		return await refreshAfterLogin(io, registry, provider);
	} catch (error) {
		if (error instanceof LoginCancelledError || interaction.signal.aborted) {
			io.stderr.write("Login cancelled; nothing was saved.\n");
			return 130;
		}
		throw error;
	} finally {
		interaction.close();
	}
}

/**
 * As after /login in the app: a provider with a dynamic catalog (an
 * extension's refreshModels) lists what the new credential unlocks, so its
 * persisted snapshot is current for the next start. The login stands either
 * way; a failed or timed-out refresh is a warning.
 */
async function refreshAfterLogin(io: CommandIo, registry: ModelRegistry, provider: string): Promise<number> {
	if (!registry.refreshers.ids().includes(provider)) return 0;
	const result = await registry.refresh({
		providers: [provider],
		signal: AbortSignal.timeout(CATALOG_REFRESH_TIMEOUT_MS),
	});
	const error = result.errors.get(provider);
	if (result.aborted || error) {
		const why = result.aborted ? `timed out after ${CATALOG_REFRESH_TIMEOUT_MS / 1000} s` : error?.message;
		io.stderr.write(`Warning: logged in, but the models of ${provider} could not be refreshed (${why}).\n`);
	} else {
		const count = registry.getAll().filter((m) => m.provider === provider).length;
		io.stderr.write(`Refreshed the models of ${provider}: ${count} listed.\n`);
	}
	return 0;
}

async function logout(p: Parsed, io: CommandIo): Promise<number> {
	const provider = p.positional[0];
	if (!provider || p.positional.length > 1) throw new UsageError('"pi auth logout" takes one provider');
	const { auth } = open(io);
	if (auth.get(provider) === undefined) {
		io.stderr.write(`No stored credentials for ${provider}.\n`);
		return 0;
	}
	await auth.remove(provider);
	io.stderr.write(`Removed the stored credentials for ${provider}.\n`);
	return 0;
}

type CheckResult =
	| { status: "ready"; provider: string; authType: "api_key" | "oauth" }
	| { status: "not_ready" | "invalid"; provider: string; reason: string };

async function check(p: Parsed, io: CommandIo): Promise<number> {
	const { auth, registry, agentDir } = open(io);
	if (p.extensions.length > 0) await loadExtensionProviders(io, p, registry, agentDir, undefined);
	const provider = targetProvider(p, registry, "check");
	if (auth.get(provider)?.type === "oauth") await loadExtensionProviders(io, p, registry, agentDir, provider);
	let result: CheckResult;
	let credential: string | undefined;
	if (auth.getLoadWarning()) result = { status: "invalid", provider, reason: "invalid_state" };
	else if (!knownProvider(provider, registry, auth)) {
		result = { status: "not_ready", provider, reason: "provider_not_found" };
	} else if (!auth.hasAuth(provider)) {
		result = { status: "not_ready", provider, reason: "credentials_not_configured" };
	} else {
		const stored = auth.get(provider);
		const authType = stored?.type === "oauth" ? "oauth" : "api_key";
		try {
			if (stored?.type === "oauth" && p.noRefresh) {
				// --no-refresh: an expired login is reported as it is, never renewed.
				credential = Date.now() < stored.expires ? stored.access : undefined;
				result = credential
					? { status: "ready", provider, authType }
					: { status: "not_ready", provider, reason: "credentials_expired" };
			} else {
				credential = await auth.getApiKey(provider);
				result = credential
					? { status: "ready", provider, authType }
					: { status: "not_ready", provider, reason: "credential_not_available" };
			}
		} catch {
			result = { status: "invalid", provider, reason: "invalid_state" };
		}
	}
	const withCredential = p.credentials && result.status === "ready" ? credential : undefined;
	const output = p.json
		? JSON.stringify({ ...result, ...(withCredential ? { credentials: withCredential } : {}) })
		: (withCredential ?? result.status);
	io.stdout.write(`${output}\n`);
	return result.status === "ready" ? 0 : result.status === "not_ready" ? 1 : 2;
}

async function printCredential(command: string, p: Parsed, io: CommandIo): Promise<number> {
	const { auth, registry, agentDir } = open(io);
	if (p.extensions.length > 0) await loadExtensionProviders(io, p, registry, agentDir, undefined);
	const provider = targetProvider(p, registry, command);
	if (auth.get(provider)?.type === "oauth") await loadExtensionProviders(io, p, registry, agentDir, provider);
	if (command === "print-bearer-token") {
		const stored = auth.get(provider);
		if (stored?.type !== "oauth") throw new Error(`No OAuth login is stored for ${provider}`);
		let token = await auth.getApiKey(provider);
		const fresh = auth.get(provider);
		if (p.minExpiryMs !== undefined && fresh?.type === "oauth" && fresh.expires - Date.now() < p.minExpiryMs) {
			token = await auth.refreshAfterRejection(provider, fresh.access);
			const renewed = auth.get(provider);
			if (renewed?.type !== "oauth" || renewed.expires - Date.now() < p.minExpiryMs) {
				throw new Error(`The ${provider} token does not live long enough even after a refresh`);
			}
		}
		if (!token) throw new Error(`No credential available for ${provider}`);
		io.stdout.write(`${token}\n`);
		return 0;
	}
	const key = await auth.getApiKey(provider);
	if (!key) throw new Error(`No API key configured for ${provider}`);
	io.stdout.write(`${key}\n`);
	return 0;
}
