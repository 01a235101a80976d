// /login [provider] and /logout [provider]. /login offers the account logins
// (ChatGPT, GitHub Copilot) and an API key for any provider; the browser is
// opened where there is one, and the URL or device code is always shown in the
// transcript to copy. Esc in any of its prompts cancels the login.
import { apiKeyLoginList, findApiKeyLogin, loginWithApiKey } from "../../../auth/api-key.js";
import { findLoginFlow, loadLoginFlows, loginFlows } from "../../../auth/flows.js";
import { LoginCancelledError, type LoginInteraction, type LoginPrompt } from "../../../auth/interaction.js";
import { canOpenBrowser, openBrowser } from "../../../auth/open-browser.js";
import type { InteractiveContext } from "../context.js";
import { refreshModelCatalogs } from "../model-catalog-refresh.js";
import { createChoicePrompt, createTextPrompt } from "../selectors/prompts.js";
import type { SlashCommand } from "./registry.js";

const API_KEY = "\u0000api-key";

function ask(ctx: InteractiveContext, prompt: LoginPrompt, cancel: () => void): Promise<string> {
	return new Promise((resolve, reject) => {
		let restore = () => {};
		const done = (value: string | undefined) => {
			restore();
			if (value === undefined) {
				if (prompt.type === "manual_code") return reject(new Error("no pasted code"));
				cancel();
				return reject(new LoginCancelledError());
			}
			resolve(value);
		};
		if (prompt.type === "select") {
			const choices = prompt.options.map((o) => ({ value: o.id, label: o.label }));
			restore = ctx.showInEditorArea(createChoicePrompt(() => ctx.theme, prompt.message, choices, done));
		} else {
			const title = prompt.type === "secret" ? "API key" : "Login";
			restore = ctx.showInEditorArea(createTextPrompt(() => ctx.theme, title, prompt.message, done));
		}
		if (prompt.type === "manual_code") {
			// The browser came back first: take the paste prompt away again.
			prompt.signal.addEventListener("abort", () => restore(), { once: true });
		}
	});
}

function interactionFor(ctx: InteractiveContext): LoginInteraction & { controller: AbortController } {
	const controller = new AbortController();
	const browser = canOpenBrowser();
	return {
		controller,
		signal: controller.signal,
		browser,
		notify(notice) {
			if (notice.type === "auth_url") {
				const opened = browser && openBrowser(notice.url);
				ctx.showStatus(
					`${opened ? "Opened the browser; if it did not open, visit" : "Open in a browser"}: ${notice.url}`,
				);
				if (notice.instructions) ctx.showStatus(notice.instructions);
			} else if (notice.type === "device_code") {
				ctx.showStatus(`Visit ${notice.verificationUri} and enter the code ${notice.userCode}`);
			} else ctx.showStatus(notice.message);
			ctx.requestRender();
		},
		prompt: (p) => ask(ctx, p, () => controller.abort()),
	};
}

/** After a login: a provider with a dynamic catalog lists what the new credential unlocks (as 1.6.0). */
async function refreshAfterLogin(ctx: InteractiveContext, provider: string, what: string): Promise<void> {
	const outcome = await refreshModelCatalogs(ctx.session.modelRegistry, [provider]);
	if (!outcome.skipped && !outcome.ok) ctx.showStatus(`${what}, but ${outcome.message}.`, "warning");
	ctx.refreshStatus();
	ctx.requestRender();
}

async function loginWithKey(ctx: InteractiveContext, provider: string): Promise<void> {
	const interaction = interactionFor(ctx);
	const saved = await loginWithApiKey(ctx.session.modelRegistry.auth, provider, interaction);
	ctx.showStatus(saved);
	await refreshAfterLogin(ctx, provider, saved.replace(/\.$/, ""));
}

async function login(ctx: InteractiveContext, provider: string): Promise<void> {
	const flow = findLoginFlow(provider);
	if (!flow) return loginWithKey(ctx, provider);
	const interaction = interactionFor(ctx);
	ctx.showStatus(`Logging in to ${flow.name}… (Esc in a prompt cancels)`);
	const credential = await flow.login(interaction);
	await ctx.session.modelRegistry.auth.set(provider, credential);
	ctx.showStatus(`Logged in to ${flow.name}.`);
	ctx.refreshStatus();
	await refreshAfterLogin(ctx, provider, `Logged in to ${flow.name}`);
}

function run(ctx: InteractiveContext, provider: string): void {
	const task = provider === API_KEY ? askProviderThenKey(ctx) : login(ctx, provider);
	task.catch((error: unknown) => {
		if (error instanceof LoginCancelledError) ctx.showStatus("Login cancelled; nothing was saved.", "warning");
		else ctx.showStatus(error instanceof Error ? error.message : String(error), "error");
	});
}

async function askProviderThenKey(ctx: InteractiveContext): Promise<void> {
	const interaction = interactionFor(ctx);
	const provider = (
		await interaction.prompt({ type: "text", message: "Provider id (e.g. openai, anthropic):" })
	).trim();
	if (!provider) throw new LoginCancelledError();
	await loginWithKey(ctx, provider);
}

export const loginCommand: SlashCommand = {
	name: "login",
	description: "Log in to a provider (account or API key)",
	argumentHint: "[provider]",
	// pi's own account logins (and node:http, which they bring) are loaded here, not before the
	// app's first screen: the first /login or its completions wait for them (once).
	async getArgumentCompletions(prefix) {
		await loadLoginFlows();
		return loginFlows()
			.filter((f) => f.id.startsWith(prefix))
			.map((f) => ({ value: f.id, label: f.id, description: f.name }));
	},
	async run(args, ctx) {
		await loadLoginFlows();
		if (args) return run(ctx, args);
		const keyLogins = apiKeyLoginList().filter((l) => !findLoginFlow(l.provider));
		const providers = [...new Set(ctx.session.modelRegistry.getAll().map((m) => m.provider))].filter(
			(p) => !findLoginFlow(p) && !findApiKeyLogin(p),
		);
		const choices = [
			...loginFlows().map((f) => ({ value: f.id, label: f.name, description: "sign in with your account" })),
			...keyLogins.map((l) => ({ value: l.provider, label: l.name, description: `API key (${l.provider})` })),
			...providers.map((p) => ({ value: p, label: p, description: "API key" })),
			{ value: API_KEY, label: "Another provider…", description: "API key" },
		];
		const restore = ctx.showInEditorArea(
			createChoicePrompt(
				() => ctx.theme,
				"Log in to",
				choices,
				(value) => {
					restore();
					if (value !== undefined) run(ctx, value);
				},
			),
		);
	},
};

export const logoutCommand: SlashCommand = {
	name: "logout",
	description: "Remove a provider's stored credentials",
	argumentHint: "[provider]",
	async run(args, ctx) {
		const auth = ctx.session.modelRegistry.auth;
		const remove = async (provider: string) => {
			if (auth.get(provider) === undefined) return ctx.showStatus(`No stored credentials for ${provider}.`);
			await auth.remove(provider);
			ctx.showStatus(`Removed the stored credentials for ${provider}.`);
			ctx.refreshStatus();
		};
		if (args) return remove(args);
		const stored = auth.list();
		if (stored.length === 0) return ctx.showStatus("No credentials are stored in auth.json.");
		const choices = stored.map((p) => ({ value: p, label: p, description: auth.get(p)?.type ?? "" }));
		const restore = ctx.showInEditorArea(
			createChoicePrompt(
				() => ctx.theme,
				"Log out of",
				choices,
				(value) => {
					restore();
					if (value !== undefined) void remove(value);
				},
			),
		);
	},
};
