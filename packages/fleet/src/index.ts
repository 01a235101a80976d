// @pi/fleet: many pi runs across machines. BullMQ on Redis places and recovers
// runs; PostgreSQL holds sessions with the JSONL files' append-only rules.
// What is here so far: the PostgreSQL session store and the pieces a resumed
// run is built from (see docs/fleet.md for what is not built yet).
export * from "./config.js";
export { openDatabase } from "./db.js";
export { applyInbox, INBOX_CHANNEL, type InboxItem, type InboxKind, sendToInbox } from "./inbox.js";
export { Mirror } from "./mirror.js";
export { LINES_CHANNEL, PgSessionStore } from "./pg-store.js";
export { applyReplayRule, interruptedText, REPLAY_SAFE_TOOLS, type ReplayOutcome } from "./replay.js";
export { restoreWorkspace, snapshotWorkspace, workTreeOf } from "./workspace.js";
