// What the parts of builtin:checkpoints share: its settings, the shadow
// store for the current folder, and how a snapshot becomes a checkpoint
// entry. Failures are reported once and never block a tool.
import { join } from "node:path";
import { type ExtensionAPI, type ExtensionContext, getAgentDir } from "../../extensions/types.js";
import { CHECKPOINT_TYPE, type CheckpointData, checkpointsOnBranch } from "./entries.js";
import { GitMissingError } from "./git.js";
import { projectKey, ShadowStore } from "./store.js";

export interface CheckpointSettings {
	enabled: boolean;
	maxFileBytes: number;
	maxStoreBytes: number;
}

const MB = 1024 * 1024;
/** How long pi's exit waits for a running snapshot's git commands. */
const SHUTDOWN_DRAIN_MS = 3_000;

export function readCheckpointSettings(settings: Record<string, unknown>): CheckpointSettings {
	const raw = (settings.checkpoints ?? {}) as Record<string, unknown>;
	const num = (v: unknown, d: number) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : d);
	return {
		enabled: raw.enabled !== false,
		maxFileBytes: num(raw.maxFileSizeMB, 10) * MB,
		maxStoreBytes: num(raw.maxStoreSizeMB, 2048) * MB,
	};
}

interface PendingStart {
	ctx: ExtensionContext;
	data: Promise<CheckpointData | undefined>;
	done: boolean;
}

/** What the pieces of the extension share: the store for the current cwd and how to record a checkpoint. */
export class Checkpoints {
	private store: ShadowStore | undefined;
	private disabled: string | undefined;
	private warned = false;
	/** The snapshot before the current prompt, started and not yet recorded (startCapture). */
	private pendingStart: PendingStart | undefined;
	settings: CheckpointSettings = readCheckpointSettings({});

	constructor(private readonly pi: ExtensionAPI) {}

	/** The store for `cwd`; undefined when checkpoints are off (setting, no git). */
	storeFor(cwd: string): ShadowStore | undefined {
		if (this.disabled || !this.settings.enabled) return undefined;
		if (this.store?.workTree !== cwd) {
			this.store?.close();
			const agentDir = getAgentDir();
			const dir = join(agentDir, "checkpoints", projectKey(cwd));
			this.store = new ShadowStore(dir, cwd, { maxFileBytes: this.settings.maxFileBytes, excludeDirs: [agentDir] });
		}
		return this.store;
	}

	/** Stops watching the work tree and lets running git commands finish (session end). */
	async close(): Promise<void> {
		// A run cut short may leave its start snapshot pending: recorded if it ends within the drain time.
		let timer: NodeJS.Timeout | undefined;
		await Promise.race([
			this.settleStart(),
			new Promise<void>((resolve) => {
				timer = setTimeout(resolve, SHUTDOWN_DRAIN_MS);
				timer.unref();
			}),
		]);
		clearTimeout(timer);
		const store = this.store;
		this.store = undefined;
		await store?.shutdown(SHUTDOWN_DRAIN_MS);
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
		// An ephemeral session (--no-session) keeps nothing on disk, copies of files included.
		const store = ctx.sessionManager.getSessionFile() ? this.storeFor(ctx.cwd) : undefined;
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

	/**
	 * Starts the snapshot before a prompt without waiting for it; settleStart() waits for it and
	 * records it. Recorded only there, so its place on the branch is fixed: after the user message
	 * (appended while the snapshot runs), before whatever settles it (the reply, a tool call).
	 */
	startCapture(ctx: ExtensionContext): void {
		// A start still pending (a prompt that never settled it) is recorded first: the order holds.
		const previous = this.settleStart();
		const start: PendingStart = {
			ctx,
			done: false,
			data: previous
				.then(() => this.capture(ctx, { reason: "start" }))
				.catch((error: unknown) => {
					this.fail(ctx, error);
					return undefined;
				}),
		};
		this.pendingStart = start;
	}

	/** Waits for the pending start snapshot, if any, and records it (once). A failure is a notice (fail). */
	async settleStart(): Promise<void> {
		const start = this.pendingStart;
		if (!start) return;
		const data = await start.data;
		// Several hooks may wait at once: the first to resume records it, the others find it done.
		if (start.done) return;
		start.done = true;
		if (this.pendingStart === start) this.pendingStart = undefined;
		try {
			this.record(data);
		} catch (error) {
			this.fail(start.ctx, error);
		}
	}
}
