// The app's side of AgentSessionRuntime (src/runtime/): `/reload`, the
// extensions after a reload or a switch into another folder (their UI,
// commands and renderers move to the new instances), the theme and `/`
// lists after the resources changed, and the trust question when a switch
// enters a folder that needs one (asked in the editor's place: the app is
// running, so the start-up trust screen cannot be used).
import type { AgentSessionRuntime, ExtensionsChange } from "../../runtime/agent-session-runtime.js";
import type { TrustQuestionAnswer } from "../../runtime/services.js";
import type { SlashCommand } from "./commands/registry.js";
import type { InteractiveContext } from "./context.js";
import type { InteractiveExtensions } from "./extensions/app-extensions.js";
import { askChoice } from "./selectors/prompts.js";

export interface RuntimeBindingHost {
	ctx: InteractiveContext;
	/** The new extensions take the screen (also when the app started without any). */
	rebindExtensions(next: InteractiveExtensions): void;
	/** After their session_start: commands, templates and skills in `/`, themes, redraw. */
	afterExtensionsStarted(): void;
}

/** Follows the runtime's extension changes; returns the unsubscribe. */
export function bindRuntime(runtime: AgentSessionRuntime, host: RuntimeBindingHost): () => void {
	return runtime.onExtensionsChanged((change: ExtensionsChange) => {
		if (!change.bridge || !change.runner) return;
		host.rebindExtensions({ bridge: change.bridge, runner: change.runner, problems: change.problems });
	});
}

/** `/reload` and ctx.reload(): the runtime reloads; the app reports and redraws what changed. */
export async function reloadInApp(runtime: AgentSessionRuntime, host: RuntimeBindingHost): Promise<void> {
	const { ctx } = host;
	ctx.showStatus("Reloading extensions, skills, prompt templates, themes and context files…");
	ctx.requestRender();
	const result = await runtime.reload();
	for (const w of result.warnings) ctx.showStatus(w, "warning");
	if (!result.ok) {
		for (const e of result.errors) ctx.showStatus(e, "error");
		ctx.showStatus("Reload failed: the previous extensions and resources stay in use.", "error");
		return;
	}
	host.afterExtensionsStarted();
	const r = runtime.services.resources;
	const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
	// The bundled ones (builtin:mcp, …) are not counted: they are not files the user edits.
	const extensions = runtime.runner?.extensions.filter((e) => !e.path.startsWith("builtin:")).length ?? 0;
	ctx.showStatus(
		`Reloaded: ${count(extensions, "extension")}, ${count(r.getSkills().length, "skill")}, ` +
			`${count(r.getPromptTemplates().length, "prompt template")}, ${count(r.getThemeFiles().length, "theme file")}, ` +
			`${count(r.getContextFiles().length, "context file")}`,
	);
}

export function reloadCommand(runtime: AgentSessionRuntime, host: RuntimeBindingHost): SlashCommand {
	return {
		name: "reload",
		description: "Reload extensions, skills, prompt templates, themes and context files",
		run: () => reloadInApp(runtime, host),
	};
}

/** The trust question inside the running app (a switch entered `cwd`); Esc means no. */
export async function askTrustInApp(
	ctx: InteractiveContext,
	cwd: string,
	resources: readonly string[],
): Promise<TrustQuestionAnswer> {
	ctx.showStatus(`${cwd} has .pi/ resources: ${resources.join("; ")}`);
	const answer = await askChoice<TrustQuestionAnswer>(ctx, `Trust ${cwd}?`, [
		{ value: "once", label: "Trust once", description: "load them for this session only" },
		{ value: "always", label: "Trust always", description: "remember for this folder (trust.json)" },
		{ value: "no", label: "Don't trust", description: "continue without them" },
	]);
	return answer ?? "no";
}
