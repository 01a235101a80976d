// What happens to text the user submits: a slash command, a shell command
// (`!cmd` sends its output with the next prompt, `!!cmd` does not), a prompt,
// or — while the agent works — a queued steering message (Enter) or
// follow-up (Alt+Enter).
import type { ImageContent } from "@pi/ai";
import { parseSlashCommand } from "../commands/registry.js";
import type { InteractiveContext } from "../context.js";

export type SubmitKind = "enter" | "followUp";

export class InputController {
	/** Pasted images by the marker that stands for them in the editor. */
	private readonly images = new Map<string, ImageContent>();
	private imageCounter = 0;

	constructor(
		private readonly ctx: InteractiveContext,
		/** The prompt path (extension commands, `input`, skills, templates); default session.prompt. */
		private readonly send: (
			text: string,
			options: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" },
		) => Promise<void> = (text, options) => ctx.session.prompt(text, options),
	) {}

	/** Keeps a pasted image for the next message; returns the marker to put in the editor. */
	addImage(data: Buffer, mimeType: string): string {
		const marker = `[image #${++this.imageCounter}]`;
		this.images.set(marker, { type: "image", data: data.toString("base64"), mimeType });
		return marker;
	}

	/** The images whose markers are still in the text (deleting a marker drops its image). */
	private takeImages(text: string): ImageContent[] {
		const out: ImageContent[] = [];
		for (const [marker, image] of this.images) if (text.includes(marker)) out.push(image);
		this.images.clear();
		return out;
	}

	/** Handles one submission; never throws (failures become error notices). */
	async submit(raw: string, kind: SubmitKind = "enter"): Promise<void> {
		const text = raw.trim();
		if (!text) return;
		const { ctx } = this;
		ctx.editor.addToHistory?.(text);
		try {
			const parsed = parseSlashCommand(text);
			const command = parsed ? ctx.commands.get(parsed.name) : undefined;
			if (parsed && command && !command.sendAsPrompt) {
				await ctx.runCommand(parsed.name, parsed.args);
				return;
			}
			if (command?.sendAsPrompt && !ctx.session.isStreaming) {
				// Extension commands, skills, templates: the prompt path decides (no model needed for a command).
				await this.send(raw.replace(/\s+$/, ""), { images: this.takeImages(text) });
				return;
			}
			if (text.startsWith("!")) {
				const exclude = text.startsWith("!!");
				const command = text.slice(exclude ? 2 : 1).trim();
				if (command) {
					await this.runBash(command, exclude);
					return;
				}
			}
			await this.prompt(raw.replace(/\s+$/, ""), kind);
		} catch (error) {
			ctx.showStatus(error instanceof Error ? error.message : String(error), "error");
		}
	}

	private async prompt(text: string, kind: SubmitKind): Promise<void> {
		const { session } = this.ctx;
		const images = this.takeImages(text);
		if (session.isStreaming) {
			await this.send(text, { images, streamingBehavior: kind === "followUp" ? "followUp" : "steer" });
			return;
		}
		if (session.isCompacting) {
			this.ctx.showStatus("Wait for the compaction to finish (esc cancels it)", "warning");
			this.ctx.editor.setText(text);
			return;
		}
		if (!session.model) {
			// The full guidance is in the banner; repeating it on every Enter would bury the transcript.
			this.ctx.showStatus(
				`No model available: set a provider API key, or add a local server to ${this.ctx.agentDir}/models.json (see the start-up message), then restart pi.`,
				"error",
			);
			this.ctx.editor.setText(text);
			return;
		}
		await this.send(text, { images });
	}

	private async runBash(command: string, excludeFromContext: boolean): Promise<void> {
		const { ctx } = this;
		if (ctx.session.isBashRunning) {
			ctx.showStatus("A command is already running (esc cancels it)", "warning");
			ctx.editor.setText(`${excludeFromContext ? "!!" : "!"}${command}`);
			return;
		}
		const item = ctx.chat.addBashExecution(command, excludeFromContext);
		const result = await ctx.session.executeBash(command, {
			excludeFromContext,
			onChunk: (chunk) => {
				item.append(chunk);
				ctx.requestRender();
			},
		});
		item.setOutput(result.output);
		item.finish(result.exitCode ?? undefined, result.cancelled, result.truncated ? result.fullOutputPath : undefined);
		ctx.refreshStatus();
		ctx.requestRender();
	}
}
