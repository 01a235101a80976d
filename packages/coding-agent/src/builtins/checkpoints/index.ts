// builtin:checkpoints — file checkpoints that follow the session tree, as a
// bundled extension written only against the public extension API. On by
// default; `-builtin:checkpoints` in the `extensions` setting (or
// `"checkpoints": { "enabled": false }`) turns it off.
//
// When: before each prompt (beside the model request, settled before anything
// can change files), after each turn that ran a tool other than
// read/grep/find/ls, and before `write`/`edit`/`bash`. A snapshot holds the
// whole tree (tracked and untracked files, minus ignored ones): the first of
// a run by git's scan, later ones from a file watcher's changed paths
// (store.ts); without a watcher `write`/`edit` snapshot only their file.
// Each new state becomes a "checkpoint" custom
// entry on the branch, so the state at any entry is the last checkpoint at or
// above it. /tree, /fork and /rewind offer to restore it.
import { existsSync } from "node:fs";
import type { ExtensionFactory } from "../../extensions/types.js";
import { Checkpoints, readCheckpointSettings } from "./checkpoints.js";
import { registerRewindCommand } from "./command.js";
import { CHECKPOINT_TYPE } from "./entries.js";
import { registerRestoreOffers } from "./offers.js";
import { prune, pruneDue } from "./prune.js";

const WARM_DELAY_MS = 1500;
/**
 * How long after the session starts a due prune begins. It reads every session file of the folder
 * and runs git (each process forked from pi, a few ms of its main thread per fork once a long
 * session is loaded): not on the way to the first request, nor beside a short run's reply. A run
 * that ends sooner prunes as it ends (its stamp then holds for a day): a user of only short runs
 * (`pi -p` in a loop) would otherwise never prune, and the store would grow past its bound.
 */
export const PRUNE_DELAY_MS = 5000;
const READ_ONLY_TOOLS = new Set(["read", "grep", "find", "ls"]);

function describeCall(toolName: string, input: Record<string, unknown>): string | undefined {
	if (toolName === "bash" && typeof input.command === "string") {
		const oneLine = input.command.replace(/\s+/g, " ").trim();
		return oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine;
	}
	return typeof input.path === "string" ? input.path : undefined;
}

export interface CheckpointsExtensionOptions {
	/** Delay before a due prune starts (default PRUNE_DELAY_MS; tests shorten it). */
	pruneDelayMs?: number;
}

export function createCheckpointsExtension(options: CheckpointsExtensionOptions = {}): ExtensionFactory {
	const pruneDelayMs = options.pruneDelayMs ?? PRUNE_DELAY_MS;
	return (pi) => {
		const cp = new Checkpoints(pi);
		let turnChanged = false;
		let warm: NodeJS.Timeout | undefined;
		let pruneLater: NodeJS.Timeout | undefined;
		/** A due prune not started yet (it starts at PRUNE_DELAY_MS, or at shutdown if that comes first). */
		let duePrune: (() => Promise<void>) | undefined;
		/** The prune running now, waited for at shutdown. */
		let pruning: Promise<void> | undefined;

		pi.on("session_start", (_event, ctx) => {
			cp.settings = readCheckpointSettings(pi.getSettings());
			// An ephemeral session (--no-session) never records a checkpoint (see capture): no store,
			// no pruning, no warming — nothing of the store is even set up on such a run.
			if (!ctx.sessionManager.getSessionFile()) return;
			const store = cp.storeFor(ctx.cwd);
			// The store is created by the first snapshot; pruning and warming run off the start-up path
			// (pruning later still: PRUNE_DELAY_MS).
			if (!store || !existsSync(store.dir)) return;
			clearTimeout(pruneLater);
			duePrune = undefined;
			if (pruneDue(store)) {
				const sessionDir = ctx.sessionManager.getSessionDir();
				const run = (): Promise<void> => {
					duePrune = undefined;
					pruning = prune(store, [sessionDir], cp.settings.maxStoreBytes).then(
						() => {},
						(error: unknown) => cp.fail(ctx, error),
					);
					return pruning;
				};
				duePrune = run;
				pruneLater = setTimeout(() => void run(), pruneDelayMs);
				pruneLater.unref();
			}
			// A known project: start the watcher and the first (full) scan a moment after start-up,
			// so the first prompt's snapshot is already incremental. Nothing is recorded by it.
			warm = setTimeout(() => void store.snapshot("warm").catch(() => {}), WARM_DELAY_MS);
			warm.unref();
		});

		pi.on("session_shutdown", async () => {
			clearTimeout(warm);
			clearTimeout(pruneLater);
			// A due prune the run ended too soon for runs now (once a day), and one running is finished.
			await duePrune?.();
			await pruning;
			pruning = undefined;
			await cp.close();
		});

		registerRestoreOffers(pi, cp);
		// The snapshot before the prompt runs beside the model request (which does not need it: git's
		// scan of a resumed or large project took 10-25 ms or more before the first request). Everything
		// that could change files, or reads checkpoints, waits for it first (cp.settleStart): every
		// tool call, turn_end, agent_end, shutdown, /tree, /fork, /rewind; and the assistant's reply is
		// not appended before it, so it lands between the user message and the reply (entries.ts).
		pi.on("before_agent_start", (_event, ctx) => {
			// An ephemeral session records nothing (capture): nothing to start.
			if (ctx.sessionManager.getSessionFile()) cp.startCapture(ctx);
		});

		pi.on("message_end", async (event) => {
			// The reply waits; the user message (and messages injected with it) are appended before the
			// request goes out, so they do not.
			if (event.message.role === "assistant") await cp.settleStart();
		});

		pi.on("agent_end", async () => {
			await cp.settleStart();
		});

		pi.on("tool_call", async (event, ctx) => {
			// Any tool may change files (an extension's too): the start snapshot is taken before it runs.
			await cp.settleStart();
			if (READ_ONLY_TOOLS.has(event.toolName)) return;
			turnChanged = true;
			const input = event.input as Record<string, unknown>;
			const fileTool = event.toolName === "write" || event.toolName === "edit";
			if (!fileTool && event.toolName !== "bash") return;
			const paths = fileTool && typeof input.path === "string" ? [input.path] : undefined;
			if (fileTool && !paths) return;
			const detail = describeCall(event.toolName, input);
			cp.record(await cp.capture(ctx, { reason: "tool", tool: event.toolName, ...(detail ? { detail } : {}) }, paths));
		});

		pi.on("turn_end", async (event, ctx) => {
			await cp.settleStart();
			if (!turnChanged) return;
			turnChanged = false;
			const data = await cp.capture(ctx, { reason: "turn" });
			if (!data) return;
			return { entries: [...event.entries, { type: "custom", customType: CHECKPOINT_TYPE, data }] };
		});

		registerRewindCommand(pi, cp);
	};
}

export { Checkpoints, readCheckpointSettings };
export default createCheckpointsExtension();
