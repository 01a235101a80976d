// The extension stages of the input pipeline (src/input/):
//   extensionCommand  `/name args` of an extension command runs its handler;
//                     the input is handled (nothing reaches the model)
//   inputEvent        the `input` event: transforms chain, the first
//                     "handled" ends the path
// A command handler that throws is reported (the runner's error listeners)
// and the input still counts as handled.
import type { ExtensionRunner } from "../extensions/runner.js";
import type { ExtensionCommandContext } from "../extensions/types.js";
import type { InputPipeline } from "../input/pipeline.js";
import type { InputStage } from "../input/types.js";

export interface ExtensionInputDeps {
	runner: ExtensionRunner;
	commandContext(): ExtensionCommandContext;
	/** Waits for the runs extensions started (a command's `sendUserMessage`, `triggerTurn`). */
	waitForExtensionRuns(): Promise<void>;
}

export function extensionCommandStage(d: ExtensionInputDeps): InputStage {
	return async (input, context) => {
		if (!input.text.startsWith("/")) return undefined;
		const space = input.text.indexOf(" ");
		const name = space === -1 ? input.text.slice(1) : input.text.slice(1, space);
		const command = d.runner.getCommand(name);
		if (!command) return undefined;
		const args = space === -1 ? "" : input.text.slice(space + 1).trim();
		try {
			await command.handler(args, d.commandContext());
		} catch (error) {
			d.runner.emitError({
				extensionPath: command.extensionPath,
				event: `command:/${command.invocationName}`,
				error: error instanceof Error ? error.message : String(error),
				stack: error instanceof Error ? error.stack : undefined,
			});
		}
		// The command is done when the runs it started are: `pi -p "/cmd" "next"`
		// sends "next" after the run the command triggered. Not for a command an
		// extension's own run dispatched (sendUserMessage): it would wait for itself.
		if (context.source !== "extension") await d.waitForExtensionRuns();
		return { action: "handled" };
	};
}

export function inputEventStage(runner: ExtensionRunner): InputStage {
	return async (input, context) => {
		const result = await runner.emitInput(input.text, input.images, context.source, context.streamingBehavior);
		if (result.action === "handled") return { action: "handled" };
		if (result.text === input.text && result.images === input.images) return undefined;
		return { action: "transform", input: { text: result.text, images: result.images } };
	};
}

/** Puts both stages into their slots; returns the function that removes them again. */
export function useExtensionInput(pipeline: InputPipeline, d: ExtensionInputDeps): () => void {
	const offs = [
		pipeline.use("extensionCommand", extensionCommandStage(d)),
		pipeline.use("inputEvent", inputEventStage(d.runner)),
	];
	return () => {
		for (const off of offs) off();
	};
}
