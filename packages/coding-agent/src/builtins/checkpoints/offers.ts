// "Restore files to this point" in /tree and /fork, through the session
// events every mode emits: `session_before_tree` / `session_before_fork` ask
// (a dialog in the app and over rpc; nothing without a UI), the tree move's
// restore runs on `session_tree` once the leaf has really moved (a cancelled
// move restores nothing), the fork's before the new session replaces this one
// and is recorded in the new session by the extension instance that starts
// there (a switch starts the extensions over: session_start, reason "fork").
import type { ExtensionAPI, ExtensionContext } from "../../extensions/types.js";
import type { Checkpoints } from "./checkpoints.js";
import type { BranchCheckpoint, CheckpointData } from "./entries.js";
import { checkpointAt, checkpointBefore, isOnCurrentBranch, leafAfterTreeMove } from "./entries.js";
import { askRestore, performRestore, type RestoreDecision } from "./flow.js";

/**
 * A restore made for a fork, waiting for the forked session. The instance that
 * asked is shut down by the fork, so the handoff lives beside the factory, keyed
 * by the file forked from (session_start's previousSessionFile) or, for a
 * session without a file, by its id.
 */
const forkRestores = new Map<string, CheckpointData>();
const forkKey = (file: string | undefined, sessionId: string) => file ?? `id:${sessionId}`;

export function registerRestoreOffers(pi: ExtensionAPI, cp: Checkpoints): void {
	let pending: { leafId: string | null; decision: RestoreDecision } | undefined;

	// `target`: the state the move lands on (entries.ts: a user message's own start checkpoint counts).
	const offer = async (ctx: ExtensionContext, target: BranchCheckpoint | undefined, heading: string) => {
		const store = cp.storeFor(ctx.cwd);
		if (!store || !ctx.hasUI) return undefined;
		if (!target) return undefined;
		const known = checkpointAt(ctx.sessionManager, ctx.sessionManager.getLeafId());
		try {
			return await askRestore(ctx, store, target.data.commit, known?.data.commit, heading);
		} catch (error) {
			cp.fail(ctx, error);
			return undefined;
		}
	};

	pi.on("session_before_tree", async (event, ctx) => {
		pending = undefined;
		await cp.settleStart();
		const targetId = event.preparation.targetId;
		const newLeaf = leafAfterTreeMove(ctx.sessionManager, targetId);
		// The leaf lands before a user message, where the files are as they were at it (its start checkpoint).
		const target = checkpointAt(ctx.sessionManager, targetId);
		const decision = await offer(ctx, target, "Files differ from that point of the session.");
		if (decision) pending = { leafId: newLeaf, decision };
		return undefined;
	});

	pi.on("session_tree", async (_event, ctx) => {
		await cp.settleStart();
		const p = pending;
		pending = undefined;
		const store = cp.storeFor(ctx.cwd);
		if (!p || !store) return;
		// A summary entry may sit between the target and the new leaf; the move is the one we asked about
		// when the new leaf's branch passes through the point we planned for.
		if (p.leafId !== null && !isOnCurrentBranch(ctx.sessionManager, p.leafId)) return;
		await performRestore(cp, ctx, store, p.decision, true);
	});

	pi.on("session_before_fork", async (event, ctx) => {
		await cp.settleStart();
		const sm = ctx.sessionManager;
		const target = event.position === "before" ? checkpointBefore(sm, event.entryId) : checkpointAt(sm, event.entryId);
		const decision = await offer(ctx, target, "Files differ from the point you are forking from.");
		const store = cp.storeFor(ctx.cwd);
		// The fork replaces this session next: the restore goes into the new session (session_start).
		const key = forkKey(ctx.sessionManager.getSessionFile(), ctx.sessionManager.getSessionId());
		forkRestores.delete(key);
		const done = decision && store ? await performRestore(cp, ctx, store, decision, false) : undefined;
		if (done) forkRestores.set(key, done.data);
		return undefined;
	});

	pi.on("session_start", (event) => {
		if (event.reason !== "fork") return;
		const restores = [...forkRestores.entries()];
		// Without a file the session forked from is known only by id: the one waiting that is not this session.
		const [key, data] =
			restores.find(([k]) => k === event.previousSessionFile) ??
			(event.previousSessionFile ? undefined : restores.find(([k]) => k.startsWith("id:"))) ??
			[];
		if (key === undefined || data === undefined) return;
		forkRestores.delete(key);
		cp.record(data);
	});
}
