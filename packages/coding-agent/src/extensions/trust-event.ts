// project_trust: asked before anything of the project loads, so only the
// extensions that may load before trust (built-ins, the global dir and
// settings, `-e`) take part, and there is no session yet: the handlers get a
// ProjectTrustContext, not an ExtensionContext. Dispatch: load order, then
// registration order; the first "yes" or "no" decides; "undecided" (or a
// handler that throws, which is reported) passes to the next one.
import type { LoadedExtension } from "./extension.js";
import type { ProjectTrustEventResult } from "./session-events.js";
import type { ExtensionError, ProjectTrustContext } from "./types.js";

export interface ProjectTrustDecision {
	trusted: boolean;
	/** Save the decision in trust.json (`remember: true`). */
	remember: boolean;
	/** The extension that decided. */
	extensionPath: string;
}

export async function emitProjectTrust(
	extensions: readonly LoadedExtension[],
	ctx: ProjectTrustContext,
	report: (error: ExtensionError) => void,
): Promise<ProjectTrustDecision | undefined> {
	const event = { type: "project_trust" as const, cwd: ctx.cwd };
	for (const ext of extensions) {
		for (const handler of ext.handlers.get("project_trust") ?? []) {
			let result: ProjectTrustEventResult | undefined;
			try {
				result = (await handler(event, ctx)) as ProjectTrustEventResult | undefined;
			} catch (thrown) {
				report({
					extensionPath: ext.path,
					event: "project_trust",
					error: thrown instanceof Error ? thrown.message : String(thrown),
					stack: thrown instanceof Error ? thrown.stack : undefined,
				});
				continue;
			}
			const trusted = result?.trusted;
			if (trusted === "yes" || trusted === "no") {
				return { trusted: trusted === "yes", remember: result?.remember === true, extensionPath: ext.path };
			}
			if (trusted !== "undecided") {
				report({
					extensionPath: ext.path,
					event: "project_trust",
					error: `project_trust must return { trusted: "yes" | "no" | "undecided" } (got ${JSON.stringify(result)}); taken as undecided`,
				});
			}
		}
	}
	return undefined;
}
