// builtin:checkpoints — file checkpoints that follow the session tree, as a
// bundled extension written only against the public extension API. On by
// default; `-builtin:checkpoints` in the `extensions` setting (or
// `"checkpoints": { "enabled": false }`) turns it off.
//
// When: a full (incremental) snapshot before each prompt and after each turn
// that ran a tool other than read/grep/find/ls; before `write`/`edit` only
// the file they touch, before `bash` the whole tree (tracked and untracked
// files, minus ignored ones). Each new state becomes a "checkpoint" custom
// entry on the branch, so the state at any entry is the last checkpoint at or
// above it. /tree, /fork and /rewind offer to restore it.
import { join } from "node:path";
import {
	type ExtensionAPI,
	type ExtensionContext,
	type ExtensionFactory,
	getAgentDir,
} from "../../extensions/types.js";
import { registerRewindCommand } from "./command.js";
import { CHECKPOINT_TYPE, type CheckpointData, checkpointsOnBranch } from "./entries.js";
import { GitMissingError } from "./git.js";
import { registerRestoreOffers } from "./offers.js";
import { prune, pruneDue } from "./prune.js";
import { projectKey, ShadowStore } from "./store.js";

export interface CheckpointSettings {
	enabled: boolean;
	maxFileBytes: number;
	maxStoreBytes: number;
}

const MB = 1024 * 1024;

export function readCheckpointSettings(settings: Record<string, unknown>): CheckpointSettings {
	const raw = (settings.checkpoints ?? {}) as Record<string, unknown>;
	const num = (v: unknown, d: number) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : d);
	return {
		enabled: raw.enabled !== false,
		maxFileBytes: num(raw.maxFileSizeMB, 10) * MB,
		maxStoreBytes: num(raw.maxStoreSizeMB, 2048) * MB,
	};
}

/** What the pieces of the extension share: the store for the current cwd and how to record a checkpoint. */
export class Checkpoints {
	private store: ShadowStore | undefined;
	private disabled: string | undefined;
	private warned = false;
	settings: CheckpointSettings = readCheckpointSettings({});

	constructor(private readonly pi: ExtensionAPI) {}

	/** The store for `cwd`; undefined when checkpoints are off (setting, no git). */
	storeFor(cwd: string): ShadowStore | undefined {
		if (this.disabled || !this.settings.enabled) return undefined;
		if (this.store?.workTree !== cwd) {
			const agentDir = getAgentDir();
			const dir = join(agentDir, "checkpoints", projectKey(cwd));
			this.store = new ShadowStore(dir, cwd, { maxFileBytes: this.settings.maxFileBytes, excludeDirs: [agentDir] });
		}
		return this.store;
	}

	/** A failure is reported once and never blocks the tool: checkpoints are a safety net, not a gate. */
	fail(ctx: ExtensionContext, error: unknown): void {
		if (error instanceof GitMissingError) {
			this.disabled = "git is not installed";
			ctx.ui.notify("Checkpoints are off: git is not installed or not on PATH", "warning");
			return;
		}
		if (this.warned) return;
		this.warned = true;
		ctx.ui.notify(`Checkpoint failed: ${error instanceof Error ? error.message : String(error)}`, "warning");
	}

	/**
	 * Snapshots (the whole tree, or `paths`) and returns the entry data; undefined
	 * for a start/turn snapshot that equals the branch's last checkpoint.
	 */
	async capture(
		ctx: ExtensionContext,
		data: Omit<CheckpointData, "commit" | "skipped">,
		paths?: string[],
	): Promise<CheckpointData | undefined> {
		const store = this.storeFor(ctx.cwd);
		if (!store) return undefined;
		try {
			const snap = await store.snapshot(`${data.reason}${data.tool ? ` ${data.tool}` : ""}`, paths);
			// "Before <tool>" is kept even when nothing changed since the last one: /rewind lists it by the call.
			const last = checkpointsOnBranch(ctx.sessionManager).at(-1);
			if (data.reason !== "tool" && last?.data.commit === snap.commit) return undefined;
			return { ...data, commit: snap.commit, ...(snap.skipped.length > 0 ? { skipped: snap.skipped } : {}) };
		} catch (error) {
			this.fail(ctx, error);
			return undefined;
		}
	}

	record(data: CheckpointData | undefined): void {
		if (data) this.pi.appendEntry(CHECKPOINT_TYPE, data);
	}
}

const READ_ONLY_TOOLS = new Set(["read", "grep", "find", "ls"]);

function describeCall(toolName: string, input: Record<string, unknown>): string | undefined {
	if (toolName === "bash" && typeof input.command === "string") {
		const oneLine = input.command.replace(/\s+/g, " ").trim();
		return oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine;
	}
	return typeof input.path === "string" ? input.path : undefined;
}

export function createCheckpointsExtension(): ExtensionFactory {
	return (pi) => {
		const cp = new Checkpoints(pi);
		let turnChanged = false;

		pi.on("session_start", (_event, ctx) => {
			cp.settings = readCheckpointSettings(pi.getSettings());
			const store = cp.storeFor(ctx.cwd);
			if (!store) return;
			// Off the start-up path: the store is created and pruned in the background.
			void store
				.init()
				.then(async () => {
					if (pruneDue(store)) await prune(store, [ctx.sessionManager.getSessionDir()], cp.settings.maxStoreBytes);
				})
				.catch((error: unknown) => cp.fail(ctx, error));
		});

		pi.on("before_agent_start", async (_event, ctx) => {
			cp.record(await cp.capture(ctx, { reason: "start" }));
		});

		pi.on("tool_call", async (event, ctx) => {
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
			if (!turnChanged) return;
			turnChanged = false;
			const data = await cp.capture(ctx, { reason: "turn" });
			if (!data) return;
			return { entries: [...event.entries, { type: "custom", customType: CHECKPOINT_TYPE, data }] };
		});

		registerRestoreOffers(pi, cp);
		registerRewindCommand(pi, cp);
	};
}

export default createCheckpointsExtension();
