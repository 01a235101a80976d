// @pi/fleet: many pi runs across machines. BullMQ on Redis places and recovers
// runs; PostgreSQL holds sessions with the JSONL files' append-only rules.
// `pi fleet …` (cli.ts) is loaded by the core CLI by package name at run time.

export { type FleetIo, runFleetCommand } from "./cli.js";
export * from "./config.js";
export { openDatabase } from "./db.js";
export { applyInbox, INBOX_CHANNEL, type InboxItem, type InboxKind, sendToInbox } from "./inbox.js";
export { Mirror } from "./mirror.js";
export { LINES_CHANNEL, PgSessionStore } from "./pg-store.js";
export { checkRedis, type LockSettings, lockSettings, openQueue, type RunJobData } from "./queue.js";
export { applyReplayRule, interruptedText, REPLAY_SAFE_TOOLS, type ReplayOutcome } from "./replay.js";
export { FencedError, type RunEnd, runSession } from "./run.js";
export { tailSession } from "./status.js";
export { cancelRun, type SubmitRequest, submitRun } from "./submit.js";
export { childExtensionPath, type FleetWorker, startWorker, type WorkerOptions } from "./worker.js";
export { restoreWorkspace, snapshotWorkspace, workTreeOf } from "./workspace.js";
